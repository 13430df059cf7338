// `--job NAME=GPUS`, as classify and watch take it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "pipeline/job_groups.hpp"

namespace wt::cli {

// Repeatable; each value one job (a GPU list has commas, so values are not split on them).
CLI::Option* add_job_option(CLI::App& app, std::vector<std::string>& specs, const std::string& what);

// Parsed and checked (std::invalid_argument, exit 2, on a bad or overlapping spec).
std::vector<JobSpec> job_specs(const std::vector<std::string>& specs);

}  // namespace wt::cli
