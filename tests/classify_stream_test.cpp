#include "pipeline/classify_stream.hpp"

#include <gtest/gtest.h>

#include "classify/rule_classifier.hpp"
#include "source/replay/replay_source.hpp"
#include "source/synthetic_source.hpp"
#include "test_util.hpp"

namespace wt {

// Seed parity: the seed tool called each of its own profiles right at 30 samples.
TEST(ClassifyStream, SeedProfilesAtThirtySamples) {
  const std::pair<const char*, WorkloadType> cases[] = {
      {"training", WorkloadType::Training}, {"inference", WorkloadType::Inference}, {"idle", WorkloadType::Idle}};
  for (const auto& [profile, expected] : cases) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      SyntheticSource src({profile, 30, 0, seed});
      const auto r = classify_stream(src, RuleClassifier(), {});
      ASSERT_EQ(r.gpus.size(), 1u);
      EXPECT_EQ(r.gpus[0].verdict.type, expected) << profile << " seed " << seed;
      EXPECT_EQ(r.gpus[0].sample_count, 30u);
      EXPECT_EQ(r.gpus[0].windows.size(), 1u);  // 29 s of data: one partial window
    }
  }
}

TEST(ClassifyStream, EveryGpuOfAFile) {
  ReplaySource src(test::fixture("csv/two_gpus.csv"));
  const auto r = classify_stream(src, RuleClassifier(), {30, 15, 3});
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].gpu.index, 0);
  EXPECT_EQ(r.gpus[0].verdict.type, WorkloadType::Training);
  EXPECT_EQ(r.gpus[1].verdict.type, WorkloadType::Idle);
  EXPECT_EQ(r.gpus[0].windows.size(), 5u);  // 89 s: starts 0, 15, 30, 45 full, 60 partial
  EXPECT_EQ(r.gpus[0].sample_count, 90u);
}

TEST(ClassifyStream, GpuWithTooFewSamplesIsNamedAndOthersStillClassified) {
  ReplaySource src(test::fixture("csv/bad_lines.csv"));
  const auto r = classify_stream(src, RuleClassifier(), {});
  ASSERT_EQ(r.gpus.size(), 2u);
  EXPECT_EQ(r.gpus[0].sample_count, 33u);
  EXPECT_FALSE(r.gpus[0].windows.empty());
  EXPECT_TRUE(r.gpus[1].windows.empty());
  EXPECT_EQ(r.gpus[1].verdict.type, WorkloadType::Unknown);
  bool named = false;
  for (const auto& d : r.diagnostics) named |= d.where == "GPU 1" && d.message.find("only 1 samples") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(ClassifyStream, SamplingRateDoesNotChangeTheWindows) {
  for (double dt : {0.05, 1.0, 10.0}) {
    test::VectorSource src(test::steady(static_cast<std::size_t>(600 / dt), dt, 90, 300));
    const auto r = classify_stream(src, RuleClassifier(), {60, 30, 3});
    ASSERT_EQ(r.gpus.size(), 1u);
    EXPECT_EQ(r.gpus[0].windows.size(), 19u) << dt;
  }
}

}  // namespace wt
