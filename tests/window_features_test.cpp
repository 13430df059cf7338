#include "features/window_features.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace wt {

TEST(WindowFeatures, SeedDefinitions) {
  auto s = test::steady(4, 2.0, 0, 0);
  const double util[] = {10, 20, 30, 40}, power[] = {100, 100, 200, 200}, mem[] = {1000, 1010, 1020, 1030};
  for (int i = 0; i < 4; ++i) {
    s[i].values.set(Signal::GpuUtil, util[i]);
    s[i].values.set(Signal::Power, power[i]);
    s[i].values.set(Signal::MemUsed, mem[i]);
    s[i].values.set(Signal::ProcessCount, 1);
  }
  const auto f = compute_features(test::readings(s));
  EXPECT_EQ(f.sample_count, 4u);
  EXPECT_DOUBLE_EQ(f.duration_s, 6);
  EXPECT_DOUBLE_EQ(*f.avg_gpu_util_pct, 25);
  EXPECT_NEAR(*f.std_gpu_util_pct, 12.909944, 1e-6);  // sample std (n-1)
  EXPECT_NEAR(*f.mem_growth_mib_per_sample, 10, 1e-9);
  EXPECT_NEAR(*f.mem_growth_mib_per_s, 5, 1e-9);
  EXPECT_DOUBLE_EQ(*f.avg_power_watts, 150);
  EXPECT_NEAR(*f.std_power_watts, 57.735027, 1e-6);
  EXPECT_DOUBLE_EQ(*f.avg_process_count, 1);
}

TEST(WindowFeatures, MissingSignalsGiveMissingFeatures) {
  auto s = test::steady(5, 1.0, 50, 0);
  for (auto& x : s) x.values.clear(Signal::Power);
  const auto f = compute_features(test::readings(s));
  EXPECT_TRUE(f.avg_gpu_util_pct);
  EXPECT_FALSE(f.avg_power_watts);
  EXPECT_FALSE(f.std_power_watts);
  EXPECT_FALSE(f.mem_growth_mib_per_sample);
}

TEST(WindowFeatures, StableOverMillionsOfSamples) {
  RunningStats st;
  RunningSlope sl;
  for (int i = 0; i < 2'000'000; ++i) {
    st.add(1e9 + (i % 2));
    sl.add(i, 3.0 * i + 7);
  }
  EXPECT_NEAR(*st.stddev(), 0.5, 1e-3);
  EXPECT_NEAR(*sl.slope(), 3.0, 1e-9);
}

}  // namespace wt
