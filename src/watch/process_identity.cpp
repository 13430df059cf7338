#include "watch/process_identity.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "core/sample.hpp"

namespace wt::watch {
namespace {

constexpr std::size_t kContainerIdLength = 64;

bool is_container_id(std::string_view s) {
  return s.size() == kContainerIdLength &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The ID in one cgroup path component: the component itself, or RUNTIME-ID.scope.
std::string_view id_in_component(std::string_view c) {
  if (c.ends_with(".scope")) c.remove_suffix(6);
  if (const auto dash = c.rfind('-'); dash != std::string_view::npos) c.remove_prefix(dash + 1);
  return is_container_id(c) ? c : std::string_view{};
}

// The whole file, or "" when it cannot be read (gone, or not ours to read).
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string container_id_from_cgroup(const std::string& cgroup) {
  std::istringstream lines(cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "HIERARCHY:CONTROLLERS:PATH"; the path may itself hold ':' (never in these IDs).
    const auto second_colon = line.find(':', line.find(':') + 1);
    if (second_colon == std::string::npos) continue;
    std::string_view path(line);
    path.remove_prefix(second_colon + 1);
    // Innermost first: a container nested in a pod's slice is named by its own scope.
    while (!path.empty()) {
      const auto slash = path.rfind('/');
      const std::string_view component = slash == std::string_view::npos ? path : path.substr(slash + 1);
      if (const auto id = id_in_component(component); !id.empty()) return std::string(id);
      if (slash == std::string_view::npos) break;
      path = path.substr(0, slash);
    }
  }
  return {};
}

std::string slurm_job_from_cgroup(const std::string& cgroup) {
  std::istringstream lines(cgroup);
  for (std::string line; std::getline(lines, line);) {
    const auto second_colon = line.find(':', line.find(':') + 1);
    if (second_colon == std::string::npos) continue;
    bool below_slurm = false;
    std::istringstream components(line.substr(second_colon + 1));
    for (std::string c; std::getline(components, c, '/');) {
      const auto digit = [](char d) { return d >= '0' && d <= '9'; };
      if (below_slurm && c.size() > 4 && c.starts_with("job_") && std::all_of(c.begin() + 4, c.end(), digit))
        return c.substr(4);
      below_slurm = below_slurm || c.find("slurm") != std::string::npos;
    }
  }
  return {};
}

std::string pod_from_environ(const std::string& environ) {
  std::string pod, hostname, name_space;
  bool in_kubernetes = false;
  std::istringstream vars(environ);
  for (std::string var; std::getline(vars, var, '\0');) {
    if (var.starts_with("POD_NAME="))
      pod = var.substr(9);
    else if (var.starts_with("POD_NAMESPACE="))
      name_space = var.substr(14);
    else if (var.starts_with("HOSTNAME="))
      hostname = var.substr(9);
    else if (var.starts_with("KUBERNETES_SERVICE_HOST="))
      in_kubernetes = true;
  }
  if (pod.empty() && in_kubernetes) pod = hostname;
  return pod.empty() ? pod : pod_name(name_space, pod);
}

std::string env_value(const std::string& environ, std::string_view name) {
  std::istringstream vars(environ);
  for (std::string var; std::getline(vars, var, '\0');)
    if (var.size() > name.size() && var.starts_with(name) && var[name.size()] == '=')
      return var.substr(name.size() + 1);
  return "";
}

ProcessIdentity ProcessResolver::resolve(std::uint32_t pid) const {
  const std::string dir = root_ + "/" + std::to_string(pid) + "/";
  ProcessIdentity p;
  p.pid = pid;
  p.name = read_file(dir + "comm");
  if (!p.name.empty() && p.name.back() == '\n') p.name.pop_back();
  const std::string cgroup = read_file(dir + "cgroup");
  p.container_id = container_id_from_cgroup(cgroup);
  p.slurm_job = slurm_job_from_cgroup(cgroup);
  const std::string environ = read_file(dir + "environ");
  p.pod = pod_from_environ(environ);
  if (!declared_env_.empty()) p.declared = env_value(environ, declared_env_);
  return p;
}

std::vector<ProcessIdentity> ProcessResolver::resolve(std::span<const std::uint32_t> pids,
                                                      std::span<const std::string> pods) const {
  std::vector<ProcessIdentity> out;
  for (const std::uint32_t pid : pids) out.push_back(resolve(pid));
  for (const std::string& pod : pods) out.push_back({0, "", "", pod, ""});
  return out;
}

std::string_view job_owner_name(JobOwner by) {
  return by == JobOwner::Pod ? "pod" : by == JobOwner::Slurm ? "slurm" : "container";
}

JobOwner parse_job_owner(const std::string& by) {
  for (const JobOwner o : {JobOwner::Pod, JobOwner::Slurm, JobOwner::Container})
    if (by == job_owner_name(o)) return o;
  throw std::invalid_argument("job_by '" + by + "': give pod, slurm or container");
}

std::string common_owner(JobOwner by, std::span<const ProcessIdentity> processes) {
  std::string owner;
  for (const ProcessIdentity& p : processes) {
    const std::string o = by == JobOwner::Pod     ? p.pod
                          : by == JobOwner::Slurm ? p.slurm_job
                                                  : p.container_id.substr(0, 12);
    if (o.empty()) continue;
    if (!owner.empty() && o != owner) return "";
    owner = o;
  }
  if (owner.empty()) return "";
  return std::string(job_owner_name(by)) + ":" + owner;
}

}  // namespace wt::watch
