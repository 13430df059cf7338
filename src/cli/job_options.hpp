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

// `--job-by pod|slurm|container`: jobs made from who runs on the GPUs. `what` ends its help.
CLI::Option* add_job_by_option(CLI::App& app, std::string& by, const std::string& what);

// `--proc-root` and `--sys-root`: where the host's procfs and sysfs are mounted, to name each
// GPU's processes (and, on AMD, to list them).
void add_host_root_options(CLI::App& app, std::string& proc_root, std::string& sys_root);

}  // namespace wt::cli
