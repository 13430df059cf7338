// Features of a span of samples: what classifiers see. Missing signals give missing features.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/sample.hpp"
#include "features/running_stats.hpp"

namespace wt {

struct WindowFeatures {
  std::size_t sample_count = 0;
  double duration_s = 0;  // last timestamp minus first
  // The seed tool's six features, same names and definitions.
  std::optional<double> avg_gpu_util_pct;
  std::optional<double> std_gpu_util_pct;
  std::optional<double> mem_growth_mib_per_sample;  // least-squares slope of memory used on sample index
  std::optional<double> avg_power_watts;
  std::optional<double> std_power_watts;
  std::optional<double> avg_process_count;
  // Rate-independent companions.
  std::optional<double> mem_growth_mib_per_s;
  std::optional<double> avg_mem_util_pct;
  std::optional<double> avg_mem_used_mib;

  // Name/value pairs in a fixed order, for reports and the JSON output.
  std::vector<std::pair<std::string_view, std::optional<double>>> named() const;
};

// Accumulates features one sample at a time; the same code serves a 30 s window and a
// whole day's stream.
class FeatureAccumulator {
 public:
  void add(const Reading& s);  // inline below: it runs for every sample of every window
  WindowFeatures result() const;

 private:
  std::size_t n_ = 0;
  double first_s_ = 0, last_s_ = 0;
  RunningStats util_, power_, procs_, mem_util_, mem_used_;
  RunningSlope mem_by_index_, mem_by_time_;
};

inline void FeatureAccumulator::add(const Reading& s) {
  if (n_ == 0) first_s_ = s.time_s;
  last_s_ = s.time_s;
  const SignalValues& v = s.values;
  if (v.has(Signal::GpuUtil)) util_.add(v.value(Signal::GpuUtil));
  if (v.has(Signal::Power)) power_.add(v.value(Signal::Power));
  if (v.has(Signal::ProcessCount)) procs_.add(v.value(Signal::ProcessCount));
  if (v.has(Signal::MemUtil)) mem_util_.add(v.value(Signal::MemUtil));
  if (v.has(Signal::MemUsed)) {
    const double mem = v.value(Signal::MemUsed);
    mem_used_.add(mem);
    mem_by_index_.add(static_cast<double>(n_), mem);
    mem_by_time_.add(s.time_s - first_s_, mem);
  }
  ++n_;
}

WindowFeatures compute_features(std::span<const Reading> samples);

}  // namespace wt
