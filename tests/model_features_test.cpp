#include "features/model_features.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "features/gpu_context.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

float feature(const ModelFeatures& f, std::string_view name) {
  return f[model_feature_index(name)];
}

// 60 s of a 4 s on/off duty cycle sampled every dt: 100 % and 600 W on, 0 % and 100 W off.
std::vector<Reading> square(double dt) {
  std::vector<Reading> v;
  for (double t = 0; t < 60; t += dt) {
    Reading r;
    r.time_s = t;
    const bool on = std::fmod(t, 4.0) < 2.0;
    r.values.set(Signal::GpuUtil, on ? 100 : 0);
    r.values.set(Signal::Power, on ? 600 : 100);
    r.values.set(Signal::MemUsed, 40000);
    r.values.set(Signal::MemTotal, 80000);
    v.push_back(r);
  }
  return v;
}

}  // namespace

TEST(ModelFeatures, NormalisedByTheGpuAndRateIndependent) {
  const GpuContext h100 = gpu_context_for({0, "", "NVIDIA H100 80GB HBM3", "", ""});
  ASSERT_TRUE(h100.power_limit_w);
  for (double dt : {0.05, 0.25, 0.5}) {
    const auto f = compute_model_features(square(dt), h100);
    EXPECT_NEAR(feature(f, "util_mean"), 50, 3) << dt;
    EXPECT_NEAR(feature(f, "power_frac_mean"), 350 / *h100.power_limit_w, 0.02) << dt;
    EXPECT_NEAR(feature(f, "mem_frac_mean"), 0.5, 1e-6) << dt;
    EXPECT_NEAR(feature(f, "util_acf_period_s"), 4, 0.6) << dt;  // the duty cycle's rhythm
    EXPECT_GT(feature(f, "util_acf_peak"), 0.8) << dt;
  }
}

TEST(ModelFeatures, ReportedPowerLimitBeatsTheTable) {
  auto rs = square(0.5);
  for (auto& r : rs) r.values.set(Signal::PowerLimit, 350);
  const auto f = compute_model_features(rs, gpu_context_for({0, "", "NVIDIA H100 80GB HBM3", "", ""}));
  EXPECT_NEAR(feature(f, "power_frac_mean"), 1.0, 0.02);
}

TEST(ModelFeatures, MissingSignalsAreNaN) {
  auto rs = square(1.0);
  for (auto& r : rs) {
    r.values.clear(Signal::Power);
    r.values.clear(Signal::MemUsed);
  }
  const auto f = compute_model_features(rs, {});
  EXPECT_TRUE(std::isnan(feature(f, "power_frac_mean")));
  EXPECT_TRUE(std::isnan(feature(f, "mem_frac_mean")));
  EXPECT_TRUE(std::isnan(feature(f, "pcie_log_mbps")));
  EXPECT_FALSE(std::isnan(feature(f, "util_mean")));
}

TEST(ModelFeatures, UnknownGpuWithoutLimitHasNoPowerFraction) {
  const auto f = compute_model_features(square(1.0), gpu_context_for({0, "", "Voodoo 2", "", ""}));
  EXPECT_TRUE(std::isnan(feature(f, "power_frac_mean")));
  EXPECT_FALSE(std::isnan(feature(f, "util_power_corr")));
}

}  // namespace wt
