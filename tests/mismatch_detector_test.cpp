#include "watch/mismatch_detector.hpp"

#include <gtest/gtest.h>

namespace wt::watch {
namespace {
constexpr auto T = WorkloadType::Training;
constexpr auto I = WorkloadType::Inference;

// Feeds `n` windows of 30 s every 15 s from `t0`; returns the events in order.
std::vector<MismatchEvent> feed(MismatchDetector& d, std::optional<WorkloadType> declared, WorkloadType observed,
                                double confidence, int n, double& t0) {
  std::vector<MismatchEvent> events;
  for (int i = 0; i < n; ++i, t0 += 15)
    if (auto e = d.update(declared, observed, confidence, t0, t0 + 30)) events.push_back(*e);
  return events;
}
}  // namespace

TEST(MismatchDetector, RaisedOnceAfterPersistingLongEnough) {
  MismatchDetector d({0.9, 300, 3});
  double t = 0;
  // Windows [0,30) .. : the span reaches 300 s at the window starting at 270 (the 19th).
  auto events = feed(d, I, T, 0.95, 18, t);
  EXPECT_TRUE(events.empty());
  EXPECT_FALSE(d.alerting());
  events = feed(d, I, T, 0.95, 1, t);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, MismatchEvent::Kind::Raised);
  EXPECT_EQ(events[0].declared, I);
  EXPECT_EQ(events[0].observed, T);
  EXPECT_DOUBLE_EQ(events[0].since_s, 0);
  EXPECT_DOUBLE_EQ(events[0].at_s, 300);
  EXPECT_NEAR(events[0].confidence, 0.95, 1e-12);
  EXPECT_TRUE(d.alerting());
  EXPECT_TRUE(feed(d, I, T, 0.95, 20, t).empty());  // not raised again
}

TEST(MismatchDetector, LowConfidenceWindowsNeverCount) {
  MismatchDetector d({0.9, 300, 3});
  double t = 0;
  EXPECT_TRUE(feed(d, I, T, 0.89, 100, t).empty());
  EXPECT_FALSE(d.alerting());
}

TEST(MismatchDetector, OneDoubtfulWindowRestartsTheClock) {
  MismatchDetector d({0.9, 300, 3});
  double t = 0;
  EXPECT_TRUE(feed(d, I, T, 0.95, 15, t).empty());
  EXPECT_TRUE(feed(d, I, T, 0.5, 1, t).empty());
  EXPECT_DOUBLE_EQ(d.run_s(), 0);
  EXPECT_TRUE(feed(d, I, T, 0.95, 18, t).empty());  // a fresh run, 285 s so far
  EXPECT_EQ(feed(d, I, T, 0.95, 1, t).size(), 1u);
}

TEST(MismatchDetector, MatchingIdleUnknownOrUndeclaredIsNoEvidence) {
  for (auto [declared, observed] : std::vector<std::pair<std::optional<WorkloadType>, WorkloadType>>{
           {I, I}, {I, WorkloadType::Idle}, {I, WorkloadType::Unknown}, {std::nullopt, T}}) {
    MismatchDetector d({0.9, 60, 3});
    double t = 0;
    EXPECT_TRUE(feed(d, declared, observed, 1.0, 50, t).empty()) << to_string(observed);
  }
}

TEST(MismatchDetector, ClearedAfterEnoughWindowsBackInLine) {
  MismatchDetector d({0.9, 60, 3});
  double t = 0;
  ASSERT_EQ(feed(d, I, T, 0.95, 10, t).size(), 1u);
  EXPECT_TRUE(feed(d, I, I, 0.95, 2, t).empty());
  EXPECT_TRUE(d.alerting());
  const auto events = feed(d, I, I, 0.95, 1, t);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, MismatchEvent::Kind::Cleared);
  EXPECT_FALSE(d.alerting());
}

TEST(MismatchDetector, ChangedDeclarationEndsTheEpisode) {
  MismatchDetector d({0.9, 60, 3});
  double t = 0;
  ASSERT_EQ(feed(d, I, T, 0.95, 10, t).size(), 1u);
  const auto events = feed(d, T, T, 0.95, 1, t);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, MismatchEvent::Kind::Cleared);
  EXPECT_EQ(events[0].declared, I);
}

}  // namespace wt::watch
