// `watch`'s state in the Prometheus text exposition format (version 0.0.4), for a scraper:
// each GPU's job verdict, its confidence, the last window's training score, windows by verdict,
// the declared workload and whether a mismatch alert stands. Names and meanings: docs/watch.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "classify/verdict.hpp"

namespace wt {

// What is exposed of one GPU.
struct GpuMetrics {
  int index = 0;
  std::string uuid, name;
  std::string host;                 // a label when set: the GPU's node (dcgm, prometheus)
  std::string job_group;            // the named job it is part of (a label when set), "" for none
  std::optional<WorkloadType> job;  // none before its first window
  double job_confidence = 0;
  std::optional<double> training_score;  // of the last window, when the classifier gives one
  std::optional<WorkloadType> declared;
  bool mismatch = false;
  std::array<std::uint64_t, kWorkloadTypeCount> windows{};  // by verdict, indexed by WorkloadType
  double last_window_end_s = 0;                             // the telemetry's clock
};

std::string metrics_text(std::span<const GpuMetrics> gpus, std::string_view version);

}  // namespace wt
