#include "cli/job_options.hpp"

namespace wt::cli {

CLI::Option* add_job_option(CLI::App& app, std::vector<std::string>& specs, const std::string& what) {
  return app
      .add_option("--job", specs,
                  "GPUs that run one job, NAME=GPUS (train=0-7, serve=0,2, node=all); repeat for more jobs. " + what)
      ->allow_extra_args(false);
}

std::vector<JobSpec> job_specs(const std::vector<std::string>& specs) {
  std::vector<JobSpec> jobs;
  for (const std::string& s : specs) jobs.push_back(parse_job_spec(s));
  check_job_specs(jobs);
  return jobs;
}

}  // namespace wt::cli
