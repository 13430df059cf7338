// The features a trained classifier sees: shape, rhythm and cross-signal relations of a
// window, independent of the sampling rate (50 ms ... 10 s) and normalised by the GPU (power
// as a fraction of its limit, memory as a fraction of its size) so that what is learnt on one
// GPU model carries to another. A missing signal gives NaN features, which the model handles.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/sample.hpp"

namespace wt {

// What is known of the GPU beyond the telemetry (from its model name), used only where the
// telemetry lacks it: a power.limit column beats the table.
struct GpuContext {
  std::optional<double> power_limit_w;
  std::optional<double> idle_power_w;
  std::optional<double> memory_total_mib;
  std::optional<double> max_sm_clock_mhz;
};

inline constexpr std::array<std::string_view, 32> kModelFeatureNames{
    "util_mean",          "util_std",           "util_p10",          "util_p50",
    "util_p90",           "util_busy_frac",     "util_idle_frac",    "util_crossings_per_min",
    "memutil_mean",       "memutil_std",        "memutil_per_util",  "power_frac_mean",
    "power_frac_std",     "power_frac_p10",     "power_frac_p90",    "power_per_util",
    "power_above_idle",   "mem_frac_mean",      "mem_slope_frac_per_min", "mem_range_frac",
    "mem_flat_frac",      "util_power_corr",    "util_memutil_corr", "util_acf_peak",
    "util_acf_period_s",  "power_acf_peak",     "sm_clock_frac",     "sm_clock_cv",
    "temp_slope_per_min", "pcie_log_mbps",      "nvlink_log_mbps",   "process_count",
};
inline constexpr std::size_t kModelFeatureCount = kModelFeatureNames.size();

using ModelFeatures = std::array<float, kModelFeatureCount>;  // NaN = missing

// The position of a feature by name; an unknown name throws (and does not compile where the
// call is evaluated at compile time).
constexpr std::size_t model_feature_index(std::string_view name) {
  for (std::size_t i = 0; i < kModelFeatureCount; ++i)
    if (kModelFeatureNames[i] == name) return i;
  throw std::invalid_argument("unknown model feature '" + std::string(name) + "'");
}

ModelFeatures compute_model_features(std::span<const Reading> readings, const GpuContext& gpu);

}  // namespace wt
