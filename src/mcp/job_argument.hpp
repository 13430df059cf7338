// The `jobs` argument of the classify tools: GPUs that run one job, as `classify --job` takes them.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "pipeline/job_groups.hpp"

namespace wt::mcp {

nlohmann::json jobs_argument_schema();

// The specs in `arguments["jobs"]` (none when absent), checked as `classify --job` checks them;
// throws std::invalid_argument, which the tool reports as its error.
std::vector<JobSpec> jobs_argument(const nlohmann::json& arguments);

}  // namespace wt::mcp
