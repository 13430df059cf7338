#include "classify/gpu_summary.hpp"

#include <gtest/gtest.h>

namespace wt {
namespace {
std::vector<WindowVerdict> windows(std::initializer_list<std::pair<WorkloadType, double>> list) {
  std::vector<WindowVerdict> v;
  double t = 0;
  for (const auto& [type, conf] : list) {
    v.push_back({t, t + 30, false, type, conf, conf, 50});  // training score: the confidence, for the test
    t += 15;
  }
  return v;
}
constexpr auto T = WorkloadType::Training, I = WorkloadType::Inference, D = WorkloadType::Idle;
}  // namespace

TEST(GpuSummary, DominantActiveClassWinsOverIdle) {
  const auto v = summarize_windows(windows({{D, 1}, {D, 1}, {D, 1}, {T, 1}, {T, 0.5}, {I, 1}}), {}, {});
  EXPECT_EQ(v.type, WorkloadType::Training);
  EXPECT_NEAR(v.confidence, 2.0 / 3.0 * 0.75, 1e-12);
  EXPECT_NE(v.reasons[0].find("2 of 3 active windows"), std::string::npos);
  EXPECT_NE(v.reasons[0].find("3 idle windows not counted"), std::string::npos);
}

TEST(GpuSummary, IdleOnlyWhenEveryWindowIsIdle) {
  const auto v = summarize_windows(windows({{D, 0.9}, {D, 0.7}}), {}, {});
  EXPECT_EQ(v.type, WorkloadType::Idle);
  EXPECT_NEAR(v.confidence, 0.8, 1e-12);
  EXPECT_EQ(v.reasons[0], "All 2 windows are IDLE.");
}

TEST(GpuSummary, OneWindowIsNamedInTheSingular) {
  EXPECT_EQ(summarize_windows(windows({{D, 1}}), {}, {}).reasons[0], "The only window is IDLE.");
  EXPECT_NE(summarize_windows(windows({{D, 1}, {T, 1}}), {}, {}).reasons[0].find(", 1 idle window not counted."),
            std::string::npos);
}

TEST(GpuSummary, SustainedTrainingWinsEvenWhenDiluted) {
  // 2 training windows among 12 active inference-dominated ones: 14 % >= 10 %.
  std::vector<std::pair<WorkloadType, double>> list(10, {I, 0.9});
  list.insert(list.end(), {{T, 0.8}, {T, 0.9}});
  std::vector<WindowVerdict> v;
  for (const auto& [type, conf] : list) v.push_back({0, 30, false, type, conf, conf, 50});
  const auto s = summarize_windows(v, {}, {});
  EXPECT_EQ(s.type, WorkloadType::Training);
  EXPECT_NE(s.reasons[0].find("2 of 12 active windows (17%)"), std::string::npos);
  // One stray training window among many is not enough.
  v.pop_back();
  EXPECT_EQ(summarize_windows(v, {}, {}).type, WorkloadType::Inference);
}

TEST(GpuSummary, UnsureTrainingWindowsDoNotOverrideTheMajority) {
  // 3 of 13 active windows are TRAINING, but only one of them is confident: the majority stands.
  std::vector<WindowVerdict> v(10, {0, 30, false, I, 0.9, 0.1, 50});
  for (double conf : {0.6, 0.7, 0.95}) v.push_back({0, 30, false, T, conf, conf, 50});
  EXPECT_EQ(summarize_windows(v, {}, {}).type, WorkloadType::Inference);
  v.push_back({0, 30, false, T, kTrainingJobMinConfidence, 0.8, 50});  // a second confident one tips it
  const auto s = summarize_windows(v, {}, {});
  EXPECT_EQ(s.type, WorkloadType::Training);
  EXPECT_NE(s.reasons[0].find("4 of 14 active windows"), std::string::npos);
}

TEST(GpuSummary, ConfidentTrainingIsJudgedByTheTrainingScore) {
  // Calibrated confidences read lower than the model's P(TRAINING): the override's bar is on the
  // latter, so two windows of score 0.9 (confidence 0.7) still make a diluted job TRAINING.
  std::vector<WindowVerdict> v(10, {0, 30, false, I, 0.9, 0.1, 50});
  for (int i = 0; i < 2; ++i) v.push_back({0, 30, false, T, 0.7, 0.9, 50});
  EXPECT_EQ(summarize_windows(v, {}, {}).type, WorkloadType::Training);
  // Without a score (the seed rules), the confidence is the bar.
  for (std::size_t i = 10; i < v.size(); ++i) v[i].training_score.reset();
  EXPECT_EQ(summarize_windows(v, {}, {}).type, WorkloadType::Inference);
}

TEST(GpuSummary, TieGoesToTheMoreConfidentClass) {
  EXPECT_EQ(summarize_windows(windows({{T, 0.5}, {I, 1}}), {}, {}).type, WorkloadType::Inference);
  EXPECT_EQ(summarize_windows(windows({{T, 1}, {I, 0.5}}), {}, {}).type, WorkloadType::Training);
}

TEST(GpuSummary, NoWindowsIsUnknown) {
  const auto v = summarize_windows({}, {}, {});
  EXPECT_EQ(v.type, WorkloadType::Unknown);
  EXPECT_EQ(v.confidence, 0);
}

}  // namespace wt

namespace wt {

TEST(GpuSummary, TrainingScoreIsTheMeanOverActiveWindows) {
  std::vector<WindowVerdict> w{{0, 30, false, WorkloadType::Idle, 1, 0.0, 0},
                               {15, 45, false, WorkloadType::Training, 0.9, 0.8, 90},
                               {30, 60, false, WorkloadType::Inference, 0.6, 0.2, 40}};
  EXPECT_NEAR(*summarize_windows(w, {}, {}).training_score, 0.5, 1e-12);
}

}  // namespace wt
