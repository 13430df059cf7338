#include "features/window_features.hpp"

namespace wt {

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

WindowFeatures compute_features(std::span<const Reading> samples) {
  FeatureAccumulator acc;
  for (const Reading& s : samples) acc.add(s);
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
