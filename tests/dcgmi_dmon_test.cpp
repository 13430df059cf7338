// dcgmi dmon output replayed through ReplaySource (src/source/replay/dcgmi_dmon.cpp), on files
// laid out as DCGM's DeviceMonitor.cpp prints them (docs/dcgm.md), values made up.
#include "source/replay/dcgmi_dmon.hpp"

#include <gtest/gtest.h>

#include "replay_test_util.hpp"

namespace {

using wt::Signal;
using wt::TraceFormat;
using wt::test::input_error;
using wt::test::with_interval;

TEST(DcgmiDmon, RowsArePlacedByTheIntervalAndReadUnderTheirNames) {
  wt::ReplaySource source(wt::test::fixture("dcgmi/dmon.txt"), with_interval(1));
  EXPECT_EQ(source.format(), TraceFormat::DcgmiDmon);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 32U);  // two GPUs, 16 samples; the GPU instance's row skipped
  EXPECT_EQ(samples[0].gpu->index, 0);
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(samples[0].gpu, samples[30].gpu);  // one identity per GPU
  EXPECT_EQ(samples[30].time_s, 15);           // the 16th sample, after the repeated header
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::Power), 380);
  EXPECT_EQ(v.get(Signal::Temperature), 63);
  EXPECT_EQ(v.get(Signal::GpuUtil), 97);  // GPUTL, though GRACT is there too
  EXPECT_EQ(v.get(Signal::MemUtil), 41);
  EXPECT_EQ(v.get(Signal::MemUsed), 30120);
  EXPECT_EQ(v.get(Signal::SmClock), 1980);
  EXPECT_EQ(v.get(Signal::MemClock), 2619);
  // GPU 1's 4th row has no GRACT at all (a blank cell): read by where the header puts each name.
  EXPECT_EQ(samples[7].gpu->index, 1);
  EXPECT_EQ(samples[7].values.get(Signal::MemClock), 2619);
  EXPECT_EQ(samples[7].values.get(Signal::Power), 71.25);
  const wt::Diagnostics d = source.diagnostics();
  ASSERT_EQ(d.size(), 2U);  // notes only
  EXPECT_FALSE(d[0].is_error || d[1].is_error);
  EXPECT_NE(d[0].text().find("dmon.txt:1: ignoring columns the classifier does not use: TENSO"), std::string::npos);
  EXPECT_NE(d[1].text().find("dmon.txt:5: rows of entities other than whole GPUs (GPU-I, ...) are skipped"),
            std::string::npos);
}

TEST(DcgmiDmon, WithoutAnIntervalIsRefused) {
  EXPECT_NE(input_error(wt::test::fixture("dcgmi/dmon.txt"), with_interval(std::nullopt))
                .find("dmon.txt: dcgmi dmon output carries no timestamps; give --interval"),
            std::string::npos);
}

TEST(DcgmiDmon, ProfilingRatiosOlderLayoutAndBadCells) {
  // DCGM 2's right-aligned header, profiling ratios only, N/W (DCGM 1.7) and a broken cell.
  const std::string path = wt::test::write_temp("dcgmi_old.txt",
                                                "# Entity  GRACT  DRAMA  PCITX\n"
                                                "      Id\n"
                                                "    GPU 0  0.912  0.405  864034668\n"
                                                "    GPU 0    N/W  0.4x5  1000000\n"
                                                "Error setting watches. Result: unrecoverable error\n"
                                                "    GPU 0  0.100  0.100  0\n");
  wt::ReplaySource source(path, with_interval(0.5));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);
  EXPECT_DOUBLE_EQ(*samples[0].values.get(Signal::GpuUtil), 91.2);  // a ratio, as a percentage
  EXPECT_DOUBLE_EQ(*samples[0].values.get(Signal::MemUtil), 40.5);
  EXPECT_DOUBLE_EQ(*samples[0].values.get(Signal::PcieTx), 864.034668);  // bytes/s -> MB/s
  EXPECT_FALSE(samples[1].values.has(Signal::GpuUtil));
  EXPECT_FALSE(samples[1].values.has(Signal::MemUtil));
  EXPECT_EQ(samples[2].time_s, 1);
  const wt::Diagnostics d = source.diagnostics();
  ASSERT_EQ(d.size(), 2U);
  EXPECT_NE(d[0].text().find("dcgmi_old.txt:4: DRAMA: '0.4x5' is not a number; left missing"), std::string::npos)
      << d[0].text();
  EXPECT_NE(d[1].text().find("dcgmi_old.txt:5: not a dcgmi dmon row"), std::string::npos) << d[1].text();
}

TEST(DcgmiDmon, IsDetectedAndAnExplicitFormatMustMatch) {
  EXPECT_TRUE(wt::looks_like_dcgmi_dmon("\n#Entity   POWER\nID        W\n"));
  EXPECT_TRUE(wt::looks_like_dcgmi_dmon("# Entity  TENSO\n      Id\n"));
  EXPECT_FALSE(wt::looks_like_dcgmi_dmon("# gpu   pwr gtemp\n# Idx     W     C\n"));  // nvidia-smi dmon
  EXPECT_EQ(wt::parse_trace_format("dcgmi-dmon"), TraceFormat::DcgmiDmon);
  EXPECT_NE(input_error(wt::test::fixture("csv/two_gpus.csv"), with_interval(1, TraceFormat::DcgmiDmon))
                .find("not dcgmi dmon output"),
            std::string::npos);
  std::string wide = "#Entity";
  for (int i = 0; i < 300; ++i) wide += " POWER";
  EXPECT_NE(input_error(wt::test::write_temp("dcgmi_wide.txt", wide + "\nGPU 0 1\n"), with_interval(1))
                .find("dcgmi_wide.txt:1: a header of more than 256 columns"),
            std::string::npos);
  wt::ReplayOptions with_columns = with_interval(1);
  with_columns.columns = {"POWER"};
  EXPECT_THROW(wt::ReplaySource(wt::test::fixture("dcgmi/dmon.txt"), with_columns), std::invalid_argument);
}

}  // namespace
