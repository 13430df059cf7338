// Who a process on a GPU is, for declared labels keyed by process, container, pod or Slurm job:
// its name (/proc/PID/comm), its container ID and Slurm job (from /proc/PID/cgroup), its
// Kubernetes pod name and what it declares of itself (from /proc/PID/environ). Sources only
// list PIDs; naming them is this module's job. See docs/watch.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wt::watch {

struct ProcessIdentity {
  std::uint32_t pid = 0;
  std::string name;          // comm: at most 15 characters (the kernel truncates); "" when unreadable
  std::string container_id;  // 64 hex digits; "" when not in a container, or unreadable
  std::string pod;           // "" when not in a pod, or its environment is unreadable
  std::string slurm_job;     // the Slurm job ID (digits, from /proc/PID/cgroup); "" when not in one
  std::string declared = {};  // the value of the resolver's declaration variable; "" when unset or unreadable
  friend bool operator==(const ProcessIdentity&, const ProcessIdentity&) = default;
};

// The container ID in the text of /proc/PID/cgroup: the innermost path component that is, or
// wraps, 64 hex digits (docker-ID.scope, cri-containerd-ID.scope, crio-ID.scope,
// libpod-ID.scope, /docker/ID, /kubepods/.../podUID/ID). "" when there is none.
std::string container_id_from_cgroup(const std::string& cgroup);

// The Slurm job ID in the text of /proc/PID/cgroup: the digits of a `job_ID` path component below
// one that names Slurm (cgroup v1: /slurm/uid_U/job_ID/step_S/...; cgroup v2:
// /system.slice/slurmstepd.scope/job_ID/step_S/...; either with the node's name in it when
// several slurmd share a host). "" when there is none.
std::string slurm_job_from_cgroup(const std::string& cgroup);

// The pod in the NUL-separated text of /proc/PID/environ: POD_NAME (as set by the Downward
// API), else HOSTNAME when KUBERNETES_SERVICE_HOST is set (Kubernetes names a pod's host after
// the pod); NAMESPACE/NAME when POD_NAMESPACE is set too. "" when neither applies.
std::string pod_from_environ(const std::string& environ);

// The value of variable `name` in the NUL-separated text of /proc/PID/environ; "" when unset.
std::string env_value(const std::string& environ, std::string_view name);

// What a GPU's job is, by who runs on it (`watch --job-by`): "pod:[NAMESPACE/]NAME", "slurm:ID", or
// "container:" and the ID's first 12 hex digits (as `docker ps` shows it), when every process
// that has one shares it; "" when none has one or they differ (a GPU shared by two jobs belongs
// to neither).
enum class JobOwner { Pod, Slurm, Container };
std::string common_owner(JobOwner by, std::span<const ProcessIdentity> processes);

// `--job-by`'s value ("pod", "slurm" or "container"); std::invalid_argument for anything else.
JobOwner parse_job_owner(const std::string& by);
std::string_view job_owner_name(JobOwner by);

// What a GPU's source says runs on it: the PIDs, the pods, and the values of a declaration
// label on its series (each empty when unknown).
struct GpuOccupancy {
  std::span<const std::uint32_t> pids;
  std::span<const std::string> pods;
  std::span<const std::string> declared;
};

class ProcessResolver {
 public:
  // `proc_root`: where procfs is mounted ("/proc"; a fixture directory in tests).
  // `declared_env`: the variable whose value a process declares its workload by
  // (`watch --declared-env`), "" for none.
  explicit ProcessResolver(std::string proc_root = "/proc", std::string declared_env = "")
      : root_(std::move(proc_root)), declared_env_(std::move(declared_env)) {}
  // Whatever of the four can be read now: a process that has exited, or whose environment
  // belongs to another user (readable only by root or the same user), leaves fields empty.
  ProcessIdentity resolve(std::uint32_t pid) const;
  // Who runs on a GPU: each of `pids` resolved, then each pod a source names (dcgm-exporter in
  // Kubernetes) standing as a process with no PID.
  std::vector<ProcessIdentity> resolve(std::span<const std::uint32_t> pids, std::span<const std::string> pods) const;
  const std::string& declared_env() const { return declared_env_; }

 private:
  std::string root_;
  std::string declared_env_;
};

}  // namespace wt::watch
