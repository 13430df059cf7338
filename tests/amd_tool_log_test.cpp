// rocm-smi and amd-smi output replayed through ReplaySource (src/source/replay/amd_tool_log.cpp),
// on fixtures written in the tools' own layouts (sources in docs/amd.md).
#include "source/replay/amd_tool_log.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "replay_test_util.hpp"

namespace {

using wt::Signal;
using wt::TraceFormat;
using wt::test::input_error;
using wt::test::with_interval;

TEST(AmdToolLog, DetectsEachLayoutAndNothingElse) {
  EXPECT_EQ(wt::detect_amd_tool_layout("\nWARNING: something\ndevice,GPU use (%)\ncard0,5\n"),
            wt::AmdToolLayout::RocmSmiCsv);
  EXPECT_EQ(wt::detect_amd_tool_layout("{\"card0\": {\"GPU use (%)\": \"5\"}}\n"), wt::AmdToolLayout::RocmSmiJson);
  EXPECT_EQ(wt::detect_amd_tool_layout("timestamp,gpu,gfx_activity\n1,0,5\n"), wt::AmdToolLayout::AmdSmiCsv);
  EXPECT_FALSE(wt::detect_amd_tool_layout("timestamp, index, utilization.gpu [%]\n"));
  EXPECT_FALSE(wt::detect_amd_tool_layout("{\"format\":\"workloadtruth-trace\",\"version\":1}\n"));
  EXPECT_FALSE(wt::detect_amd_tool_layout("gpu,name\n0,x\n"));  // no column we read
  EXPECT_EQ(wt::detect_amd_tool_layout("[\n    {\n        \"timestamp\": 1,\n        \"gpu\": 0,\n"),
            wt::AmdToolLayout::AmdSmiJson);
  EXPECT_EQ(wt::detect_amd_tool_layout("[{\"gpu\": 0, \"usage\": {}}]\n"), wt::AmdToolLayout::AmdSmiJson);
  EXPECT_EQ(wt::detect_amd_tool_layout("{\n    \"cpu_data\": [],\n    \"gpu_data\": [\n"),
            wt::AmdToolLayout::AmdSmiJson);
  EXPECT_FALSE(wt::detect_amd_tool_layout("[1, 2, 3]\n"));
  // rocm-smi text: under its banner, after a system line; or its GPU lines alone.
  EXPECT_EQ(wt::detect_amd_tool_layout("\n\n=== ROCm System Management Interface ===\nDriver version: 6.8\n"
                                       "=== Power ===\nGPU[0]\t\t: Average Graphics Package Power (W): 35.0\n"),
            wt::AmdToolLayout::RocmSmiText);
  EXPECT_EQ(wt::detect_amd_tool_layout("GPU[12]\t\t: GPU use (%): 5\n"), wt::AmdToolLayout::RocmSmiText);
  EXPECT_FALSE(wt::detect_amd_tool_layout("GPU[x]\t\t: GPU use (%): 5\n"));
}

TEST(AmdToolLog, RocmSmiCsvSnapshotsAreSpacedByTheInterval) {
  wt::ReplaySource source(wt::test::fixture("amd/rocm_smi_loop.csv"), with_interval(2));
  EXPECT_EQ(source.format(), TraceFormat::RocmSmi);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(samples[5].time_s, 4);
  EXPECT_EQ(samples[0].time_s, 0);
  EXPECT_EQ(samples[1].time_s, 0);
  EXPECT_EQ(samples[2].time_s, 2);
  EXPECT_EQ(samples[3].time_s, 2);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(samples[0].gpu->index, 0);
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(v.get(Signal::GpuUtil), 98);
  EXPECT_EQ(v.get(Signal::MemUtil), 40);      // "GPU memory use (%)": memory busy, not VRAM allocated
  EXPECT_EQ(v.get(Signal::MemTotal), 65520);  // bytes -> MiB
  EXPECT_EQ(v.get(Signal::MemUsed), 32768);
  EXPECT_EQ(v.get(Signal::Power), 480);
  EXPECT_EQ(v.get(Signal::Temperature), 45);  // edge, though junction is there too
  EXPECT_EQ(v.get(Signal::SmClock), 1700);    // "(1700Mhz)"
  EXPECT_EQ(v.get(Signal::MemClock), 1600);
  EXPECT_FALSE(samples[1].values.has(Signal::Power));  // "N/A (Secondary die)": missing, not 0
  EXPECT_EQ(samples[1].values.get(Signal::GpuUtil), 97);
  EXPECT_EQ(samples[2].values.get(Signal::Power), 490);
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdToolLog, RocmSmiWithoutAnIntervalIsRefused) {
  const std::string csv = input_error(wt::test::fixture("amd/rocm_smi_loop.csv"), with_interval(std::nullopt));
  EXPECT_NE(csv.find("rocm_smi_loop.csv: rocm-smi output carries no timestamps; give --interval"), std::string::npos)
      << csv;
  EXPECT_NE(input_error(wt::test::fixture("amd/rocm_smi_loop.json"), with_interval(std::nullopt)).find("--interval"),
            std::string::npos);
}

TEST(AmdToolLog, RocmSmiJsonGivesEveryCardOfALineWithItsIdentity) {
  wt::ReplaySource source(wt::test::fixture("amd/rocm_smi_loop.json"), with_interval(1));
  EXPECT_EQ(source.format(), TraceFormat::RocmSmi);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 4U);
  const wt::GpuIdentity& gpu0 = *samples[0].gpu;
  EXPECT_EQ(gpu0.name, "AMD Instinct MI300X");
  EXPECT_EQ(gpu0.uuid, "0x719d230578348e8c");
  EXPECT_EQ(gpu0.pci_bus_id, "0000:0C:00.0");
  EXPECT_EQ(samples[1].gpu->index, 1);
  EXPECT_EQ(samples[2].time_s, 1);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::Power), 612);  // "Current Socket Graphics Package Power (W)"
  EXPECT_EQ(v.get(Signal::PowerLimit), 750);
  EXPECT_EQ(v.get(Signal::Temperature), 55);  // edge is N/A: junction
  EXPECT_EQ(v.get(Signal::MemUtil), 61);
  EXPECT_EQ(v.get(Signal::MemTotal), 196592);
  EXPECT_EQ(v.get(Signal::SmClock), 2100);
  EXPECT_EQ(samples[1].values.get(Signal::GpuUtil), 0);
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdToolLog, RocmSmiTextGivesWhatItsCsvGives) {
  // The loop of rocm_smi_loop.csv printed as text (`rocm-smi --showproductname --showtemp
  // --showclocks --showpower --showuse --showmemuse --showmeminfo vram`, laid out as rocm_smi.py
  // prints it, 90 columns as in ROCm 6): the same samples, one run a snapshot.
  wt::ReplaySource text(wt::test::fixture("amd/rocm_smi_loop.txt"), with_interval(2));
  EXPECT_EQ(text.format(), TraceFormat::RocmSmi);
  wt::ReplaySource csv(wt::test::fixture("amd/rocm_smi_loop.csv"), with_interval(2));
  const auto from_text = wt::test::drain(text);
  const auto from_csv = wt::test::drain(csv);
  ASSERT_EQ(from_text.size(), 6U);
  ASSERT_EQ(from_text.size(), from_csv.size());
  for (std::size_t i = 0; i < from_text.size(); ++i) {
    EXPECT_EQ(from_text[i].time_s, from_csv[i].time_s) << i;
    EXPECT_EQ(from_text[i].gpu->index, from_csv[i].gpu->index) << i;
    EXPECT_TRUE(from_text[i].values == from_csv[i].values) << i;  // fclk's line before mclk's is not read
  }
  EXPECT_EQ(from_text[0].gpu->name, "AMD Instinct MI250X");  // "Card Series: \t\tAMD ..."
  EXPECT_TRUE(text.diagnostics().empty());
  EXPECT_NE(input_error(wt::test::fixture("amd/rocm_smi_loop.txt"), with_interval(std::nullopt)).find("--interval"),
            std::string::npos);
}

TEST(AmdToolLog, RocmSmiTextWithoutBannersAndOlderLines) {
  // ROCm 2's "GPU[1] \t\t: " and "-g"'s "sclk clock level: 8 (1700Mhz)"; runs logged without their
  // banners (grep GPU), told apart by a GPU naming a field again; the last run ends with the file.
  const std::string path = wt::test::write_temp("rocm_smi_grep.txt",
                                                "GPU[0] \t\t: GPU use (%): 90\n"
                                                "GPU[0] \t\t: sclk clock level: 8 (1700Mhz)\n"
                                                "ERROR: GPU[0]\t: Unable to get Power\n"
                                                "GPU[0] \t\t: GPU use Unsupported\n"
                                                "GPU[0] \t\t: GPU use (%): 91\n"
                                                "GPU[0] \t\t: Average Graphics Package Power (W): 9e9\n"
                                                "GPU[0] \t\t: GPU memory use (%): 1.2.3\n");
  wt::ReplaySource source(path, with_interval(1));
  EXPECT_EQ(source.format(), TraceFormat::RocmSmi);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  EXPECT_EQ(samples[0].values.get(Signal::GpuUtil), 90);
  EXPECT_EQ(samples[0].values.get(Signal::SmClock), 1700);
  EXPECT_EQ(samples[1].time_s, 1);
  EXPECT_EQ(samples[1].values.get(Signal::GpuUtil), 91);
  EXPECT_FALSE(samples[1].values.has(Signal::Power));
  // Each bad value is named by its own line.
  const wt::Diagnostics d = source.diagnostics();
  ASSERT_EQ(d.size(), 2U);
  EXPECT_NE(d[0].text().find("rocm_smi_grep.txt:6: Average Graphics Package Power (W): 9e9 is outside"),
            std::string::npos)
      << d[0].text();
  EXPECT_NE(d[1].text().find("rocm_smi_grep.txt:7: GPU memory use (%): '1.2.3' is not a number"), std::string::npos)
      << d[1].text();
}

TEST(AmdToolLog, RocmSmiTextOfTooManyGpusIsCutShort) {
  std::string text;
  for (int i = 0; i <= 4096; ++i) text += "GPU[" + std::to_string(i) + "]\t\t: GPU use (%): 1\n";
  wt::ReplaySource source(wt::test::write_temp("rocm_smi_many.txt", text), with_interval(1));
  EXPECT_EQ(wt::test::drain(source).size(), 4096U);
  ASSERT_EQ(source.diagnostics().size(), 1U);
  EXPECT_NE(source.diagnostics()[0].text().find("rocm_smi_many.txt:4097: more than 4096 GPUs in one run"),
            std::string::npos)
      << source.diagnostics()[0].text();
}

TEST(AmdToolLog, RocmSmiSummaryTableIsRefusedSayingWhatToLog) {
  const std::string table =
      "\n\n========================================= ROCm System Management Interface "
      "=========================================\n"
      "=================================================== Concise Info "
      "===================================================\n"
      "Device  [Model : Revision]    Temp    Power  Partitions      SCLK    MCLK    Fan  Perf  PwrCap  VRAM%  GPU%\n"
      "0       [0x74a1 : 0x00]       35.0C   140.0W  NPS1, SPX       132Mhz  900Mhz  0%   auto  750.0W    0%   0%\n";
  EXPECT_FALSE(wt::detect_amd_tool_layout(table));
  EXPECT_TRUE(wt::is_rocm_smi_summary_table(table));
  const std::string msg = input_error(wt::test::write_temp("rocm_smi_table.txt", table), with_interval(1));
  EXPECT_NE(msg.find("rocm-smi's summary table (rocm-smi run without options) is not read"), std::string::npos)
      << msg;
  EXPECT_FALSE(wt::is_rocm_smi_summary_table(table + "GPU[0]\t\t: GPU use (%): 5\n"));
}

TEST(AmdToolLog, AmdSmiWatchModeCarriesItsOwnTime) {
  wt::ReplaySource source(wt::test::fixture("amd/amd_smi_watch.csv"), with_interval(std::nullopt));
  EXPECT_EQ(source.format(), TraceFormat::AmdSmi);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 4U);
  EXPECT_EQ(samples[0].time_s, 1789515524);
  EXPECT_EQ(samples[3].time_s, 1789515525);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 95);
  EXPECT_EQ(v.get(Signal::MemUtil), 60);
  EXPECT_EQ(v.get(Signal::Power), 1180);
  EXPECT_EQ(v.get(Signal::SmClock), 2100);
  EXPECT_EQ(v.get(Signal::MemClock), 1900);
  EXPECT_EQ(v.get(Signal::Temperature), 78);  // no edge sensor: hotspot
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdToolLog, AmdSmiWithoutTimestampsNeedsTheInterval) {
  const std::string msg = input_error(wt::test::fixture("amd/amd_smi_no_timestamp.csv"), with_interval(std::nullopt));
  EXPECT_NE(msg.find("amd_smi_no_timestamp.csv:2: amd-smi output without timestamps"), std::string::npos) << msg;
  wt::ReplaySource source(wt::test::fixture("amd/amd_smi_no_timestamp.csv"), with_interval(0.5));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  EXPECT_EQ(samples[1].time_s, 0.5);
  EXPECT_EQ(samples[1].values.get(Signal::Temperature), 42);
}

TEST(AmdToolLog, BadLinesAreNamedAndTheRestIsRead) {
  wt::ReplaySource source(wt::test::fixture("amd/rocm_smi_bad.csv"), with_interval(1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);
  EXPECT_FALSE(samples[1].values.has(Signal::GpuUtil));  // "9x8"
  EXPECT_EQ(samples[1].values.get(Signal::Power), 480);
  EXPECT_FALSE(samples[2].values.has(Signal::Power));  // 9 MW: implausible
  std::vector<std::string> where;
  for (const wt::Diagnostic& d : source.diagnostics()) where.push_back(d.where.substr(d.where.rfind('/') + 1));
  EXPECT_EQ(where, (std::vector<std::string>{"rocm_smi_bad.csv:3", "rocm_smi_bad.csv:5", "rocm_smi_bad.csv:6",
                                             "rocm_smi_bad.csv:7", "rocm_smi_bad.csv:9"}));
}

TEST(AmdToolLog, AmdSmiJsonSnapshotsWithUnitBearingValues) {
  wt::ReplaySource source(wt::test::fixture("amd/amd_smi_watch.json"), with_interval(std::nullopt));
  EXPECT_EQ(source.format(), TraceFormat::AmdSmi);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);  // three indented arrays of two GPUs
  EXPECT_EQ(samples[0].time_s, 1717000000);
  EXPECT_EQ(samples[5].time_s, 1717000002);
  EXPECT_EQ(samples[5].gpu->index, 1);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 98);       // usage.gfx_activity {"value": 98, "unit": "%"}
  EXPECT_EQ(v.get(Signal::MemUtil), 40);       // usage.umc_activity
  EXPECT_EQ(v.get(Signal::Power), 750);        // power.socket_power, W
  EXPECT_EQ(v.get(Signal::SmClock), 2100);     // clock.gfx_0.clk
  EXPECT_EQ(v.get(Signal::MemClock), 1300);    // clock.mem_0.clk
  EXPECT_EQ(v.get(Signal::Temperature), 71);   // edge is "N/A": hotspot, in °C
  EXPECT_EQ(v.get(Signal::MemTotal), 196592);  // mem_usage.total_vram, MB
  EXPECT_EQ(v.get(Signal::MemUsed), 147456);
  EXPECT_EQ(samples[4].values.get(Signal::Power), 740);
  EXPECT_EQ(samples[1].values.get(Signal::GpuUtil), 0);
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdToolLog, AmdSmiJsonFileOfEverySnapshotAndTheGpuDataWrapper) {
  wt::ReplaySource file(wt::test::fixture("amd/amd_smi_watch_file.json"), with_interval(std::nullopt));
  const auto samples = wt::test::drain(file);
  ASSERT_EQ(samples.size(), 3U);  // one array holding the three snapshots of one GPU
  EXPECT_EQ(samples[2].time_s - samples[0].time_s, 4);
  EXPECT_EQ(samples[1].values.get(Signal::Temperature), 53);  // the edge sensor, when there is one
  EXPECT_EQ(samples[1].values.get(Signal::Power), 481);
  EXPECT_TRUE(file.diagnostics().empty());

  const std::string loop = wt::test::fixture("amd/amd_smi_loop_no_timestamp.json");
  EXPECT_NE(input_error(loop, with_interval(std::nullopt))
                .find("amd_smi_loop_no_timestamp.json:1: amd-smi output "
                      "without timestamps"),
            std::string::npos);
  wt::ReplaySource wrapped(loop, with_interval(2, TraceFormat::AmdSmi));
  const auto two = wt::test::drain(wrapped);
  ASSERT_EQ(two.size(), 2U);  // the CPU entries are not GPUs
  EXPECT_EQ(two[0].time_s, 0);
  EXPECT_EQ(two[1].time_s, 2);
  EXPECT_EQ(two[1].values.get(Signal::GpuUtil), 51);
  EXPECT_TRUE(wrapped.diagnostics().empty());
}

TEST(AmdToolLog, AmdSmiJsonBadInputIsNamedByFileAndLine) {
  wt::ReplaySource source(wt::test::fixture("amd/amd_smi_bad.json"), with_interval(std::nullopt));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  EXPECT_EQ(samples[0].values.get(Signal::GpuUtil), 98);
  EXPECT_FALSE(samples[0].values.has(Signal::Power));        // "mW": not taken for W
  EXPECT_FALSE(samples[1].values.has(Signal::GpuUtil));      // "N/A": missing, no error
  EXPECT_FALSE(samples[1].values.has(Signal::Temperature));  // 400 °C: implausible
  std::vector<std::string> texts;
  for (const wt::Diagnostic& d : source.diagnostics()) texts.push_back(d.text().substr(d.text().rfind('/') + 1));
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "amd_smi_bad.json:2: socket_power: unit 'mW' where 'W' was expected; left missing",
                       "amd_smi_bad.json:3: not a GPU of amd-smi --json (no \"gpu\" index); skipped",
                       "amd_smi_bad.json:4: umc_activity: [1] is not a number; left missing",
                       "amd_smi_bad.json:4: hotspot: 400 is outside the plausible range; left missing",
                       "amd_smi_bad.json:6: amd-smi JSON document that is not valid JSON; skipped",
                       "amd_smi_bad.json:9: not part of an amd-smi --json document; rest of the line skipped",
                       "amd_smi_bad.json:10: amd-smi JSON document not finished at the end of the file; skipped"}));
}

TEST(AmdToolLog, AmdSmiJsonNestedTooDeepIsSkippedAndReadingGoesOn) {
  const std::string path = wt::test::write_temp(
      "deep.json",
      "[{\"gpu\": 0, \"x\": " + std::string(100, '[') + "\n" +
          "[{\"timestamp\": 5, \"gpu\": 0, \"usage\": {\"gfx_activity\": {\"value\": 7, \"unit\": \"%\"}}}]\n");
  wt::ReplaySource source(path, with_interval(std::nullopt));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 1U);
  EXPECT_EQ(samples[0].values.get(Signal::GpuUtil), 7);
  ASSERT_EQ(source.diagnostics().size(), 1U);
  EXPECT_NE(source.diagnostics()[0].text().find("deep.json:1: amd-smi JSON document nested deeper than 64; skipped"),
            std::string::npos)
      << source.diagnostics()[0].text();
}

TEST(AmdToolLog, ExplicitFormatMustMatchTheFile) {
  const std::string msg = input_error(wt::test::fixture("csv/two_gpus.csv"), with_interval(1, TraceFormat::RocmSmi));
  EXPECT_NE(msg.find("not rocm-smi --csv, --json or text output"), std::string::npos) << msg;
  EXPECT_NE(input_error(wt::test::fixture("amd/rocm_smi_loop.csv"), with_interval(1, TraceFormat::AmdSmi))
                .find("not amd-smi metric --csv or --json output"),
            std::string::npos);
  EXPECT_EQ(wt::parse_trace_format("rocm-smi"), TraceFormat::RocmSmi);
  EXPECT_EQ(wt::parse_trace_format("amd-smi"), TraceFormat::AmdSmi);
}

}  // namespace
