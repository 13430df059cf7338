#include "watch/process_identity.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.hpp"

namespace wt::watch {
namespace {

const std::string kId = "3f2a9c1b7e4d" + std::string(52, 'a');  // 64 hex digits

// A fake procfs: DIR/PID/{comm,cgroup,environ}; a file is written only when given.
std::string fake_proc(const std::string& name) {
  const auto root = std::filesystem::path(test::write_temp(name + ".marker", "")).parent_path() / name;
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);
  return root.string();
}

void add_process(const std::string& root, int pid, const std::string& comm, const std::string& cgroup,
                 const std::string& environ) {
  const auto dir = std::filesystem::path(root) / std::to_string(pid);
  std::filesystem::create_directories(dir);
  if (!comm.empty()) std::ofstream(dir / "comm", std::ios::binary) << comm << '\n';
  if (!cgroup.empty()) std::ofstream(dir / "cgroup", std::ios::binary) << cgroup;
  if (!environ.empty()) std::ofstream(dir / "environ", std::ios::binary) << environ;
}

}  // namespace

TEST(ContainerIdFromCgroup, EveryRuntimeLayout) {
  EXPECT_EQ(container_id_from_cgroup("0::/system.slice/docker-" + kId + ".scope\n"), kId);  // docker, cgroup v2
  EXPECT_EQ(container_id_from_cgroup("12:memory:/docker/" + kId + "\n11:cpu:/docker/" + kId + "\n"), kId);  // v1
  EXPECT_EQ(container_id_from_cgroup("0::/kubepods.slice/kubepods-burstable.slice/"
                                     "kubepods-burstable-pod0c1d2e3f_4a5b_6c7d_8e9f_0a1b2c3d4e5f.slice/"
                                     "cri-containerd-" +
                                     kId + ".scope\n"),
            kId);
  EXPECT_EQ(container_id_from_cgroup("0::/kubepods.slice/kubepods-besteffort.slice/x.slice/crio-" + kId + ".scope\n"),
            kId);
  EXPECT_EQ(
      container_id_from_cgroup("4:pids:/kubepods/burstable/pod0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f/" + kId + "\n"),
      kId);  // cgroupfs driver
  EXPECT_EQ(container_id_from_cgroup("0::/machine.slice/libpod-" + kId + ".scope/container\n"), kId);  // podman
}

TEST(ContainerIdFromCgroup, HostProcessesAndLookAlikesHaveNone) {
  EXPECT_EQ(container_id_from_cgroup("0::/user.slice/user-1000.slice/session-2.scope\n"), "");
  EXPECT_EQ(container_id_from_cgroup("0::/system.slice/docker-3f2a9c1b7e4d.scope\n"), "");  // too short
  EXPECT_EQ(container_id_from_cgroup("0::/docker/" + std::string(64, 'g') + "\n"), "");     // not hex
  EXPECT_EQ(container_id_from_cgroup("garbage\n"), "");
  EXPECT_EQ(container_id_from_cgroup(""), "");
}

TEST(PodFromEnviron, PodNameElseHostnameOnlyInKubernetes) {
  using namespace std::string_literals;
  EXPECT_EQ(pod_from_environ("PATH=/bin\0POD_NAME=llm-serve-7d9f\0HOSTNAME=other\0"s), "llm-serve-7d9f");
  EXPECT_EQ(pod_from_environ("HOSTNAME=trainer-0\0KUBERNETES_SERVICE_HOST=10.0.0.1\0"s), "trainer-0");
  EXPECT_EQ(pod_from_environ("POD_NAMESPACE=team-b\0POD_NAME=vllm-0\0"s), "team-b/vllm-0");
  EXPECT_EQ(pod_from_environ("HOSTNAME=vllm-0\0POD_NAMESPACE=team-b\0KUBERNETES_SERVICE_HOST=10.0.0.1\0"s),
            "team-b/vllm-0");
  EXPECT_EQ(pod_from_environ("HOSTNAME=workstation\0PATH=/bin\0"s), "");  // not in Kubernetes
  EXPECT_EQ(pod_from_environ("POD_NAMESPACE=team-b\0"s), "");
  EXPECT_EQ(pod_from_environ(""), "");
}

TEST(EnvValue, TheWholeNameOnly) {
  using namespace std::string_literals;
  const std::string env = "WT_DECLARED_X=hpc\0WT_DECLARED=inference\0EMPTY=\0"s;
  EXPECT_EQ(env_value(env, "WT_DECLARED"), "inference");
  EXPECT_EQ(env_value(env, "WT_DECLARED_X"), "hpc");
  EXPECT_EQ(env_value(env, "WT"), "");
  EXPECT_EQ(env_value(env, "EMPTY"), "");
  EXPECT_EQ(env_value("", "WT_DECLARED"), "");
}

TEST(CommonOwner, OnePodOrContainerForEveryProcessThatHasOne) {
  const std::string c1(64, 'a'), c2(64, 'b');
  const std::vector<ProcessIdentity> one_pod{{1, "python", c1, "trainer-0", ""},
                                             {2, "python", c2, "trainer-0", ""},
                                             {3, "nvidia-smi", "", "", ""}};
  EXPECT_EQ(common_owner(JobOwner::Pod, one_pod), "pod:trainer-0");
  EXPECT_EQ(common_owner(JobOwner::Container, one_pod), "");  // two containers in the pod
  const std::vector<ProcessIdentity> one_container{{1, "python", c1, "", ""}, {2, "python", c1, "", ""}};
  EXPECT_EQ(common_owner(JobOwner::Container, one_container), "container:aaaaaaaaaaaa");
  EXPECT_EQ(common_owner(JobOwner::Pod, one_container), "");
  const std::vector<ProcessIdentity> two_pods{{1, "", "", "a", ""}, {2, "", "", "b", ""}};
  EXPECT_EQ(common_owner(JobOwner::Pod, two_pods), "");
  EXPECT_EQ(common_owner(JobOwner::Pod, {}), "");
  const std::vector<ProcessIdentity> one_slurm_job{{1, "python", "", "", "4242"}, {2, "srun", "", "", ""}};
  EXPECT_EQ(common_owner(JobOwner::Slurm, one_slurm_job), "slurm:4242");
  const std::vector<ProcessIdentity> two_slurm_jobs{{1, "", "", "", "1"}, {2, "", "", "", "2"}};
  EXPECT_EQ(common_owner(JobOwner::Slurm, two_slurm_jobs), "");
}

TEST(SlurmJobFromCgroup, CgroupV1AndV2Layouts) {
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/slurmstepd.scope/job_1392969/step_0/user/task_0\n"), "1392969");
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/gpu07_slurmstepd.scope/job_12/step_batch/user/task_special\n"),
            "12");  // several slurmd on one host: the node's name in the scope
  EXPECT_EQ(slurm_job_from_cgroup("12:memory:/x\n10:devices:/slurm/uid_2101171/job_280678/step_interactive/task_0\n"),
            "280678");  // cgroup v1: the first controller line with a job
  EXPECT_EQ(slurm_job_from_cgroup("4:cpuset:/slurm_gpu07/uid_1000/job_77/step_0\n"), "77");
}

TEST(SlurmJobFromCgroup, OtherJobsAndLookAlikesHaveNone) {
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/slurmstepd.scope/system\n"), "");  // slurmstepd itself
  EXPECT_EQ(slurm_job_from_cgroup("0::/user.slice/job_456\n"), "");                    // not under Slurm
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/slurmstepd.scope/job_x1/step_0\n"), "");
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/slurmstepd.scope/job_\n"), "");
  EXPECT_EQ(slurm_job_from_cgroup("0::/system.slice/docker-" + kId + ".scope\n"), "");
  EXPECT_EQ(slurm_job_from_cgroup("garbage"), "");
}

TEST(ProcessResolver, ReadsAFakeProcTree) {
  using namespace std::string_literals;
  const std::string root = fake_proc("proc_tree");
  add_process(root, 100, "vllm", "0::/kubepods.slice/cri-containerd-" + kId + ".scope\n",
              "KUBERNETES_SERVICE_HOST=10.0.0.1\0HOSTNAME=llm-serve-7d9f\0"s);
  add_process(root, 200, "python3", "0::/user.slice/session-2.scope\n", "");  // environ unreadable: left out
  const ProcessResolver resolver(root);
  EXPECT_EQ(resolver.resolve(100), (ProcessIdentity{100, "vllm", kId, "llm-serve-7d9f", ""}));
  EXPECT_EQ(resolver.resolve(200), (ProcessIdentity{200, "python3", "", "", ""}));
  EXPECT_EQ(resolver.resolve(300), (ProcessIdentity{300, "", "", "", ""}));  // exited
  // Asked for a declaration variable, the resolver reads it from the same environment.
  add_process(root, 400, "python", "", "PATH=/bin\0WORKLOADTRUTH_DECLARED=inference\0"s);
  const ProcessResolver declaring(root, "WORKLOADTRUTH_DECLARED");
  EXPECT_EQ(declaring.resolve(400).declared, "inference");
  EXPECT_EQ(declaring.resolve(100).declared, "");
  EXPECT_EQ(resolver.resolve(400).declared, "");  // not asked
}

TEST(ProcessResolver, ReadsThisProcess) {
  const ProcessResolver resolver;
  const ProcessIdentity self = resolver.resolve(static_cast<std::uint32_t>(::getpid()));
  EXPECT_EQ(self.name, "wt_tests");
}

}  // namespace wt::watch
