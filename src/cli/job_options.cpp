#include "cli/job_options.hpp"

namespace wt::cli {

CLI::Option* add_job_option(CLI::App& app, std::vector<std::string>& specs, const std::string& what) {
  return app
      .add_option("--job", specs,
                  "GPUs that run one job, NAME=GPUS (train=0-7, serve=0,2, node=all; of one host where a source "
                  "reads several: train=node1/0-7,node2/0-7); repeat for more jobs. " + what)
      ->allow_extra_args(false);
}

CLI::Option* add_job_by_option(CLI::App& app, std::string& by, const std::string& what) {
  return app
      .add_option("--job-by", by,
                  "Instead of --job: GPUs whose processes share one Kubernetes pod (or Slurm job, or container) are "
                  "one job (live NVIDIA or AMD GPUs, or dcgm-exporter's pod label). " + what)
      ->check(CLI::IsMember({"pod", "slurm", "container"}));
}

void add_host_root_options(CLI::App& app, std::string& proc_root, std::string& sys_root) {
  app.add_option("--proc-root", proc_root,
                 "Where the host's procfs is mounted, to name the processes on each GPU (default /proc)");
  app.add_option("--sys-root", sys_root,
                 "Where the host's sysfs is mounted, to list the processes on each AMD GPU (default /sys)");
}

std::vector<JobSpec> job_specs(const std::vector<std::string>& specs) {
  std::vector<JobSpec> jobs;
  for (const std::string& s : specs) jobs.push_back(parse_job_spec(s));
  check_job_specs(jobs);
  return jobs;
}

}  // namespace wt::cli
