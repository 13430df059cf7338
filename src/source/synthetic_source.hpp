// The seed tool's three Gaussian profiles (training, inference, idle), kept for parity.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "source/telemetry_source.hpp"

namespace wt {

struct SyntheticProfile {
  std::string_view name;
  double util_mean, util_std;
  double mem_util_mean, mem_util_std;
  double mem_base_mib, mem_growth_mib, mem_ceiling_mib;  // memory used grows per sample up to a ceiling
  double power_mean, power_std;
  int processes;
};

// The profiles, exactly as the seed tool measured them (see ../shared/PROTOTYPE.md).
const std::vector<SyntheticProfile>& synthetic_profiles();
const SyntheticProfile* find_synthetic_profile(std::string_view name);

struct SyntheticOptions {
  std::string profile = "training";
  std::size_t samples = 30;
  double interval_s = 1.0;  // simulated spacing; 0 means 1 s apart, produced without sleeping
  std::uint64_t seed = 42;
  double start_time_s = 1'767'225'600.0;  // 2026-01-01T00:00:00, fixed so runs are reproducible
};

class SyntheticSource final : public TelemetrySource {
 public:
  explicit SyntheticSource(SyntheticOptions options);  // throws std::invalid_argument on an unknown profile
  bool next(Sample& out) override;
  std::string describe() const override { return "synthetic:" + options_.profile; }

 private:
  SyntheticOptions options_;
  const SyntheticProfile* profile_;
  GpuRef gpu_;
  std::mt19937_64 rng_;
  std::size_t produced_ = 0;
};

}  // namespace wt
