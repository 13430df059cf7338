#include "pipeline/job_owners.hpp"

#include <algorithm>
#include <span>

#include "pipeline/job_groups.hpp"

namespace wt {

void group_jobs_by_owner(ClassifyResult& result, watch::JobOwner by, const watch::ProcessResolver& resolver) {
  const std::vector<JobSpec> jobs = jobs_by_owner(result, [&](const GpuReport& g) {
    const auto pids = g.processes ? std::span<const std::uint32_t>(*g.processes) : std::span<const std::uint32_t>{};
    const auto pods = g.pods ? std::span<const std::string>(*g.pods) : std::span<const std::string>{};
    return watch::common_owner(by, resolver.resolve(pids, pods));
  });
  group_jobs(result, jobs);
  if (!jobs.empty()) return;
  const std::string name(watch::job_owner_name(by));
  const bool listed =
      std::any_of(result.gpus.begin(), result.gpus.end(), [](const GpuReport& g) { return g.processes || g.pods; });
  result.diagnostics.push_back(
      {"jobs by " + name,
       listed ? "no GPU's processes all belong to one " + name + ", so no job is made"
              : "the source lists no process on any GPU (only live GPUs, or dcgm-exporter's pod label, do), so no "
                "job is made",
       false});
}

}  // namespace wt
