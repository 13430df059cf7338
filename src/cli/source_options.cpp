#include "cli/source_options.hpp"

#include <stdexcept>

#include "source/nvml/nvml_source.hpp"
#include "source/replay/replay_source.hpp"
#include "source/synthetic_source.hpp"

namespace wt::cli {

void SourceOptions::add_to(CLI::App& app, const std::string& format_flag) {
  app.add_option("--backend", backend, "Telemetry source: nvml (live NVIDIA GPUs), synthetic, replay")
      ->check(CLI::IsMember({"nvml", "synthetic", "replay"}));
  app.add_option("--replay", replay_file, "Recorded trace: nvidia-smi CSV or WorkloadTruth JSONL (implies --backend replay)");
  app.add_option(format_flag, input_format, "Replay file format (default: detected)")
      ->check(CLI::IsMember({"auto", "csv", "jsonl"}));
  app.add_option("--columns", columns,
                 "For CSV written with noheader: the --query-gpu field list, comma-separated")
      ->delimiter(',');
  app.add_option("--profile", profile, "Synthetic profile: training, inference, idle")
      ->check(CLI::IsMember({"training", "inference", "idle"}));
  app.add_option("--samples", samples, "Samples (polls) to take from a live or synthetic source")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  app.add_option("--interval", interval_s,
                 "Seconds between polls; 0 with synthetic: 1 s apart in simulated time, without sleeping")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--seed", seed, "Random seed for the synthetic source");
  app.add_option("--gpu", gpu, "Only this GPU index (nvml)")->check(CLI::NonNegativeNumber);
}

std::string SourceOptions::resolved_backend() const {
  if (!backend.empty()) return backend;
  return replay_file.empty() ? "nvml" : "replay";
}

std::unique_ptr<TelemetrySource> SourceOptions::open() const {
  const std::string b = resolved_backend();
  if (b == "replay") {
    if (replay_file.empty()) throw std::invalid_argument("--backend replay needs --replay FILE");
    return std::make_unique<ReplaySource>(replay_file, ReplayOptions{*parse_trace_format(input_format), columns});
  }
  if (!replay_file.empty()) throw std::invalid_argument("--replay cannot be combined with --backend " + b);
  if (b == "synthetic") return std::make_unique<SyntheticSource>(SyntheticOptions{profile, samples, interval_s, seed});
  if (interval_s <= 0) throw std::invalid_argument("--interval must be positive for live telemetry");
  return std::make_unique<NvmlSource>(NvmlOptions{samples, interval_s, gpu});
}

}  // namespace wt::cli
