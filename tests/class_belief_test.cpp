#include "classify/class_belief.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace wt {
namespace {

constexpr std::size_t kA = 0, kB = 1, kIdle = 2;

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST(ClassBelief, StayZeroJudgesEveryWindowAlone) {
  ClassBelief b(0);
  EXPECT_EQ(b.update({0.9, 0.05, 0.05}), (std::vector<double>{0.9, 0.05, 0.05}));
  const auto second = b.update({0.2, 0.7, 0.1});
  for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(second[k], (std::vector<double>{0.2, 0.7, 0.1})[k], 1e-12);
}

TEST(ClassBelief, FirstWindowIsItsOwnAndLaterOnesAreWeighedWithIt) {
  ClassBelief b(0.95, kIdle);
  EXPECT_EQ(b.update({0.9, 0.08, 0.02}), (std::vector<double>{0.9, 0.08, 0.02}));
  for (int i = 0; i < 3; ++i) b.update({0.9, 0.08, 0.02});
  // A window that alone leans to B (60 %) after four that read A stays A: one evaluation pass
  // of a training run, one lull of a serving job.
  const auto p = b.update({0.38, 0.6, 0.02});
  EXPECT_GT(p[kA], p[kB]);
  EXPECT_NEAR(sum(p), 1.0, 1e-12);
}

TEST(ClassBelief, ClearEvidenceMovesTheBeliefWithinTwoWindows) {
  ClassBelief b(0.95, kIdle);
  for (int i = 0; i < 20; ++i) b.update({0.95, 0.04, 0.01});
  b.update({0.01, 0.98, 0.01});
  EXPECT_GT(b.update({0.01, 0.98, 0.01})[kB], 0.9);  // the job changed: the belief follows
}

TEST(ClassBelief, IdleWindowsPassThroughAndLeaveTheBelief) {
  ClassBelief with_pause(0.9, kIdle), without(0.9, kIdle);
  for (ClassBelief* b : {&with_pause, &without}) b->update({0.7, 0.2, 0.1});
  const std::vector<double> idle{0.02, 0.03, 0.95};
  EXPECT_EQ(with_pause.update(idle), idle);  // a pause is reported as the pause it is
  const std::vector<double> next{0.45, 0.5, 0.05};
  EXPECT_EQ(with_pause.update(next), without.update(next));  // and the job resumes as it was
}

TEST(ClassBelief, FlatContradictionOfASureBeliefIsFollowed) {
  ClassBelief b(0.5);
  b.update({1.0, 0.0, 0.0});
  // The prior gives every class some weight, so no belief is ever too sure to move.
  const auto p = b.update({0.0, 1.0, 0.0});
  EXPECT_NEAR(p[kB], 1.0, 1e-12);
}

TEST(ClassBelief, WindowsAStepApartWeighAsWithoutTime) {
  ClassBelief timed(0.95, kIdle, 15), untimed(0.95, kIdle);
  const std::vector<std::vector<double>> windows{{0.9, 0.08, 0.02}, {0.7, 0.25, 0.05}, {0.38, 0.6, 0.02}};
  for (std::size_t i = 0; i < windows.size(); ++i) {
    // 15 s apart, or closer (a shorter stride): one step each, as a model without time.
    const auto a = timed.update(windows[i], 100 + 10.0 * static_cast<double>(i)), b = untimed.update(windows[i]);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], 1e-12) << "window " << i;
  }
}

TEST(ClassBelief, AnHourIdleForgetsTheJobAPauseDoesNot) {
  const std::vector<double> a{0.95, 0.04, 0.01}, idle{0.02, 0.03, 0.95}, leans_b{0.3, 0.68, 0.02};
  auto after_idle = [&](double idle_s) {
    ClassBelief b(0.95, kIdle, 15);
    double t = 0;
    for (int i = 0; i < 20; ++i) b.update(a, t += 15);
    for (double end = t + idle_s; t < end;) b.update(idle, t += 15);  // passed through, but the time counts
    return b.update(leans_b, t + 15);
  };
  // A checkpoint pause of 30 s: the job resumes as it was, and one window that leans to B
  // stays A.
  EXPECT_GT(after_idle(30)[kA], 0.5);
  // An hour idle: the next job's first window is read as it reads.
  const auto fresh = after_idle(3600);
  EXPECT_GT(fresh[kB], 0.6);
  // Without time, the hour counted for nothing and that window was given to the old job.
  ClassBelief untimed(0.95, kIdle);
  for (int i = 0; i < 20; ++i) untimed.update(a);
  EXPECT_GT(untimed.update(leans_b)[kA], 0.5);
}

TEST(ClassBelief, AGapInTheTelemetryCountsAsTime) {
  ClassBelief b(0.95, kIdle, 15);
  for (int i = 0; i < 20; ++i) b.update({0.95, 0.04, 0.01}, 15.0 * i);
  // No window at all for a day (the recording stopped, the GPU was lost): the same.
  EXPECT_GT(b.update({0.3, 0.68, 0.02}, 86400)[kB], 0.6);
}

}  // namespace wt
