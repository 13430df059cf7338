#include "core/signal.hpp"

#include <gtest/gtest.h>

namespace wt {

TEST(SignalValues, MissingIsNotZero) {
  SignalValues v;
  EXPECT_FALSE(v.get(Signal::Power));
  v.set(Signal::Power, 0.0);
  ASSERT_TRUE(v.get(Signal::Power));
  EXPECT_EQ(*v.get(Signal::Power), 0.0);
  v.clear(Signal::Power);
  EXPECT_FALSE(v.has(Signal::Power));
  EXPECT_TRUE(v.empty());
}

TEST(SignalValues, EqualityIgnoresAbsentSlots) {
  SignalValues a, b;
  a.set(Signal::GpuUtil, 5);
  b.set(Signal::GpuUtil, 5);
  b.set(Signal::Power, 7);
  b.clear(Signal::Power);
  EXPECT_EQ(a, b);
  b.set(Signal::MemUsed, 1);
  EXPECT_NE(a, b);
}

TEST(Signals, TableIsInEnumOrder) {
  for (std::size_t i = 0; i < kSignalCount; ++i) EXPECT_EQ(static_cast<std::size_t>(kSignals[i].signal), i);
}

}  // namespace wt
