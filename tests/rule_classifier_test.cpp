#include "classify/rule_classifier.hpp"

#include <gtest/gtest.h>

namespace wt {
namespace {
WindowFeatures features(double util, double util_std, double slope, double power, double power_std) {
  WindowFeatures f;
  f.avg_gpu_util_pct = util;
  f.std_gpu_util_pct = util_std;
  f.mem_growth_mib_per_sample = slope;
  f.avg_power_watts = power;
  f.std_power_watts = power_std;
  return f;
}
}  // namespace

TEST(RuleClassifier, IdleWithSeedConfidence) {
  const auto v = RuleClassifier().decide(features(2.5, 1, 0, 40, 3));
  EXPECT_EQ(v.type, WorkloadType::Idle);
  EXPECT_DOUBLE_EQ(v.confidence, 1 - 0.3 * 2.5 / 5);
}

TEST(RuleClassifier, IdleNeedsLowPowerToo) {
  EXPECT_NE(RuleClassifier().decide(features(2, 1, 0, 190, 3)).type, WorkloadType::Idle);
}

TEST(RuleClassifier, TrainingVotes) {
  const auto v = RuleClassifier().decide(features(88, 4, 120, 340, 12));
  EXPECT_EQ(v.type, WorkloadType::Training);
  EXPECT_DOUBLE_EQ(v.confidence, 1.0);
  EXPECT_EQ(v.reasons.size(), 4u);
}

TEST(RuleClassifier, InferenceVotes) {
  const auto v = RuleClassifier().decide(features(35, 28, 0, 160, 55));
  EXPECT_EQ(v.type, WorkloadType::Inference);
  EXPECT_DOUBLE_EQ(v.confidence, 1.0);
}

TEST(RuleClassifier, TieIsUnknownAtHalf) {
  // Like the seed tool's evasion: busy-but-bursty utilization, growing memory, steady power:
  // two votes each side.
  const auto v = RuleClassifier().decide(features(50, 20, 40, 300, 10));
  EXPECT_EQ(v.type, WorkloadType::Unknown);
  EXPECT_DOUBLE_EQ(v.confidence, 0.5);
}

TEST(RuleClassifier, ThresholdsAreInclusiveAsInTheSeed) {
  // util 65 (>= 65), std 15 (<= 15), slope 5 (>= 5), power std 25 (<= 25): four training votes;
  // inference gets util <= 70 and std >= 12 ... and power std >= 20: three.
  const auto v = RuleClassifier().decide(features(65, 15, 5, 300, 25));
  EXPECT_EQ(v.type, WorkloadType::Training);
  EXPECT_DOUBLE_EQ(v.confidence, 1.0);
}

TEST(RuleClassifier, NoUtilizationIsUnknown) {
  WindowFeatures f;
  f.avg_power_watts = 100;
  EXPECT_EQ(RuleClassifier().decide(f).type, WorkloadType::Unknown);
}

TEST(Classifiers, Registry) {
  EXPECT_EQ(make_classifier("rules")->name(), "rules");
  EXPECT_THROW(make_classifier("forest"), std::invalid_argument);
}

}  // namespace wt
