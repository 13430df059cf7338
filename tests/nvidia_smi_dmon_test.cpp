// nvidia-smi dmon output replayed through ReplaySource (src/source/replay/nvidia_smi_dmon.cpp), on
// fixtures in dmon's layouts: -o DT, -o T across midnight, no time (--interval), --format csv.
#include "source/replay/nvidia_smi_dmon.hpp"

#include <gtest/gtest.h>

#include "core/time_format.hpp"
#include "replay_test_util.hpp"

namespace {

using wt::Signal;
using wt::TraceFormat;
using wt::test::input_error;
using wt::test::with_interval;

// The errors reported (notes left out), each as "FILE:LINE: message".
std::vector<std::string> errors(const wt::ReplaySource& source) {
  std::vector<std::string> out;
  for (const wt::Diagnostic& d : source.diagnostics())
    if (d.is_error) out.push_back(d.where.substr(d.where.rfind('/') + 1) + ": " + d.message);
  return out;
}

TEST(NvidiaSmiDmon, DetectsDmonHeadersOnly) {
  EXPECT_TRUE(wt::looks_like_dmon("# gpu   pwr gtemp\n# Idx     W     C\n    0    62    36\n"));
  EXPECT_TRUE(wt::looks_like_dmon("\n#Date       Time        gpu   pwr\n"));
  EXPECT_TRUE(wt::looks_like_dmon("#Date, Time, gpu, pwr\n"));
  EXPECT_FALSE(wt::looks_like_dmon("timestamp, index, utilization.gpu [%]\n"));
  EXPECT_FALSE(wt::looks_like_dmon("# a comment\n# gpu pwr\n"));  // the first comment must be the header
  EXPECT_FALSE(wt::looks_like_dmon("# pid  type  sm\n"));        // pmon, not dmon
  EXPECT_FALSE(wt::looks_like_dmon(""));
}

TEST(NvidiaSmiDmon, DateAndTimeColumnsTwoGpusRepeatedHeader) {
  wt::ReplaySource source(wt::test::fixture("dmon/dt_two_gpus.log"));
  EXPECT_EQ(source.format(), TraceFormat::Dmon);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(wt::format_nvidia_smi_time(samples[0].time_s), "2026/11/30 23:59:58.000");
  EXPECT_EQ(wt::format_nvidia_smi_time(samples[4].time_s), "2026/12/01 00:00:00.000");
  EXPECT_EQ(samples[0].gpu->index, 0);
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(samples[0].gpu, samples[4].gpu);  // one identity per GPU
  EXPECT_TRUE(samples[0].gpu->name.empty());  // dmon does not name the model
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::Power), 312);
  EXPECT_EQ(v.get(Signal::Temperature), 61);
  EXPECT_EQ(v.get(Signal::GpuUtil), 98);
  EXPECT_EQ(v.get(Signal::MemUtil), 41);
  EXPECT_EQ(v.get(Signal::MemClock), 1593);
  EXPECT_EQ(v.get(Signal::SmClock), 1410);
  EXPECT_EQ(v.get(Signal::MemUsed), 38211);
  EXPECT_FALSE(v.has(Signal::MemTotal));
  EXPECT_FALSE(samples[5].values.has(Signal::Power));  // "-": missing, not zero
  EXPECT_TRUE(errors(source).empty());
  ASSERT_EQ(source.diagnostics().size(), 1U);  // the note on unused columns, once for the repeated header
  EXPECT_EQ(source.diagnostics()[0].message, "ignoring columns the classifier does not use: mtemp, enc, dec, bar1");
}

TEST(NvidiaSmiDmon, TheGpuModelGivenNamesTheUnnamedGpus) {
  wt::ReplayOptions o;
  o.gpu_name = "NVIDIA A100-SXM4-80GB";
  wt::ReplaySource source(wt::test::fixture("dmon/dt_two_gpus.log"), o);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(samples[0].gpu->name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(samples[0].gpu, samples[2].gpu);  // still one identity per GPU
  EXPECT_NE(samples[0].gpu, samples[1].gpu);
  // A file that names its GPUs keeps its names, and a note says the flag named none.
  wt::ReplaySource named(wt::test::fixture("csv/two_gpus.csv"), o);
  EXPECT_NE(wt::test::drain(named).front().gpu->name, "NVIDIA A100-SXM4-80GB");
  const auto notes = named.diagnostics();
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const wt::Diagnostic& d) {
    return !d.is_error && d.message == "--gpu-model named no GPU: the file names the model of every GPU in it";
  }));
}

TEST(NvidiaSmiDmon, TimeOfDayOnlyCrossesMidnight) {
  wt::ReplaySource source(wt::test::fixture("dmon/time_only.log"));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 4U);
  EXPECT_EQ(samples[0].time_s, 86400 - 2);
  EXPECT_EQ(samples[2].time_s, 86400);  // 00:00:00 the next day, not a step back
  EXPECT_EQ(samples[3].time_s, 86401);
  EXPECT_TRUE(errors(source).empty());
}

TEST(NvidiaSmiDmon, NoTimeColumnNeedsTheInterval) {
  EXPECT_EQ(input_error(wt::test::fixture("dmon/no_time.log"), with_interval(std::nullopt)),
            "no_time.log:3: nvidia-smi dmon output without a time column (record it with -o DT, or give --interval "
            "SECONDS, the -d it was run with)");
  EXPECT_EQ(input_error(wt::test::fixture("dmon/no_time.log"), with_interval(0)),
            "no_time.log: --interval must be positive");
  wt::ReplaySource source(wt::test::fixture("dmon/no_time.log"), with_interval(5));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(samples[0].time_s, 0);
  EXPECT_EQ(samples[1].time_s, 0);
  EXPECT_EQ(samples[4].time_s, 10);  // GPU 0's third row
  EXPECT_EQ(samples[5].gpu->index, 1);
  EXPECT_EQ(samples[4].values.get(Signal::GpuUtil), 99);
}

TEST(NvidiaSmiDmon, ARunAppendedWithoutTimeKeepsWhatWasRead) {
  const std::string path = wt::test::write_temp("appended.log",
                                                "#Time gpu pwr sm\n#HH:MM:SS Idx W %\n 10:00:00 0 300 97\n"
                                                " 10:00:01 0 301 98\n# gpu pwr sm\n# Idx W %\n 0 302 99\n");
  wt::ReplaySource source(path);
  EXPECT_EQ(wt::test::drain(source).size(), 2U);
  EXPECT_EQ(errors(source), (std::vector<std::string>{
                                "appended.log:7: nvidia-smi dmon output without a time column (record it with -o DT, "
                                "or give --interval SECONDS, the -d it was run with)"}));
}

TEST(NvidiaSmiDmon, RowsPastTheYear9999AreRefused) {
  const std::string path = wt::test::write_temp("far.log", "# gpu pwr\n# Idx W\n 0 300\n 0 301\n");
  wt::ReplaySource source(path, with_interval(3600));
  wt::test::drain(source);  // rows 0 and 3600 s: fine
  EXPECT_TRUE(errors(source).empty());
  wt::ReplaySource far(path, with_interval(3e11));
  EXPECT_EQ(wt::test::drain(far).size(), 1U);
  EXPECT_EQ(errors(far), (std::vector<std::string>{"far.log:4: time runs past the year 9999"}));
}

TEST(NvidiaSmiDmon, CsvFormatWithUnits) {
  wt::ReplaySource source(wt::test::fixture("dmon/csv_units.log"));
  EXPECT_EQ(source.format(), TraceFormat::Dmon);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  EXPECT_EQ(samples[1].values.get(Signal::Power), 299);
  EXPECT_EQ(samples[1].values.get(Signal::MemUsed), 38211);
  EXPECT_EQ(samples[1].values.get(Signal::PcieRx), 11);
  EXPECT_EQ(samples[1].values.get(Signal::PcieTx), 8);
  EXPECT_EQ(samples[1].time_s - samples[0].time_s, 1);
  EXPECT_TRUE(source.diagnostics().empty());
}

// `nvidia-smi dmon -s pum -o DT --format csv,noheader,nounit`: no header, so its columns are given.
TEST(NvidiaSmiDmon, CsvWithoutHeaderTakesItsColumnsFromTheUser) {
  const std::vector<std::string> columns{"#Date", "Time", "gpu", "pwr", "gtemp", "sm", "mem", "fb"};
  EXPECT_TRUE(wt::names_dmon_columns(columns));
  EXPECT_FALSE(wt::names_dmon_columns({"timestamp", "index", "utilization.gpu"}));
  wt::ReplayOptions o;
  o.columns = columns;  // detected as dmon by its columns: no nvidia-smi field is called "gpu"
  wt::ReplaySource source(wt::test::fixture("dmon/csv_noheader.log"), o);
  EXPECT_EQ(source.format(), TraceFormat::Dmon);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 8U);
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(samples[2].values.get(Signal::Power), 299);
  EXPECT_EQ(samples[2].values.get(Signal::MemUsed), 38211);
  EXPECT_FALSE(samples[3].values.has(Signal::Power));
  EXPECT_EQ(samples[2].time_s - samples[0].time_s, 1);
  EXPECT_TRUE(source.diagnostics().empty());

  // Without them the first row stops the replay, saying what to give.
  EXPECT_NE(input_error(wt::test::fixture("dmon/csv_noheader.log"), with_interval(std::nullopt, TraceFormat::Dmon))
                .find("give its --columns"),
            std::string::npos);
  wt::ReplayOptions no_gpu;
  no_gpu.format = TraceFormat::Dmon;
  no_gpu.columns = {"Date", "Time", "pwr"};
  EXPECT_THROW(wt::ReplaySource(wt::test::fixture("dmon/csv_noheader.log"), no_gpu), std::invalid_argument);
}

TEST(NvidiaSmiDmon, ColumnsForAFormatThatNamesItsFieldsAreRefused) {
  wt::ReplayOptions o;
  o.columns = {"timestamp", "index"};
  o.format = TraceFormat::Jsonl;
  try {
    wt::ReplaySource source(wt::test::fixture("dmon/csv_noheader.log"), o);
    ADD_FAILURE() << "--columns taken for JSONL";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--columns is for nvidia-smi CSV or dmon output"), std::string::npos);
  }
}

TEST(NvidiaSmiDmon, BadRowsAreNamedAndSkipped) {
  wt::ReplaySource source(wt::test::fixture("dmon/bad.log"));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);  // 10:00:00, :05, :07
  EXPECT_EQ(samples[2].time_s - samples[0].time_s, 7);
  EXPECT_EQ(errors(source), (std::vector<std::string>{
                                "bad.log:4: expected 6 fields, found 5",
                                "bad.log:5: pwr: '3x0' is not a number of W",
                                "bad.log:6: pwr: 90000 is outside the plausible range 0..5000",
                                "bad.log:7: GPU index '-1' is not a small non-negative integer",
                                "bad.log:9: GPU 0 time goes back (2026/12/01 10:00:01.000 after 2026/12/01 "
                                "10:00:05.000)",
                                "bad.log:10: date '2026120' is not of the form YYYYMMDD",
                                "bad.log:11: time '10:0' is not of the form HH:MM:SS",
                            }));
}

TEST(NvidiaSmiDmon, RefusesWhatItCannotRead) {
  EXPECT_EQ(input_error(wt::test::write_temp("header-only.log", "# gpu pwr\n"), with_interval(1, TraceFormat::Dmon)),
            "header-only.log: no samples in 1 line");
  wt::NvidiaSmiDmonParser parser("direct.log", [](wt::Diagnostic) {}, 1.0);
  wt::Sample sample;
  try {
    parser.parse_line("    0     62", 1, sample);
    ADD_FAILURE() << "a row before any header was taken";
  } catch (const wt::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "direct.log:1: a row before dmon's header line (\"# gpu pwr ...\"); not nvidia-smi dmon output, or "
                 "its first lines are missing (for --format csv,noheader, give its --columns)");
  }
  const std::string no_header = wt::test::write_temp("no-header.log", "    0     62\n");
  EXPECT_EQ(input_error(no_header, with_interval(1, TraceFormat::Dmon)),
            "no-header.log: not nvidia-smi dmon output (no \"# gpu pwr ...\" header line at its start; for "
            "--format csv,noheader, give its --columns)");
  const std::string csv = wt::test::write_temp("smi.csv", "timestamp, index, power.draw [W]\n");
  EXPECT_EQ(input_error(csv, with_interval(1, TraceFormat::Dmon)),
            "smi.csv: not nvidia-smi dmon output (no \"# gpu pwr ...\" header line at its start; for --format "
            "csv,noheader, give its --columns)");
  EXPECT_EQ(wt::parse_trace_format("dmon"), TraceFormat::Dmon);
}

}  // namespace
