#include "eval/tally.hpp"

#include <gtest/gtest.h>

namespace wt {
namespace {

using Truth = ScoreCurve::Truth;

const nlohmann::json& point(const nlohmann::json& curve, std::size_t i) { return curve["operating_points"][i]; }

TEST(ScoreCurve, AucCountsTiesAsHalf) {
  ScoreCurve c;
  c.add(0.8, Truth::Training);
  c.add(0.5, Truth::Disguised);
  c.add(0.5, Truth::Other);
  c.add(0.2, Truth::Other);
  // Pairs (training, other): 0.8>0.5, 0.8>0.2, 0.5=0.5 (half), 0.5>0.2.
  EXPECT_DOUBLE_EQ(c.to_json()["roc_auc"].get<double>(), 3.5 / 4);
}

TEST(ScoreCurve, ThresholdLetsThroughAtMostTheRate) {
  ScoreCurve c;
  for (int i = 0; i < 200; ++i) c.add(i / 200.0, Truth::Other);   // 0 .. 0.995
  for (int i = 0; i < 10; ++i) c.add(0.991 + i / 1000.0, Truth::Disguised);  // 0.991 .. 1.0
  for (int i = 0; i < 10; ++i) c.add(0.5, Truth::Training);
  const auto j = c.to_json();
  EXPECT_EQ(j["windows"]["other"], 200);
  EXPECT_EQ(j["windows"]["disguised_training"], 10);
  const auto& verdict = point(j, 0);  // P >= 0.5: the upper half of the others, every training window
  EXPECT_EQ(verdict["target_false_positive_rate"], nullptr);
  EXPECT_DOUBLE_EQ(verdict["false_positive_rate"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(verdict["detection"].get<double>(), 1.0);
  const auto& one = point(j, 1);  // 2 of 200 others may pass: 0.99 and 0.995; the threshold sits above 0.985
  EXPECT_EQ(one["target_false_positive_rate"], 0.01);
  EXPECT_DOUBLE_EQ(one["false_positive_rate"].get<double>(), 0.01);
  EXPECT_GT(one["threshold"].get<double>(), 0.985);
  EXPECT_LE(one["threshold"].get<double>(), 0.99);
  EXPECT_DOUBLE_EQ(one["detection_disguised"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(one["detection_clean"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(one["detection"].get<double>(), 0.5);
}

TEST(ScoreCurve, TiedOthersAreKeptOutTogether) {
  ScoreCurve c;
  for (int i = 0; i < 100; ++i) c.add(0.7, Truth::Other);
  c.add(0.9, Truth::Training);
  c.add(0.7, Truth::Training);
  const auto j = c.to_json();
  const auto& one = point(j, 1);  // one of 100 may pass, but all tie: none does
  EXPECT_DOUBLE_EQ(one["false_positive_rate"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(one["detection_clean"].get<double>(), 0.5);
  EXPECT_EQ(one["detection_disguised"], nullptr);  // no disguised windows to catch
}

TEST(ScoreCurve, WithoutBothSidesThereIsNoCurve) {
  ScoreCurve c;
  c.add(0.9, Truth::Training);
  const auto j = c.to_json();
  EXPECT_TRUE(j["roc_auc"].is_null());
  EXPECT_TRUE(j["operating_points"].empty());
}

TEST(Tally, AddingKeepsEveryScore) {
  Tally a, b;
  a.training_score.add(0.1, Truth::Other);
  b.training_score.add(0.9, Truth::Training);
  b.training_score.add(0.8, Truth::Disguised);
  a += b;
  EXPECT_EQ(a.training_score.points.size(), 3u);
  EXPECT_DOUBLE_EQ(a.training_score.to_json()["roc_auc"].get<double>(), 1.0);
}

TEST(Tally, AddingKeepsCalibrationAndAbstentions) {
  Tally a, b;
  a.calibration.add(0.95, true);
  b.calibration.add(0.97, false);
  b.calibration.abstained = 2;
  a += b;
  EXPECT_EQ(a.calibration.count[9], 2u);
  EXPECT_EQ(a.calibration.right[9], 1u);
  EXPECT_EQ(a.calibration.abstained, 2u);
  EXPECT_EQ(a.calibration.to_json().size(), 1u);  // one bin; abstentions are not a bin
}

TEST(Confusion, PoolsEveryActiveNonTrainingTruth) {
  Confusion c;
  c.add(WorkloadType::Inference, WorkloadType::Training);  // counted, called
  c.add(WorkloadType::Inference, WorkloadType::Inference);  // counted
  c.add(WorkloadType::Hpc, WorkloadType::Hpc);              // counted
  c.add(WorkloadType::Mining, WorkloadType::Training);      // counted, called
  c.add(WorkloadType::Idle, WorkloadType::Training);        // idle truth: left out
  c.add(WorkloadType::Training, WorkloadType::Training);    // training truth: left out
  const auto j = c.active_called_training();
  EXPECT_EQ(j["called"].get<std::size_t>(), 2u);
  EXPECT_EQ(j["count"].get<std::size_t>(), 4u);
  EXPECT_DOUBLE_EQ(j["share"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(Confusion{}.active_called_training()["share"].get<double>(), 0.0);
}

}  // namespace
}  // namespace wt
