#include "cli/source_options.hpp"

#include <stdexcept>

#include "sim/gpu_models.hpp"
#include "source/amd/amd_source.hpp"
#include "source/multi_source.hpp"
#include "source/nvml/nvml_source.hpp"
#include "source/replay/replay_source.hpp"
#include "sim/simulated_source.hpp"
#include "source/synthetic_source.hpp"

namespace wt::cli {

AmdOptions SourceOptions::amd_options() const {
  AmdOptions o;
  o.samples = samples;
  o.interval_s = interval_s;
  o.gpu = gpu;
  return o;
}

void SourceOptions::add_to(CLI::App& app, const std::string& format_flag, std::size_t min_samples) {
  app.add_option("--backend", backend,
                 "Telemetry source: nvml (live NVIDIA GPUs), amd (live AMD GPUs: AMD SMI, else ROCm SMI), auto "
                 "(whichever of those are present, both on a mixed host), sim (physical simulator), synthetic (seed "
                 "profiles), replay")
      ->check(CLI::IsMember({"nvml", "amd", "auto", "sim", "synthetic", "replay"}));
  app.add_option("--replay", replay_file,
                 "Recorded trace: nvidia-smi CSV, WorkloadTruth JSONL, rocm-smi or amd-smi metric --csv/--json "
                 "(implies --backend replay)");
  app.add_option(format_flag, input_format, "Replay file format (default: detected)")
      ->check(CLI::IsMember({"auto", "csv", "jsonl", "rocm-smi", "amd-smi"}));
  app.add_option("--columns", columns,
                 "For CSV written with noheader: the --query-gpu field list, comma-separated")
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
      "rocm-smi (or timestamp-less amd-smi) log: the time between its snapshots, which it does not record";
  interval_option = app.add_option("--interval", interval_s, kIntervalHelp)->check(CLI::Range(0.0, 3600.0));
  app.add_option("--seed", seed, "Random seed for the synthetic and sim sources");
  app.add_option("--scenario", scenario, "sim: family/variant[/evasion], e.g. inference/online-bursty (--list-scenarios)");
  app.add_option("--gpu-model", gpu_model, "sim: GPU model as nvidia-smi names it (default: drawn from the seed)");
  app.add_option("--duration", duration_s, "sim: seconds of telemetry to generate (default: --samples x --interval)")
      ->check(CLI::Range(0.001, 1e8));
  app.add_flag("--list-scenarios", list_scenarios, "List the simulator's scenarios and GPU models, then exit");
  app.add_option("--gpu", gpu, "Only this GPU index (nvml, amd)")->check(CLI::NonNegativeNumber);
}

std::string SourceOptions::resolved_backend() const {
  if (!backend.empty()) return backend;
  return replay_file.empty() ? "nvml" : "replay";
}

std::unique_ptr<TelemetrySource> SourceOptions::open() const {
  const std::string b = resolved_backend();
  if (b == "replay") {
    if (replay_file.empty()) throw std::invalid_argument("--backend replay needs --replay FILE");
    std::optional<double> snapshot_interval;
    if (interval_option != nullptr && interval_option->count() > 0) snapshot_interval = interval_s;
    return std::make_unique<ReplaySource>(replay_file,
                                          ReplayOptions{*parse_trace_format(input_format), columns, snapshot_interval});
  }
  if (!replay_file.empty()) throw std::invalid_argument("--replay cannot be combined with --backend " + b);
  if (b == "synthetic") {
    const std::string p = profile.starts_with("legacy-") ? profile.substr(7) : profile;
    return std::make_unique<SyntheticSource>(SyntheticOptions{p, samples, interval_s, seed});
  }
  if (b == "sim") {
    const sim::ScenarioSpec* spec = sim::find_scenario(scenario);
    if (!spec) throw std::invalid_argument("unknown scenario '" + scenario + "' (see --list-scenarios)");
    sim::SimOptions o{*spec};
    o.scenario.gpu_model = gpu_model;
    o.interval_s = interval_s > 0 ? interval_s : 1.0;  // simulated time: never sleeps
    o.duration_s = duration_s ? *duration_s : static_cast<double>(samples) * o.interval_s;
    o.seed = seed;
    return sim::make_simulated_source(o);
  }
  if (interval_s <= 0) throw std::invalid_argument("--interval must be positive for live telemetry");
  if (b == "nvml") return std::make_unique<NvmlSource>(NvmlOptions{samples, interval_s, gpu});
  if (b == "amd") return std::make_unique<AmdSource>(amd_options());
  return open_auto();
}

// Every vendor whose library and GPUs are present. On a mixed host the AMD GPUs are numbered
// after the NVIDIA ones, so --gpu would be ambiguous there and is refused.
std::unique_ptr<TelemetrySource> SourceOptions::open_auto() const {
  std::unique_ptr<NvmlSource> nvidia;
  std::unique_ptr<AmdSource> amd;
  std::string nvidia_why, amd_why;
  try {
    nvidia = std::make_unique<NvmlSource>(NvmlOptions{samples, interval_s, gpu});
  } catch (const NoTelemetryError& e) {
    nvidia_why = e.what();
  }
  try {
    amd = std::make_unique<AmdSource>(amd_options());
  } catch (const NoTelemetryError& e) {
    amd_why = e.what();
  }
  if (nvidia && amd) {
    if (gpu)
      throw std::invalid_argument(
          "--gpu is ambiguous with --backend auto on a host with NVIDIA and AMD GPUs; use --backend nvml or amd");
    const int offset = static_cast<int>(nvidia->gpu_count());
    std::vector<MultiSource::Part> parts;
    parts.push_back({std::move(nvidia), 0});
    parts.push_back({std::move(amd), offset});
    return std::make_unique<MultiSource>(std::move(parts));
  }
  if (nvidia) return nvidia;
  if (amd) return amd;
  throw NoTelemetryError("no GPU telemetry from any vendor (NVIDIA: " + nvidia_why + " AMD: " + amd_why + ")");
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
