#include "source/replay/nvidia_smi_csv.hpp"

#include <gtest/gtest.h>

namespace wt {
namespace {

struct Parsed {
  std::vector<Sample> samples;
  Diagnostics diags;
};

Parsed parse(const std::vector<std::string>& lines, std::vector<std::string> columns = {}) {
  Parsed p;
  NvidiaSmiCsvParser parser("t.csv", [&](Diagnostic d) { p.diags.push_back(std::move(d)); }, std::move(columns));
  Sample s;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (parser.parse_line(lines[i], i + 1, s)) p.samples.push_back(s);
  return p;
}

std::size_t errors(const Parsed& p) {
  std::size_t n = 0;
  for (const auto& d : p.diags) n += d.is_error;
  return n;
}

}  // namespace

TEST(NvidiaSmiCsv, ReadsUnitsInHeaderAndValues) {
  const auto p = parse({"timestamp, index, name, utilization.gpu [%], memory.used [MiB], power.draw [W], clocks.sm [MHz]",
                        "2024/02/16 17:12:43.709, 0, Tesla V100-SXM2-32GB, 87 %, 131 MiB, 72.36 W, 1380 MHz"});
  ASSERT_EQ(p.samples.size(), 1u);
  const auto& v = p.samples[0].values;
  EXPECT_EQ(*v.get(Signal::GpuUtil), 87);
  EXPECT_EQ(*v.get(Signal::MemUsed), 131);
  EXPECT_DOUBLE_EQ(*v.get(Signal::Power), 72.36);
  EXPECT_EQ(*v.get(Signal::SmClock), 1380);
  EXPECT_FALSE(v.has(Signal::Temperature));
  EXPECT_EQ(p.samples[0].gpu->name, "Tesla V100-SXM2-32GB");
  EXPECT_TRUE(p.diags.empty());
}

TEST(NvidiaSmiCsv, AnyColumnOrderAndNotAvailable) {
  const auto p = parse({"power.draw [W], utilization.gpu [%], timestamp, index",
                        "[N/A], 12 %, 2024/02/16 17:12:43.709, 3", "[Not Supported], [N/A], 2024/02/16 17:12:44.709, 3"});
  ASSERT_EQ(p.samples.size(), 2u);
  EXPECT_FALSE(p.samples[0].values.has(Signal::Power));  // missing, not zero
  EXPECT_EQ(*p.samples[0].values.get(Signal::GpuUtil), 12);
  EXPECT_TRUE(p.samples[1].values.empty());
  EXPECT_EQ(p.samples[0].gpu->index, 3);
}

TEST(NvidiaSmiCsv, NoHeaderNeedsColumns) {
  EXPECT_THROW(parse({"2024/02/16 17:12:43.709, 0, 12, 80.5"}), InputError);
  const auto p = parse({"2024/02/16 17:12:43.709, 0, 12, 80.5"}, {"timestamp", "index", "utilization.gpu", "power.draw"});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.samples[0].values.get(Signal::Power), 80.5);
}

TEST(NvidiaSmiCsv, AHeaderOfOtherNamesIsNotTakenForData) {
  // Another CSV (a manifest, a spreadsheet) is named as such, not as a log written without header.
  try {
    parse({"file,label,source repo,source path,gpu name", "a.csv,training,x,y,z"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.csv:1: the header (file, label, source repo, source path, ...) names no "
                                         "nvidia-smi --query-gpu field"),
              std::string::npos)
        << e.what();
  }
}

TEST(NvidiaSmiCsv, NeedsATimestampColumn) {
  EXPECT_THROW(parse({"index, utilization.gpu [%]", "0, 5 %"}), InputError);
}

TEST(NvidiaSmiCsv, InterleavedGpusShareIdentities) {
  const auto p = parse({"timestamp, uuid, utilization.gpu [%]", "2024/01/01 00:00:00.000, GPU-a, 1 %",
                        "2024/01/01 00:00:00.000, GPU-b, 2 %", "2024/01/01 00:00:01.000, GPU-a, 3 %"});
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_EQ(p.samples[0].gpu, p.samples[2].gpu);
  EXPECT_NE(p.samples[0].gpu, p.samples[1].gpu);
  EXPECT_EQ(p.samples[1].gpu->uuid, "GPU-b");
}

TEST(NvidiaSmiCsv, UnknownColumnsAreANoteNotAnError) {
  const auto p = parse({"timestamp, fan.speed [%], utilization.gpu [%]", "2024/01/01 00:00:00.000, 30 %, 1 %"});
  EXPECT_EQ(p.samples.size(), 1u);
  ASSERT_EQ(p.diags.size(), 1u);
  EXPECT_FALSE(p.diags[0].is_error);
  EXPECT_NE(p.diags[0].message.find("fan.speed"), std::string::npos);
}

TEST(NvidiaSmiCsv, BadValuesNameTheLine) {
  const std::string h = "timestamp, index, utilization.gpu [%], power.draw [W]";
  for (const std::string bad : {"2024/01/01 00:00:00.000, 0, nan %, 5 W", "2024/01/01 00:00:00.000, 0, 5 %, -1 W",
                                "2024/01/01 00:00:00.000, 0, 101 %, 5 W", "2024/01/01 00:00:00.000, 0, 5 %, inf W",
                                "2024/01/01 00:00:00.000, 0, 5 kg, 5 W", "2024/01/01 00:00:00.000, 0, 5 %",
                                "2024/01/01 00:00:00.000, x, 5 %, 5 W", "2024/01/01 00:00:00.000, 0, 5 %, 5 W, 7",
                                "yesterday, 0, 5 %, 5 W", "2024/01/01 00:00:00.000, 0, 5 %, 1e300 W"}) {
    const auto p = parse({h, bad});
    EXPECT_TRUE(p.samples.empty()) << bad;
    ASSERT_EQ(errors(p), 1u) << bad;
    EXPECT_EQ(p.diags[0].where, "t.csv:2") << bad;
  }
}

TEST(NvidiaSmiCsv, RejectsTimeGoingBackwardsPerGpu) {
  const auto p = parse({"timestamp, index, utilization.gpu [%]", "2024/01/01 00:00:05.000, 0, 1 %",
                        "2024/01/01 00:00:01.000, 1, 1 %", "2024/01/01 00:00:04.000, 0, 1 %"});
  EXPECT_EQ(p.samples.size(), 2u);  // GPU 1 has its own clock; GPU 0 went back
  EXPECT_EQ(errors(p), 1u);
}

TEST(NvidiaSmiCsv, RepeatedHeaderIsSkippedAndANewOneRereadsColumns) {
  const auto p = parse({"timestamp, utilization.gpu [%]", "2024/01/01 00:00:00.000, 1 %", "timestamp, utilization.gpu [%]",
                        "2024/01/01 00:00:01.000, 2 %", "timestamp, power.draw [W]", "2024/01/01 00:00:02.000, 50 W"});
  ASSERT_EQ(p.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(*p.samples[2].values.get(Signal::Power), 50);
  EXPECT_TRUE(p.diags.empty());
}

TEST(NvidiaSmiCsv, QuotedFieldsMayHoldCommas) {
  std::vector<std::string_view> f;
  split_csv(R"(a, "b, c" , d)", f);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[1], "b, c");
  EXPECT_EQ(f[2], "d");
}

TEST(NvidiaSmiCsv, KilobytesPerSecondAreScaled) {
  const auto p = parse({"timestamp, pcie.tx [MB/s]", "2024/01/01 00:00:00.000, 2500 KB/s"});
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.samples[0].values.get(Signal::PcieTx), 2.5);
}

}  // namespace wt
