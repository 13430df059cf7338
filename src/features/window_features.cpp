#include "features/window_features.hpp"

namespace wt {

void FeatureAccumulator::add(const Sample& s) {
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

WindowFeatures FeatureAccumulator::result() const {
  WindowFeatures f;
  f.sample_count = n_;
  f.duration_s = n_ ? last_s_ - first_s_ : 0;
  f.avg_gpu_util_pct = util_.mean();
  f.std_gpu_util_pct = util_.stddev();
  f.mem_growth_mib_per_sample = mem_by_index_.slope();
  f.avg_power_watts = power_.mean();
  f.std_power_watts = power_.stddev();
  f.avg_process_count = procs_.mean();
  f.mem_growth_mib_per_s = mem_by_time_.slope();
  f.avg_mem_util_pct = mem_util_.mean();
  f.avg_mem_used_mib = mem_used_.mean();
  return f;
}

WindowFeatures compute_features(std::span<const Sample> samples) {
  FeatureAccumulator acc;
  for (const Sample& s : samples) acc.add(s);
  return acc.result();
}

std::vector<std::pair<std::string_view, std::optional<double>>> WindowFeatures::named() const {
  return {
      {"avg_gpu_util_pct", avg_gpu_util_pct},
      {"std_gpu_util_pct", std_gpu_util_pct},
      {"mem_growth_mib_per_sample", mem_growth_mib_per_sample},
      {"avg_power_watts", avg_power_watts},
      {"std_power_watts", std_power_watts},
      {"avg_process_count", avg_process_count},
      {"mem_growth_mib_per_s", mem_growth_mib_per_s},
      {"avg_mem_util_pct", avg_mem_util_pct},
      {"avg_mem_used_mib", avg_mem_used_mib},
  };
}

}  // namespace wt
