#include "source/prometheus/exposition.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace wt {
namespace {

TEST(Exposition, ReadsNamesLabelsValuesAndTimestamps) {
  const auto e = parse_exposition(
      "# HELP up Whether the target is up.\n"
      "# TYPE up gauge\n"
      "up 1\r\n"
      "  \n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",modelName=\"NVIDIA \\\"A100\\\" \\\\ x\\ny\", } 97 1700000000123\n"
      "temp { a = \"1\" ,b=\"2\"}\t-3.5e1\n");
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  ASSERT_EQ(e.points.size(), 3u);
  EXPECT_EQ(e.points[0].name, "up");
  EXPECT_TRUE(e.points[0].labels.empty());
  EXPECT_EQ(e.points[0].value, 1);
  EXPECT_FALSE(e.points[0].time_ms);
  EXPECT_EQ(e.points[1].name, "DCGM_FI_DEV_GPU_UTIL");
  EXPECT_EQ(label(e.points[1].labels, "gpu"), "0");
  EXPECT_EQ(label(e.points[1].labels, "modelName"), "NVIDIA \"A100\" \\ x\ny");
  EXPECT_EQ(label(e.points[1].labels, "absent"), "");
  EXPECT_EQ(e.points[1].value, 97);
  EXPECT_EQ(e.points[1].time_ms, 1700000000123);
  EXPECT_EQ(label(e.points[2].labels, "b"), "2");
  EXPECT_EQ(e.points[2].value, -35);
}

TEST(Exposition, SpecialValues) {
  const auto e = parse_exposition("a NaN\nb +Inf\nc -Inf\nd +4\n");
  ASSERT_EQ(e.points.size(), 4u);
  EXPECT_TRUE(std::isnan(e.points[0].value));
  EXPECT_EQ(e.points[1].value, INFINITY);
  EXPECT_EQ(e.points[2].value, -INFINITY);
  EXPECT_EQ(e.points[3].value, 4);
}

TEST(Exposition, MalformedLinesAreListedWithTheirLineAndSkipped) {
  const auto e = parse_exposition(
      "ok 1\n"
      "open{a=\"x} 1\n"
      "novalue\n"
      "word{a=\"1\"} abc\n"
      "extra 1 2 3\n"
      "{a=\"b\"} 1\n"
      "badts 1 12.5\n"
      "nolabelvalue{a} 1\n"
      "ok 2");
  ASSERT_EQ(e.points.size(), 2u);
  EXPECT_EQ(e.points[1].value, 2);
  ASSERT_EQ(e.errors.size(), 7u);
  for (std::size_t i = 0; i < e.errors.size(); ++i) EXPECT_EQ(e.errors[i].line, i + 2);
  EXPECT_NE(e.errors[0].message.find("closing quote"), std::string::npos);
  EXPECT_NE(e.errors[1].message.find("no value"), std::string::npos);
  EXPECT_NE(e.errors[2].message.find("'abc' is not a number"), std::string::npos);
  EXPECT_NE(e.errors[3].message.find("unexpected text"), std::string::npos);
  EXPECT_NE(e.errors[4].message.find("metric name"), std::string::npos);
  EXPECT_NE(e.errors[5].message.find("millisecond timestamp"), std::string::npos);
  EXPECT_NE(e.errors[6].message.find("=\"value\""), std::string::npos);
}

}  // namespace
}  // namespace wt
