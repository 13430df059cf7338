// `workloadtruth classify`: one verdict per GPU, from a live, synthetic or recorded source.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finite_range.hpp"
#include "cli/job_options.hpp"
#include "cli/run_guarded.hpp"
#include "cli/source_options.hpp"
#include "classify/classifier.hpp"
#include "output/classify_json.hpp"
#include "output/classify_text.hpp"
#include "pipeline/classify_stream.hpp"
#include "pipeline/job_groups.hpp"
#include "pipeline/job_owners.hpp"

namespace wt::cli {
namespace {

struct ClassifyOptions {
  SourceOptions source;
  WindowSpec window;
  std::string classifier = "xgboost";
  std::string model;
  std::vector<std::string> jobs;
  std::string job_by;
  std::string proc_root = "/proc";
  bool json = false;
  bool verbose = false;
};

bool has_errors(const Diagnostics& d) {
  for (const auto& x : d)
    if (x.is_error) return true;
  return false;
}

int run_classify(const ClassifyOptions& o) {
  if (o.window.stride_s > o.window.length_s)
    throw std::invalid_argument("--stride must not exceed --window (samples between windows would be ignored)");
  if (o.source.print_scenarios_if_asked(std::cout)) return exit_code::kOk;
  const std::vector<JobSpec> jobs = job_specs(o.jobs);
  if (!jobs.empty() && o.source.resolved_backend() == "synthetic")
    throw std::invalid_argument("--job: the synthetic source has one GPU, nothing to group (use --backend sim or a trace)");
  if (!jobs.empty() && !o.job_by.empty()) throw std::invalid_argument("--job and --job-by cannot be combined");
  const auto classifier = make_classifier(o.classifier, o.model);
  const auto source = o.source.open();
  ClassifyResult result = classify_stream(*source, *classifier, o.window);
  if (result.gpus.empty()) {
    print_diagnostics(std::cerr, result.diagnostics);  // why (each node's pipe that gave nothing, say)
    throw NoTelemetryError(result.source + ": no samples");
  }
  if (o.job_by.empty()) {
    group_jobs(result, jobs);
  } else {
    group_jobs_by_owner(result, watch::parse_job_owner(o.job_by), watch::ProcessResolver(o.proc_root));
  }

  print_diagnostics(std::cerr, result.diagnostics);
  if (o.json) {
    // A synthetic run keeps the seed tool's single-verdict object for parity.
    const bool seed_shape = o.source.resolved_backend() == "synthetic";
    std::cout << (seed_shape ? seed_verdict_json(result.gpus.front()) : classify_result_json(result)).dump(2) << '\n';
  } else {
    print_classify_text(std::cout, result, o.verbose);
  }
  return has_errors(result.diagnostics) ? exit_code::kBadInput : exit_code::kOk;
}

}  // namespace

Command add_classify_command(CLI::App& app) {
  auto o = std::make_shared<ClassifyOptions>();
  CLI::App* sub = app.add_subcommand("classify", "Classify what each GPU is doing (exit 0 classified, 1 bad input, "
                                                 "2 usage, 3 no telemetry)");
  o->source.add_to(*sub, "--format");
  o->source.add_trace_positional(*sub);
  sub->add_option("--window", o->window.length_s, "Window length in seconds")->check(finite_range(0.1, 86400.0));
  sub->add_option("--stride", o->window.stride_s, "Seconds between window starts")->check(finite_range(0.1, 86400.0));
  sub->add_option("--classifier", o->classifier,
                  "Classifier: xgboost (trained, the default) or rules (the seed tool's rules, for parity)")
      ->check(CLI::IsMember(classifier_names()));
  sub->add_option("--model", o->model, "Model file for the xgboost classifier (default: the built-in model)");
  add_job_option(*sub, o->jobs,
                 "Adds a verdict per job from the windows of all its GPUs, since a job's work need not show on each "
                 "of them");
  CLI::Option* job_by = add_job_by_option(*sub, o->job_by, "Who ran on each GPU as last listed, at the end of the run");
  add_host_root_options(*sub, o->proc_root, o->source.sys_root);
  sub->get_option("--proc-root")->needs(job_by);
  sub->get_option("--sys-root")->needs(job_by);
  sub->add_flag("--json", o->json, "Print JSON");
  sub->add_flag("-v,--verbose", o->verbose, "Print every reason behind each verdict");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_classify(*o); }); }};
}

}  // namespace wt::cli
