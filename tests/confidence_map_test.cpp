#include "classify/confidence_map.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace wt {
namespace {

std::vector<std::pair<double, bool>> windows(double p, std::size_t right, std::size_t wrong) {
  std::vector<std::pair<double, bool>> v(right, {p, true});
  v.insert(v.end(), wrong, {p, false});
  return v;
}

}  // namespace

TEST(ConfidenceMap, WithoutPointsTheProbabilityIsTheConfidence) {
  const ConfidenceMap m;
  EXPECT_TRUE(m.identity());
  EXPECT_DOUBLE_EQ(m.apply(0.73), 0.73);
  EXPECT_TRUE(ConfidenceMap::fit({}).identity());
}

TEST(ConfidenceMap, LinearBetweenPointsAndFlatBeyondThem) {
  const ConfidenceMap m({{0.5, 0.4}, {0.9, 0.8}, {1.0, 1.0}});
  EXPECT_DOUBLE_EQ(m.apply(0.3), 0.4);
  EXPECT_DOUBLE_EQ(m.apply(0.5), 0.4);
  EXPECT_NEAR(m.apply(0.7), 0.6, 1e-12);
  EXPECT_NEAR(m.apply(0.95), 0.9, 1e-12);
  EXPECT_DOUBLE_EQ(m.apply(1.0), 1.0);
}

TEST(ConfidenceMap, RejectsMapsThatAreNotMonotoneOrNotShares) {
  EXPECT_THROW(ConfidenceMap({{0.6, 0.7}, {0.8, 0.6}}), std::invalid_argument);   // accuracy falls
  EXPECT_THROW(ConfidenceMap({{0.8, 0.6}, {0.8, 0.7}}), std::invalid_argument);   // same probability twice
  EXPECT_THROW(ConfidenceMap({{0.6, 1.2}}), std::invalid_argument);               // not a share
  EXPECT_THROW(ConfidenceMap({{-0.1, 0.5}}), std::invalid_argument);
}

TEST(ConfidenceMap, FitPoolsBinsThatAreRightMoreOftenThanTheNext) {
  // Bins at 0.6, 0.7, 0.8: right 50 %, 90 %, 70 % of the time. The last two are pooled at 80 %.
  auto data = windows(0.6, 5, 5);
  for (const auto& w : windows(0.7, 9, 1)) data.push_back(w);
  for (const auto& w : windows(0.8, 7, 3)) data.push_back(w);
  const ConfidenceMap m = ConfidenceMap::fit(data, 3);
  ASSERT_EQ(m.points().size(), 2u);
  EXPECT_DOUBLE_EQ(m.points()[0].first, 0.6);
  EXPECT_DOUBLE_EQ(m.points()[0].second, 0.5);
  EXPECT_NEAR(m.points()[1].first, 0.75, 1e-12);
  EXPECT_NEAR(m.points()[1].second, 0.8, 1e-12);
}

TEST(ConfidenceMap, FitMovesOverConfidentProbabilitiesDownToTheirAccuracy) {
  // A model right with probability p*p when it says p: over-confident everywhere below 1.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> p(0.4, 1.0), u(0.0, 1.0);
  std::vector<std::pair<double, bool>> data;
  for (int i = 0; i < 200000; ++i) {
    const double q = p(rng);
    data.emplace_back(q, u(rng) < q * q);
  }
  const ConfidenceMap m = ConfidenceMap::fit(data);
  EXPECT_LE(m.points().size(), 100u);
  for (double q : {0.5, 0.7, 0.9}) EXPECT_NEAR(m.apply(q), q * q, 0.02) << q;
  for (std::size_t i = 1; i < m.points().size(); ++i) EXPECT_GE(m.points()[i].second, m.points()[i - 1].second);
}

TEST(ConfidenceMap, JsonRoundTrip) {
  const ConfidenceMap m({{0.5, 0.45}, {0.99, 0.995}});
  const ConfidenceMap back = ConfidenceMap::from_json(m.to_json());
  EXPECT_EQ(back.points(), m.points());
}

}  // namespace wt
