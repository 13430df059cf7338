#include "cli/source_options.hpp"

#include <map>

#include "cli/finite_range.hpp"
#include "cli/http_auth_options.hpp"
#include "cli/stop_signal.hpp"
#include "sim/gpu_models.hpp"
#include "sim/simulated_source.hpp"

namespace wt::cli {

void SourceOptions::add_to(CLI::App& app, const std::string& format_flag, std::size_t min_samples) {
  app.add_option("--backend", backend,
                 "Telemetry source: nvml (live NVIDIA GPUs), amd (live AMD GPUs: AMD SMI, else ROCm SMI), auto "
                 "(whichever of those are present, both on a mixed host), dcgm (a dcgm-exporter's /metrics, live), "
                 "prometheus (DCGM samples a Prometheus server kept), sim (physical simulator), synthetic (seed "
                 "profiles), replay")
      ->check(CLI::IsMember({"nvml", "amd", "auto", "dcgm", "prometheus", "sim", "synthetic", "replay"}));
  replay_option = app.add_option("--replay", replay_files,
                 "Recorded trace: nvidia-smi CSV or dmon output, dcgmi dmon output, WorkloadTruth JSONL, rocm-smi "
                 "output (--csv, --json or text) or amd-smi metric --csv/--json (implies --backend replay); several: "
                 "one fleet, each file's GPUs named FILE/INDEX after its name (node7.csv: node7/0)")
      ->allow_extra_args(false);  // repeated for several; the positional takes a list
  app.add_option(format_flag, input_format, "Replay file format (default: detected)")
      ->check(CLI::IsMember({"auto", "csv", "dmon", "dcgmi-dmon", "jsonl", "rocm-smi", "amd-smi"}));
  app.add_option("--columns", columns,
                 "For output written with noheader: the --query-gpu field list of an nvidia-smi CSV, or with --format "
                 "dmon the names of dmon's header (e.g. Date,Time,gpu,pwr,gtemp,mtemp,sm,mem,enc,dec,mclk,pclk)")
      ->delimiter(',');
  app.add_option("--profile", profile,
                 "Synthetic profile: training, inference, idle (legacy-training, legacy-inference, legacy-idle: same)")
      ->check(CLI::IsMember({"training", "inference", "idle", "legacy-training", "legacy-inference", "legacy-idle"}));
  app.add_option("--samples", samples,
                 min_samples == 0 ? "Samples (polls) to take from a live or synthetic source (0: until stopped)"
                                  : "Samples (polls) to take from a live or synthetic source")
      ->check(CLI::Range(min_samples, std::size_t{100'000'000}));
  constexpr const char* kIntervalHelp =
      "Seconds between polls; 0 with synthetic: 1 s apart in simulated time, without sleeping; with a "
      "rocm-smi or dcgmi dmon (or timestamp-less amd-smi or dmon) log: the time between its snapshots, which it "
      "does not record "
      "(refused for nvidia-smi CSV and JSONL, whose rows carry their time)";
  interval_option = app.add_option("--interval", interval_s, kIntervalHelp)->check(finite_range(0.0, 3600.0));
  app.add_option("--seed", seed, "Random seed for the synthetic and sim sources");
  app.add_option("--scenario", scenario, "sim: family/variant[/evasion], e.g. inference/online-bursty (--list-scenarios)");
  app.add_option("--gpu-model", gpu_model,
                 "sim: GPU model as nvidia-smi names it (default: drawn from the seed); replay: the model of GPUs "
                 "the file does not name (dmon logs), so power is set against that card's limit");
  app.add_option("--duration", duration_s, "sim: seconds of telemetry to generate (default: --samples x --interval)")
      ->check(finite_range(0.001, 1e8));
  app.add_flag("--list-scenarios", list_scenarios, "List the simulator's scenarios and GPU models, then exit");
  app.add_option("--gpu", gpu, "Only this GPU index (nvml, amd, dcgm, prometheus: on each host)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--url", url,
                 "dcgm: the exporter's metrics URL (http://node:9400/metrics); prometheus: the server "
                 "(http://prometheus:9090)");
  app.add_option("--match", match,
                 "prometheus: label matchers the DCGM series must also match, e.g. Hostname=\"node1\"");
  app.add_option("--start", start, "prometheus: start of the range, UTC (2026-12-03T10:00:00Z) or Unix seconds");
  app.add_option("--end", end, "prometheus: end of the range, as --start (default: now)");
  add_http_auth_options(app, auth_files, "dcgm, prometheus");
  app.add_option("--last", last_s, "prometheus: instead of --start, this long before the end (90s, 30m, 2h, 1d)")
      ->transform(CLI::AsNumberWithUnit(std::map<std::string, double>{{"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}},
                                        CLI::AsNumberWithUnit::CASE_SENSITIVE))
      ->check(CLI::PositiveNumber);
}

void SourceOptions::add_follow_option(CLI::App& app) {
  app.add_flag("--follow", follow,
               "prometheus: after the range (default: the last 5 minutes), read what Prometheus stores next, until "
               "stopped (Ctrl-C, SIGTERM); --interval: seconds between queries (15)");
}

void SourceOptions::add_trace_positional(CLI::App& app) {
  app.add_option("trace", replay_files, "Recorded traces, as --replay")->excludes(replay_option);
}

std::unique_ptr<TelemetrySource> SourceOptions::open() const {
  SourceSpec spec = *this;
  spec.interval_given = interval_option != nullptr && interval_option->count() > 0;
  // A source waiting (to follow, or on a quiet pipe) heeds Ctrl-C and SIGTERM (a command may do
  // more meanwhile).
  if (!spec.waiting) spec.waiting = [] { return stop_signal() != 0; };
  return open_source(spec);
}

bool SourceOptions::print_scenarios_if_asked(std::ostream& out) const {
  if (!list_scenarios) return false;
  out << "Scenarios (--backend sim --scenario NAME):\n";
  for (const auto& s : sim::scenario_catalog())
    out << "  " << s.name() << "  " << to_string(s.label) << (s.gpus > 1 ? "  (" + std::to_string(s.gpus) + " GPUs)" : "")
        << '\n';
  out << "GPU models (--gpu-model NAME):\n";
  for (const auto& m : sim::gpu_models()) out << "  " << m.name << '\n';
  return true;
}

}  // namespace wt::cli
