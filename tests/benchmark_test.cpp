#include "eval/benchmark.hpp"

#include <gtest/gtest.h>

namespace wt {

TEST(Benchmark, HeldOutProtocolsCoverEveryFamilyModelAndVendor) {
  BenchmarkOptions o;
  o.protocol = "loso";
  o.trials = 1;
  o.duration_s = 60;
  o.train_traces = 5;
  std::size_t calls = 0;
  const auto r = run_benchmark(o, [&](std::size_t, std::size_t, const std::string&) { ++calls; });
  const auto& s = r["synthetic"];
  EXPECT_GE(s["leave_one_evasion_family_out"].size(), 14u);
  for (const auto& family : s["leave_one_evasion_family_out"]) {  // each fold's own threshold curve
    EXPECT_GT(family["training_score"]["windows"]["other"].get<std::size_t>(), 0u) << family["held_out"];
    // every non-training scenario but idle, one trial each, pooled per GPU
    EXPECT_GE(family["false_training_pooled"]["count"].get<std::size_t>(), 12u) << family["held_out"];
  }
  EXPECT_EQ(s["leave_one_gpu_model_out"].size(), 12u);
  ASSERT_EQ(s["nvidia_only_tested_on_amd"].size(), 2u);
  EXPECT_GT(s["nvidia_only_tested_on_amd"][0]["accuracy"]["window_count"].get<std::size_t>(), 0u);
  EXPECT_GT(calls, 0u);
  EXPECT_FALSE(r.contains("real"));  // no --real given: nothing real is reported
}

}  // namespace wt
