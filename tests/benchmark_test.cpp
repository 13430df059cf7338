#include "eval/benchmark.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

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

TEST(Benchmark, TestWindowsAreSplitByHowTheyWereRecorded) {
  BenchmarkOptions o;
  o.trials = 2;
  o.duration_s = 60;
  const auto s = run_benchmark(o, nullptr)["synthetic"];
  std::size_t clean = 0, disguised = 0;
  for (const auto& row : s["clean"]) clean += row["xgboost"]["accuracy"]["window_count"].get<std::size_t>();
  for (const auto& row : s["evasion"]) disguised += row["xgboost"]["detection"]["training_windows"].get<std::size_t>();
  ASSERT_GT(clean, 0u);
  ASSERT_GT(disguised, 0u);
  // Each dimension (polling, signals, length) splits the same windows, each once.
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_dimension;  // clean, disguised
  for (const auto& r : s["by_recording"]) {
    const auto name = r["recording"].get<std::string>();
    const std::string dimension = name.starts_with("polled") ? "polling" : name.starts_with("signals") ? "signals" : "length";
    const auto& x = r["xgboost"]["clean"];
    per_dimension[dimension].first += x["accuracy"]["window_count"].get<std::size_t>();
    per_dimension[dimension].second += r["xgboost"]["disguised"]["training_windows"].get<std::size_t>();
    std::size_t by_class = 0;
    for (const auto& [cls, v] : x["per_class"].items()) by_class += v["window_count"].get<std::size_t>();
    EXPECT_EQ(by_class, x["accuracy"]["window_count"].get<std::size_t>()) << name;
    EXPECT_TRUE(r.contains("rules")) << name;
    std::size_t calibrated = 0;  // windows given a class; abstentions are left out
    for (const auto& bin : x["calibration"]) calibrated += bin["windows"].get<std::size_t>();
    EXPECT_LE(calibrated, by_class) << name;
  }
  ASSERT_EQ(per_dimension.size(), 3u);
  for (const auto& [dimension, n] : per_dimension) {
    EXPECT_EQ(n.first, clean) << dimension;
    EXPECT_EQ(n.second, disguised) << dimension;
  }
}

}  // namespace wt
