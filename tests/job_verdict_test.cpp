#include "watch/job_verdict.hpp"

#include <gtest/gtest.h>

namespace wt::watch {
namespace {
constexpr auto T = WorkloadType::Training;
constexpr auto I = WorkloadType::Inference;
constexpr auto U = WorkloadType::Unknown;
}  // namespace

TEST(JobVerdict, FirstWindowSetsIt) {
  JobVerdict j({3, 0.97});
  EXPECT_FALSE(j.known());
  EXPECT_TRUE(j.update(I, 0.6, 100));
  EXPECT_EQ(j.type(), I);
  EXPECT_DOUBLE_EQ(j.since_s(), 100);
  EXPECT_DOUBLE_EQ(j.confidence(), 0.6);
}

TEST(JobVerdict, NoisyAlternationDoesNotFlap) {
  JobVerdict j({3, 0.97});
  j.update(T, 0.8, 0);
  for (int i = 1; i <= 40; ++i) {
    const WorkloadType t = i % 2 ? I : T;  // I, T, I, T ...: never 3 I in a row
    EXPECT_FALSE(j.update(t, 0.8, i * 15.0)) << "window " << i;
    EXPECT_EQ(j.type(), T);
  }
  // Two in a row, then back: still no switch.
  EXPECT_FALSE(j.update(I, 0.8, 1000));
  EXPECT_FALSE(j.update(I, 0.8, 1015));
  EXPECT_FALSE(j.update(T, 0.8, 1030));
  EXPECT_EQ(j.type(), T);
}

TEST(JobVerdict, RealChangeSwitchesAfterHold) {
  JobVerdict j({3, 0.97});
  j.update(T, 0.9, 0);
  EXPECT_FALSE(j.update(I, 0.7, 15));
  EXPECT_FALSE(j.update(I, 0.8, 30));
  EXPECT_TRUE(j.update(I, 0.9, 45));
  EXPECT_EQ(j.type(), I);
  EXPECT_DOUBLE_EQ(j.since_s(), 15);  // from the first window of the run that won
  EXPECT_NEAR(j.confidence(), 0.8, 1e-12);
}

TEST(JobVerdict, OneVeryConfidentWindowSwitchesAtOnce) {
  JobVerdict j({3, 0.97});
  j.update(T, 0.9, 0);
  EXPECT_TRUE(j.update(I, 0.99, 15));
  EXPECT_EQ(j.type(), I);
}

TEST(JobVerdict, UnknownNeedsTheFullHoldWhateverItsConfidence) {
  JobVerdict j({2, 0.9});
  j.update(T, 0.9, 0);
  EXPECT_FALSE(j.update(U, 1.0, 15));
  EXPECT_TRUE(j.update(U, 1.0, 30));
  EXPECT_EQ(j.type(), U);
}

TEST(JobVerdict, HoldOfOneFollowsEveryWindow) {
  JobVerdict j({1, 2.0});
  j.update(T, 0.5, 0);
  EXPECT_TRUE(j.update(I, 0.5, 15));
  EXPECT_TRUE(j.update(T, 0.5, 30));
}

}  // namespace wt::watch
