#include "source/synthetic_source.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace wt {

TEST(SyntheticSource, DeterministicWithSeed) {
  SyntheticSource a({"inference", 50, 0, 7}), b({"inference", 50, 0, 7}), c({"inference", 50, 0, 8});
  const auto sa = test::drain(a), sb = test::drain(b), sc = test::drain(c);
  ASSERT_EQ(sa.size(), 50u);
  for (std::size_t i = 0; i < sa.size(); ++i) EXPECT_EQ(sa[i].values, sb[i].values);
  EXPECT_NE(sa[3].values, sc[3].values);
}

TEST(SyntheticSource, SeedProfilesShape) {
  SyntheticSource s({"training", 200, 0, 1});
  const auto v = test::drain(s);
  EXPECT_EQ(*v[0].values.get(Signal::MemUsed), 18000);
  EXPECT_EQ(*v[1].values.get(Signal::MemUsed), 18120);
  EXPECT_EQ(*v[199].values.get(Signal::MemUsed), 38000);  // ceiling
  EXPECT_EQ(v[1].time_s - v[0].time_s, 1.0);               // interval 0: 1 s apart, no sleep
  for (const auto& x : v) {
    EXPECT_GE(*x.values.get(Signal::GpuUtil), 0);
    EXPECT_LE(*x.values.get(Signal::GpuUtil), 100);
  }
}

TEST(SyntheticSource, RejectsUnknownProfile) {
  EXPECT_THROW(SyntheticSource({"mining", 5, 0, 1}), std::invalid_argument);
}

}  // namespace wt
