#include "core/time_format.hpp"

#include <gtest/gtest.h>

namespace wt {

TEST(TimeFormat, ParsesNvidiaSmiTimestamps) {
  const auto t = parse_timestamp("2024/02/16 17:12:43.709");
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 1708103563.709, 1e-6);
  EXPECT_EQ(format_nvidia_smi_time(*t), "2024/02/16 17:12:43.709");
  EXPECT_EQ(format_iso_time(*t), "2024-02-16T17:12:43.709");
}

TEST(TimeFormat, AcceptsVariants) {
  EXPECT_TRUE(parse_timestamp("2024-02-16 17:12:43"));
  EXPECT_TRUE(parse_timestamp("2024-02-16T17:12:43.123456"));
  EXPECT_NEAR(*parse_timestamp("1970/01/01 00:00:01.5"), 1.5, 1e-12);
}

TEST(TimeFormat, RejectsMalformed) {
  for (const char* bad : {"", "2024/02/16", "2024/13/01 00:00:00", "2024/02/30 00:00:00", "2024/02/16 25:00:00",
                          "2024/02/16 17:12:43.", "2024/02/16 17:12:43x", "abcd/ef/gh ij:kl:mn", "2024/02/16 17:12:4"})
    EXPECT_FALSE(parse_timestamp(bad)) << bad;
}

TEST(TimeFormat, NeverPrintsSixtySeconds) {
  EXPECT_EQ(format_nvidia_smi_time(59.9996), "1970/01/01 00:01:00.000");
  EXPECT_EQ(format_nvidia_smi_time(-0.5), "1969/12/31 23:59:59.500");
}

}  // namespace wt
