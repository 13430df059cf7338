// `workloadtruth watch`: classifies every GPU continuously, keeps a job verdict per GPU, checks
// it against declared labels, appends every window to the audit log. See docs/watch.md.
#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "audit/audit_log.hpp"
#include "classify/classifier.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finite_range.hpp"
#include "cli/job_options.hpp"
#include "cli/run_guarded.hpp"
#include "cli/source_options.hpp"
#include "cli/stop_signal.hpp"
#include "output/classify_json.hpp"
#include "output/classify_text.hpp"
#include "output/counted.hpp"
#include "output/watch_json.hpp"
#include "output/watch_view.hpp"
#include "sink/audit_sink.hpp"
#include "cli/metrics_options.hpp"
#include "sink/metrics_server.hpp"
#include "sink/metrics_sink.hpp"
#include "watch/alert_command.hpp"
#include "watch/declaration_sources.hpp"
#include "watch/declared_labels.hpp"
#include "watch/process_identity.hpp"
#include "watch/watcher.hpp"

namespace wt::cli {
namespace {

struct WatchCliOptions {
  SourceOptions source;
  watch::WatchOptions watch;
  std::string classifier = "xgboost";
  std::string model;
  bool json = false, plain = false, once = false;
  std::string log = "workloadtruth.log.jsonl";
  bool no_log = false;
  std::string sign_key;
  audit::AuditLogOptions log_options;
  std::vector<std::string> declared;
  std::vector<std::string> jobs;
  std::string job_by;
  std::string declared_file;
  std::string proc_root = "/proc";
  std::string declared_env;
  std::string on_mismatch;
  double on_mismatch_timeout_s = 10;
  MetricsOptions metrics;
};

// Runs --on-mismatch for each alert raised, with the event's JSON on stdin.
class AlertSink final : public watch::WatchSink {
 public:
  explicit AlertSink(watch::AlertCommand& command) : command_(command) {}
  void on_window(const watch::GpuWatch&, const Window&, const Verdict&, bool, double) override {}
  void on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) override {
    if (event.kind != watch::MismatchEvent::Kind::Raised) return;
    if (const std::string problem = command_.start(mismatch_json(gpu, event, now_s).dump() + "\n"); !problem.empty())
      std::cerr << "workloadtruth: warning: --on-mismatch: " << problem << '\n';
  }

 private:
  watch::AlertCommand& command_;
};

void warn(const std::string& message) { std::cerr << "workloadtruth: warning: " << message << '\n'; }

int run_watch(WatchCliOptions& o) {
  const WindowSpec& window = o.watch.window;
  if (window.stride_s > window.length_s)
    throw std::invalid_argument("--stride must not exceed --window (samples between windows would be ignored)");
  if (o.source.print_scenarios_if_asked(std::cout)) return exit_code::kOk;
  o.watch.jobs = job_specs(o.jobs);
  if (!o.jobs.empty() && !o.job_by.empty())
    throw std::invalid_argument("--job and --job-by: name the jobs or let the pods or containers make them, not both");
  // Read now, so that a file that does not load stops watch before it does anything; read again
  // by the endpoint when one changes.
  const MetricsAccess access_files = metrics_access(o.metrics);
  std::shared_ptr<MetricsCredentials> metrics_credentials;
  if (access_files.tls() || access_files.demands_credentials())
    metrics_credentials = std::make_shared<MetricsCredentials>(access_files, [](const std::string& note, bool failed) {
      if (failed)
        warn(note);
      else
        std::cerr << "workloadtruth: " << note << '\n';
    });
  const std::string backend = o.source.resolved_backend();
  if (!o.declared_env.empty() && backend != "nvml" && backend != "amd" && backend != "auto")
    throw std::invalid_argument("--declared-env reads the environment of the processes on each GPU, which only "
                                "--backend nvml, amd or auto list; not " + backend);
  if (o.source.samples == 0 && (backend == "synthetic" || (backend == "sim" && !o.source.duration_s)))
    throw std::invalid_argument("--backend " + backend + " needs --samples N" +
                                (backend == "sim" ? " or --duration S" : "") + " (it has no end of its own)");

  const auto classifier = make_classifier(o.classifier, o.model);
  // Loading the model parses megabytes of JSON into trees freed right after; hand those pages
  // back, or a daemon that runs for months keeps them resident (about 15 MB).
  ::malloc_trim(0);
  watch::DeclaredLabels flag_labels = watch::parse_declared_flags(o.declared);
  std::optional<watch::MappingFile> mapping;
  if (!o.declared_file.empty()) mapping.emplace(o.declared_file);
  std::optional<watch::AlertCommand> alert;
  if (!o.on_mismatch.empty()) alert.emplace(o.on_mismatch, o.on_mismatch_timeout_s);
  if (!o.sign_key.empty()) o.log_options.signing_key = audit::PrivateKey::load(o.sign_key);
  // A source that waits with no sample (a Prometheus followed while it is down) still lets the
  // housekeeping below run: its problems are said then, not at the end.
  std::function<void()> chores_while_waiting;
  o.source.waiting = [&chores_while_waiting] {
    if (chores_while_waiting) chores_while_waiting();
    return stop_signal() != 0;
  };
  const auto source = o.source.open();
  std::optional<audit::AuditLog> log;
  if (!o.no_log) {
    log.emplace(o.log, o.log_options);
    if (!log->recovery_note().empty()) warn(log->recovery_note());
  }

  const bool live = !o.json && !o.plain && ::isatty(STDOUT_FILENO) == 1;
  std::optional<AuditSink> audit_sink;
  std::optional<AlertSink> alert_sink;
  // The server goes before the sink it reads (declared after it, destroyed first).
  std::optional<MetricsSink> metrics_sink;
  std::optional<MetricsServer> metrics_server;
  JsonLinesView json_view(std::cout);
  PlainLinesView plain_view(std::cout);
  std::vector<watch::WatchSink*> sinks;
  if (log) sinks.push_back(&audit_sink.emplace(*log));
  if (alert) sinks.push_back(&alert_sink.emplace(*alert));
  if (!o.metrics.listen.empty()) {
    MetricsSink& m = metrics_sink.emplace();
    sinks.push_back(&m);
    metrics_server.emplace(parse_listen_address(o.metrics.listen, "--metrics-listen"), [&m] { return m.render(); },
                           metrics_credentials);
    std::cerr << "workloadtruth: serving metrics on " << metrics_server->url() << '\n';
    if (!access_files.tls() && access_files.demands_credentials())
      warn("the metrics credentials travel in clear text: give --metrics-cert-file and --metrics-key-file for https");
  }
  if (o.json)
    sinks.push_back(&json_view);
  else if (!live)
    sinks.push_back(&plain_view);

  // Processes are named (from /proc) once per window per GPU, while some key needs it.
  const watch::ProcessResolver resolver(o.proc_root, o.declared_env);
  watch::DeclarationSources declarations(std::move(flag_labels), mapping ? &*mapping : nullptr,
                                         o.source.declared_label, resolver, warn);
  watch::Watcher watcher(*classifier, o.watch,
                         [&declarations](const GpuIdentity& g, const watch::GpuOccupancy& on) {
                           return declarations.lookup(g, on);
                         },
                         sinks);
  if (!o.job_by.empty()) {
    const watch::JobOwner by = watch::parse_job_owner(o.job_by);
    watcher.join_jobs_by([&resolver, by](const GpuIdentity&, const watch::GpuOccupancy& on) {
      return watch::common_owner(by, resolver.resolve(on.pids, on.pods));
    });
  }
  LiveView live_view(std::cout);
  const std::string status_prefix =
      source->describe() + "  classifier " + o.classifier + (log ? "  log " + o.log : "  no log") + "  ";

  // The source's problems are said as they come (a daemon's journal has them at once; a
  // Prometheus followed that stops answering is said then); the count of those not kept, at the end.
  std::size_t problems_said = 0;
  auto say_problems = [&](std::size_t upto) {
    if (upto <= problems_said) return;
    const Diagnostics d = source->diagnostics();
    print_diagnostics(std::cerr, Diagnostics(d.begin() + static_cast<std::ptrdiff_t>(problems_said),
                                             d.begin() + static_cast<std::ptrdiff_t>(std::min(upto, d.size()))));
    problems_said = std::min(upto, d.size());
  };

  // Housekeeping between samples, at most every 0.2 s of wall time so a fast replay is not
  // slowed by it: the source's problems, the mapping file, finished alert commands, the live view.
  using Clock = std::chrono::steady_clock;
  auto next_chores = Clock::now();
  auto chores = [&](bool force) {
    const auto now = Clock::now();
    if (!force && now < next_chores) return;
    next_chores = now + std::chrono::milliseconds(200);
    say_problems(source->kept_count());
    if (mapping)
      if (auto w = mapping->refresh()) warn(*w);
    if (alert)
      for (const std::string& p : alert->poll()) warn(p);
    if (live) live_view.draw(watcher.gpus(), status_prefix + "(Ctrl-C to stop)");
  };
  chores_while_waiting = [&chores] { chores(false); };

  install_stop_handlers();
  std::string ended = "end of data";
  Sample s;
  bool flush = true;
  // Once every GPU has had a window (they all show in the first polls), a GPU a --job names that
  // has not appeared is said, once: the job is judged on the GPUs there are.
  bool jobs_checked = o.watch.jobs.empty();
  while (true) {
    if (const int sig = stop_signal()) {
      ended = stop_signal_name(sig);
      break;
    }
    if (!source->next(s)) {
      if (const int sig = stop_signal()) ended = stop_signal_name(sig);  // a source waiting heeds it too
      break;
    }
    watcher.push(s);
    if (!jobs_checked && watcher.every_gpu_classified()) {
      jobs_checked = true;
      std::vector<JobGpu> present;
      for (const watch::GpuWatch& g : watcher.gpus()) present.push_back(JobGpu::of(g.gpu));
      for (const Diagnostic& d : missing_job_gpus(o.watch.jobs, present))
        warn(d.text() + " (by the first windows); the job is judged on the GPUs there are");
    }
    if (o.once && watcher.every_gpu_classified()) {
      ended = "--once";
      flush = false;  // one verdict per GPU was asked for, not the partial windows after it
      break;
    }
    chores(false);
  }
  if (watcher.gpus().empty()) {
    say_problems(source->diagnostics_size());  // why (each node's pipe that gave nothing, say)
    throw NoTelemetryError(source->describe() + ": no samples");
  }
  if (flush) watcher.finish();
  if (alert)
    for (const std::string& p : alert->finish()) warn(p);
  if (log) log->close();

  std::size_t windows = 0;
  for (const auto& g : watcher.gpus()) windows += g.windows;
  const std::string summary = "watch ended (" + ended + "): " + counted(windows, "window") + " from " +
                              counted(watcher.gpus().size(), "GPU") +
                              (log ? "; " + std::to_string(log->entries()) + " entries in " + o.log : "");
  const Diagnostics diagnostics = source->diagnostics();
  say_problems(diagnostics.size());
  if (o.json) {
    std::cout << nlohmann::json{{"type", "end"},
                                {"reason", ended},
                                {"windows", windows},
                                {"gpus", watcher.gpus().size()},
                                {"log", log ? nlohmann::json(o.log) : nlohmann::json(nullptr)},
                                {"log_entries", log ? log->entries() : 0},
                                {"errors", diagnostics_json(diagnostics)}}
                     .dump()
              << '\n';
  } else if (live) {
    live_view.draw(watcher.gpus(), summary);
  } else {
    std::cout << summary << '\n';
  }
  for (const auto& d : diagnostics)
    if (d.is_error) return exit_code::kBadInput;
  return exit_code::kOk;
}

}  // namespace

Command add_watch_command(CLI::App& app) {
  auto o = std::make_shared<WatchCliOptions>();
  o->source.samples = 0;
  CLI::App* sub = app.add_subcommand(
      "watch",
      "Classify every GPU continuously over sliding windows, log each window to the audit log, and alert when a GPU "
      "keeps doing something other than its declared workload (exit 0 ok, 1 bad input, 2 usage, 3 no telemetry)");
  o->source.add_to(*sub, "--format", 0);
  o->source.add_follow_option(*sub);
  o->source.add_trace_positional(*sub);
  auto& w = o->watch;
  sub->add_option("--window", w.window.length_s, "Window length in seconds")->check(finite_range(0.1, 86400.0));
  sub->add_option("--stride", w.window.stride_s, "Seconds between window starts")->check(finite_range(0.1, 86400.0));
  sub->add_option("--classifier", o->classifier, "Classifier: xgboost (trained, the default) or rules")
      ->check(CLI::IsMember(classifier_names()));
  sub->add_option("--model", o->model, "Model file for the xgboost classifier (default: the built-in model)");
  sub->add_option("--hold", w.hysteresis.hold,
                  "Windows in a row a new class needs before it becomes a GPU's job verdict")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  sub->add_option("--switch-confidence", w.hysteresis.switch_confidence,
                  "A single window at least this confident switches the job verdict at once (above 1: never)")
      ->check(finite_range(0.0, 2.0));
  add_job_option(*sub, o->jobs,
                 "Each of its GPUs' job verdict and mismatch check then follow the job's windows pooled (the latest "
                 "of each GPU), since a job's work need not show on each of them");
  add_job_by_option(*sub, o->job_by, "Asked again at each window, as processes come and go");
  sub->add_option("--declared", o->declared,
                  "Declared workloads, comma-separated KEY=type; KEY: a GPU index, HOST/INDEX or UUID, "
                  "process:NAME, container:ID, pod:[NAMESPACE/]NAME or slurm:JOBID")
      ->delimiter(',');
  sub->add_option("--declared-file", o->declared_file,
                  "Mapping file of declared workloads (JSON object or KEY=type lines), re-read when it changes");
  sub->add_option("--declared-label", o->source.declared_label,
                  "dcgm, prometheus: the label of a GPU's series that says what its owner declared, e.g. a pod label "
                  "dcgm-exporter copies (--kubernetes-enable-pod-labels): workloadtruth.io/declared, found as "
                  "workloadtruth_io_declared; --declared and --declared-file win over it");
  sub->add_option("--declared-env", o->declared_env,
                  "nvml, amd, auto: the environment variable by which the processes on a GPU say what they run "
                  "(set by the scheduler, or from a pod label through the Downward API), e.g. WORKLOADTRUTH_DECLARED; "
                  "read from /proc/PID/environ, so as root or the workload's user; --declared and --declared-file win "
                  "over it");
  add_host_root_options(*sub, o->proc_root, o->source.sys_root);
  sub->add_option("--mismatch-confidence", w.mismatch.min_confidence,
                  "A window counts against a declaration at this confidence or above")
      ->check(finite_range(0.0, 1.0));
  sub->add_option("--mismatch-after", w.mismatch.persist_s,
                  "Seconds a mismatch must persist before it is raised (default 300)")
      ->check(finite_range(0.0, 1e7));
  sub->add_option("--on-mismatch", o->on_mismatch,
                  "Command run for each mismatch alert, the event's JSON on its stdin (split on blanks, no shell)");
  sub->add_option("--on-mismatch-timeout", o->on_mismatch_timeout_s, "Seconds before the command is killed")
      ->check(finite_range(0.1, 3600.0));
  sub->add_option("--log", o->log, "Audit log file (default workloadtruth.log.jsonl)");
  sub->add_flag("--no-log", o->no_log, "Do not write an audit log");
  sub->add_option("--sign-key", o->sign_key, "Private key (PREFIX.key from keygen): sign checkpoints in the log");
  sub->add_option("--checkpoint-every", o->log_options.checkpoint_every,
                  "With --sign-key: a signed checkpoint after this many entries (0: off)");
  sub->add_option("--checkpoint-seconds", o->log_options.checkpoint_seconds,
                  "With --sign-key: a signed checkpoint at the first entry this long after the last (0: off)")
      ->check(finite_range(0.0, 1e7));
  add_metrics_options(*sub, o->metrics);
  sub->add_flag("--once", o->once, "Stop once every GPU has its first window verdict");
  sub->add_flag("--json", o->json, "Print one JSON object per line: each window, each alert, and the end");
  sub->add_flag("--plain", o->plain, "Plain lines even on a terminal (no live view)");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_watch(*o); }); }};
}

}  // namespace wt::cli
