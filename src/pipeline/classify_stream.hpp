// The data flow in one place: source -> samples -> windows -> features -> classifier -> verdicts.
#pragma once

#include <array>
#include <compare>
#include <string>
#include <vector>

#include "classify/classifier.hpp"
#include "classify/gpu_summary.hpp"
#include "source/telemetry_source.hpp"
#include "window/windower.hpp"

namespace wt {

struct GpuReport {
  GpuIdentity gpu;
  Verdict verdict;                     // the GPU's summary verdict (features over the whole stream)
  std::vector<WindowVerdict> windows;  // in time order
  WindowSpec window;                   // the geometry used (wider than asked when samples are sparse)
  bool window_widened = false;
  std::size_t sample_count = 0;
  double first_s = 0, last_s = 0;
  ProcessIdsRef processes;  // its processes as the source last listed them (null: it lists none)
  PodNamesRef pods;         // its pods as the source last named them (null: it names none)
};

// A GPU as jobs name it: its index, on its host where the source reads several.
struct JobGpu {
  std::string host;  // "" in a job spec: that index on every host
  int index = 0;
  static JobGpu of(const GpuIdentity& gpu) { return {gpu.host, gpu.index}; }
  friend auto operator<=>(const JobGpu&, const JobGpu&) = default;
};

// GPUs the operator said run one job (`classify --job`), or that run one pod's, Slurm job's or
// container's processes (`--job-by`), with the job's pooled verdict.
struct JobReport {
  std::string name;
  std::vector<JobGpu> gpus;                                  // those found in the source, ascending
  Verdict verdict;                                           // summarize_job over their windows
  std::array<std::size_t, kWorkloadTypeCount> gpu_verdicts{};  // how many GPUs read each class on their own
};

struct ClassifyResult {
  std::string source;
  std::string classifier;
  WindowSpec requested_window;
  std::vector<GpuReport> gpus;  // sorted by host, then GPU index
  Diagnostics diagnostics;      // bad input met on the way; the GPUs above are still valid
  std::vector<JobReport> jobs;  // only when jobs were named (pipeline/job_groups)
};

// Streams the whole source (memory stays bounded by one window per GPU plus the per-window
// verdicts) and classifies every GPU in it.
ClassifyResult classify_stream(TelemetrySource& source, const Classifier& classifier, const WindowSpec& window);

}  // namespace wt
