#include "window/windower.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace wt {
namespace {

struct Cut {
  double start, end;
  std::size_t n;
  bool partial;
};

std::vector<Cut> cut(const std::vector<Sample>& samples, WindowSpec spec, Windower** out = nullptr) {
  std::vector<Cut> cuts;
  static std::unique_ptr<Windower> keep;
  keep = std::make_unique<Windower>(spec, [&](const Window& w) {
    cuts.push_back({w.start_s, w.end_s, w.samples.size(), w.partial});
  });
  for (const auto& s : samples) keep->push(s);
  keep->finish();
  if (out) *out = keep.get();
  return cuts;
}

}  // namespace

TEST(Windower, SecondsNotSampleCounts) {
  // 120 s of samples at 1 Hz and at 10 Hz give the same windows.
  for (double dt : {1.0, 0.1}) {
    const auto n = static_cast<std::size_t>(120 / dt);
    const auto cuts = cut(test::steady(n, dt, 50, 100), {30, 15, 3});
    ASSERT_EQ(cuts.size(), 7u) << dt;  // starts 0, 15, ..., 75 full; the one from 90 ends with the data
    EXPECT_DOUBLE_EQ(cuts[0].end - cuts[0].start, 30);
    EXPECT_DOUBLE_EQ(cuts[1].start - cuts[0].start, 15);
    EXPECT_EQ(cuts[0].n, static_cast<std::size_t>(30 / dt));
    EXPECT_TRUE(cuts.back().partial);
  }
}

TEST(Windower, ShortTraceGetsOnePartialWindow) {
  const auto cuts = cut(test::steady(20, 1.0, 50, 100), {30, 15, 3});
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_TRUE(cuts[0].partial);
  EXPECT_EQ(cuts[0].n, 20u);
}

TEST(Windower, TooFewSamplesGiveNoWindow) {
  EXPECT_TRUE(cut(test::steady(2, 1.0, 50, 100), {30, 15, 3}).empty());
}

TEST(Windower, SparseSamplesWidenTheWindow) {
  Windower* w = nullptr;
  const auto cuts = cut(test::steady(30, 60.0, 50, 100), {30, 15, 3}, &w);
  ASSERT_FALSE(cuts.empty());
  EXPECT_TRUE(w->widened());
  EXPECT_DOUBLE_EQ(w->spec().length_s, 180);
  EXPECT_DOUBLE_EQ(w->spec().stride_s, 90);
  for (const auto& c : cuts) EXPECT_GE(c.n, 3u);
}

TEST(Windower, LongGapIsSkippedQuickly) {
  auto a = test::steady(40, 1.0, 50, 100, 0);
  const auto b = test::steady(40, 1.0, 50, 100, 1e9);  // 30 years later
  a.insert(a.end(), b.begin(), b.end());
  const auto cuts = cut(a, {30, 15, 3});
  ASSERT_GE(cuts.size(), 2u);
  for (const auto& c : cuts) EXPECT_GE(c.n, 3u);
  EXPECT_GE(cuts.back().start, 1e9 - 30);
}

TEST(Windower, TimesBeyondTheStridesPrecisionDoNotHang) {
  auto a = test::steady(40, 1.0, 50, 100, 1e17);  // 1e17 + 15 == 1e17 in doubles
  const auto b = test::steady(40, 1.0, 50, 100, 4e17);
  a.insert(a.end(), b.begin(), b.end());
  cut(a, {30, 15, 3});  // returns: that is the test
  SUCCEED();
}

TEST(Windower, RejectsNonPositiveGeometry) {
  EXPECT_THROW(Windower({0, 15, 3}, [](const Window&) {}), std::invalid_argument);
  EXPECT_THROW(Windower({30, -1, 3}, [](const Window&) {}), std::invalid_argument);
}

}  // namespace wt
