#include "source/replay/jsonl_trace.hpp"

#include <gtest/gtest.h>

namespace wt {

TEST(JsonlTrace, ParsesSamplesAndNulls) {
  Diagnostics d;
  JsonlTraceParser p("t.jsonl", [&](Diagnostic x) { d.push_back(x); });
  Sample s;
  EXPECT_FALSE(p.parse_line(jsonl_header(), 1, s));
  ASSERT_TRUE(p.parse_line(R"({"time_s": 10.5, "gpu": {"index": 2, "uuid": "GPU-x"}, "power_w": 120.25, "gpu_util_pct": null})", 2, s));
  EXPECT_EQ(s.time_s, 10.5);
  EXPECT_EQ(s.gpu->index, 2);
  EXPECT_EQ(s.gpu->uuid, "GPU-x");
  EXPECT_DOUBLE_EQ(*s.values.get(Signal::Power), 120.25);
  EXPECT_FALSE(s.values.has(Signal::GpuUtil));
  EXPECT_TRUE(d.empty());
}

TEST(JsonlTrace, BadLinesAreReportedWithTheirNumber) {
  Diagnostics d;
  JsonlTraceParser p("t.jsonl", [&](Diagnostic x) { d.push_back(x); });
  Sample s;
  const char* bad[] = {"{", "[1,2]", R"({"gpu": {}})", R"({"time_s": "x"})", R"({"time_s": 1, "power_w": "high"})",
                       R"({"time_s": 1, "power_w": -3})", R"({"time_s": 1, "gpu": {"index": -1}})",
                       R"({"time_s": 1, "gpu": 7})", R"({"time_s": 1, "gpu": {"index": 0, "name": 5}})",
                       R"({"time_s": 1e300})", R"({"time_s": -5})"};
  std::size_t line = 1;
  for (const char* b : bad) EXPECT_FALSE(p.parse_line(b, line++, s)) << b;
  ASSERT_EQ(d.size(), std::size(bad));
  EXPECT_EQ(d[0].where, "t.jsonl:1");
  EXPECT_EQ(d.back().where, "t.jsonl:11");
}

TEST(JsonlTrace, RejectsForeignFormatHeader) {
  JsonlTraceParser p("t.jsonl", [](Diagnostic) {});
  Sample s;
  EXPECT_THROW(p.parse_line(R"({"format": "other", "version": 1})", 1, s), InputError);
  EXPECT_THROW(p.parse_line(R"({"format": "workloadtruth-trace", "version": 99})", 1, s), InputError);
}

TEST(JsonlTrace, UnknownFieldsAreNotedOnce) {
  Diagnostics d;
  JsonlTraceParser p("t.jsonl", [&](Diagnostic x) { d.push_back(x); });
  Sample s;
  EXPECT_TRUE(p.parse_line(R"({"time_s": 1, "fan_pct": 3})", 1, s));
  EXPECT_TRUE(p.parse_line(R"({"time_s": 2, "fan_pct": 3})", 2, s));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_FALSE(d[0].is_error);
}

}  // namespace wt
