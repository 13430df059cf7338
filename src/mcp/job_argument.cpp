#include "mcp/job_argument.hpp"

namespace wt::mcp {

nlohmann::json jobs_argument_schema() {
  return {{"type", "array"},
          {"items", {{"type", "string"}, {"minLength", 3}}},
          {"maxItems", 4096},
          {"description",
           "GPUs that run one job, each NAME=GPUS (\"train=0-7\", \"serve=0,2\", \"node=all\"; where the "
           "source reads several hosts, HOST/ before an item names that host's GPUs: "
           "\"train=node1/0-7,node2/0-7\"): adds jobs[], one "
           "verdict per job from the windows of all its GPUs, since a job's work need not show on each of them"}};
}

std::vector<JobSpec> jobs_argument(const nlohmann::json& arguments) {
  std::vector<JobSpec> jobs;
  if (!arguments.contains("jobs")) return jobs;
  for (const auto& j : arguments["jobs"]) jobs.push_back(parse_job_spec(j.get<std::string>()));
  check_job_specs(jobs);
  return jobs;
}

}  // namespace wt::mcp
