#include "source/replay/replay_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "pipeline/open_source.hpp"
#include "test_util.hpp"

namespace wt {

TEST(ReplaySource, ReadsInterleavedGpus) {
  ReplaySource src(test::fixture("csv/two_gpus.csv"));
  const auto samples = test::drain(src);
  ASSERT_EQ(samples.size(), 180u);
  EXPECT_EQ(src.format(), TraceFormat::Csv);
  EXPECT_EQ(samples[1].gpu->uuid, "GPU-bbbb-1111");
  ASSERT_EQ(src.diagnostics().size(), 1u);  // the fan.speed column is ignored, with a note
  EXPECT_FALSE(src.diagnostics()[0].is_error);
}

TEST(ReplaySource, SeveralFilesAreOneFleetWithEachFilesGpusNamedAfterIt) {
  SourceSpec spec;
  spec.replay_files = {test::fixture("csv/two_gpus.csv"), test::fixture("csv/bad_lines.csv")};
  const auto src = open_source(spec);
  std::map<std::string, std::size_t> by_label;
  for (const Sample& s : test::drain(*src)) ++by_label[s.gpu->label()];
  std::vector<std::string> labels;
  for (const auto& [label, n] : by_label) labels.push_back(label);
  EXPECT_EQ(labels, (std::vector<std::string>{"bad_lines/0", "bad_lines/1", "two_gpus/0", "two_gpus/1"}));
  EXPECT_EQ(by_label["two_gpus/0"], 90u);  // as when read alone
  // Each file's bad lines are still named by file and line.
  const Diagnostics d = src->diagnostics();
  EXPECT_TRUE(std::any_of(d.begin(), d.end(),
                          [](const Diagnostic& x) { return x.text().find("bad_lines.csv:") != std::string::npos; }));
  // Two files of one name would give their GPUs one name.
  spec.replay_files = {test::fixture("csv/two_gpus.csv"), test::fixture("csv/../csv/two_gpus.csv")};
  EXPECT_THROW(open_source(spec), std::invalid_argument);
}

TEST(ReplaySource, AFileMayNameItsNode) {
  EXPECT_EQ(parse_replay_file("node7=/dev/fd/63").host, "node7");
  EXPECT_EQ(parse_replay_file("node7=/dev/fd/63").path, "/dev/fd/63");
  EXPECT_EQ(parse_replay_file("logs/a=b.csv").host, "");  // '=' after a directory: a path
  EXPECT_EQ(parse_replay_file("=x.csv").path, "=x.csv");
  // A file of that whole name, here, is read as a path.
  EXPECT_EQ(parse_replay_file("n=1.csv").host, "n");
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::path(test::write_temp("n=1.csv", "x")).parent_path());
  EXPECT_EQ(parse_replay_file("n=1.csv").host, "");
  std::filesystem::current_path(was);
  SourceSpec spec;
  spec.replay_files = {"gpu-node-3=" + test::fixture("csv/two_gpus.csv")};
  const auto samples = test::drain(*open_source(spec));
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples[0].gpu->label(), "gpu-node-3/0");
}

TEST(ReplaySource, NoHeaderWithColumns) {
  ReplaySource src(test::fixture("csv/noheader_nounits.csv"),
                   {TraceFormat::Csv, {"timestamp", "index", "utilization.gpu", "power.draw"}});
  EXPECT_EQ(test::drain(src).size(), 40u);
}

TEST(ReplaySource, BadLinesAreSkippedAndNamed) {
  ReplaySource src(test::fixture("csv/bad_lines.csv"));
  const auto samples = test::drain(src);
  const auto diags = src.diagnostics();
  std::vector<std::string> where;
  for (const auto& d : diags) where.push_back(d.where);
  const std::string path = test::fixture("csv/bad_lines.csv");
  for (int line : {6, 9, 11, 13, 15, 17, 19, 43, 44})
    EXPECT_NE(std::find(where.begin(), where.end(), path + ":" + std::to_string(line)), where.end()) << line;
  EXPECT_EQ(samples.size(), 40u - 7 + 1);  // 40 lines of GPU 0, 7 bad, plus GPU 1's one sample
}

TEST(ReplaySource, MissingEmptyBinaryAndDirectoryAreInputErrors) {
  EXPECT_THROW(ReplaySource("/nonexistent/trace.csv"), InputError);
  EXPECT_THROW(ReplaySource(std::filesystem::temp_directory_path().string()), InputError);
  EXPECT_THROW(ReplaySource(test::write_temp("bin.csv", std::string("\x7f" "ELF\0\0\0", 7))), InputError);
  ReplaySource empty(test::write_temp("empty.csv", ""));
  Sample s;
  EXPECT_THROW(empty.next(s), InputError);
}

TEST(ReplaySource, EndlessLineIsSkipped) {
  std::string content = "timestamp, utilization.gpu [%]\n" + std::string(200'000, 'x') + "\n";
  for (int i = 0; i < 5; ++i) content += "2024/01/01 00:00:0" + std::to_string(i) + ".000, 5 %\n";
  ReplaySource src(test::write_temp("long.csv", content));
  EXPECT_EQ(test::drain(src).size(), 5u);
  ASSERT_FALSE(src.diagnostics().empty());
  EXPECT_NE(src.diagnostics()[0].message.find("longer than"), std::string::npos);
}

TEST(ReplaySource, DiagnosticsAreCapped) {
  std::string content = "timestamp, utilization.gpu [%]\n";
  for (int i = 0; i < 1000; ++i) content += "garbage line\n";
  content += "2024/01/01 00:00:00.000, 5 %\n";
  ReplaySource src(test::write_temp("garbage.csv", content));
  EXPECT_EQ(test::drain(src).size(), 1u);
  EXPECT_EQ(src.diagnostics().size(), TelemetrySource::kMaxKept + 1);
}

// When no line can be read, the run stops on "no samples": the reason the lines were skipped is
// in that message, or it would be lost with the run.
TEST(ReplaySource, NoSamplesSaysWhyTheLinesWereSkipped) {
  std::string content = "timestamp, utilization.gpu [%], power.draw [W]\n";
  content += "2024/01/01 00:00:00.000, 5 %, 1e15 W\n";
  for (int i = 0; i < 200; ++i) content += "garbage line\n";
  const std::string path = test::write_temp("all_bad.csv", content);
  ReplaySource src(path);
  Sample s;
  try {
    src.next(s);
    ADD_FAILURE() << "a file of bad lines gave a sample";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": no samples in 202 lines: every data line was skipped; the first, " + path +
                                         ":2: power.draw [W]: 1e+15 is outside the plausible range 0..5000; line "
                                         "skipped (and 200 more)");
  }
  ReplaySource header_only(test::write_temp("header_only.csv", "timestamp, utilization.gpu [%]\n"));
  try {
    header_only.next(s);
    ADD_FAILURE() << "a header alone gave a sample";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("header_only.csv: no samples in 1 line"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("skipped"), std::string::npos) << e.what();
  }
}

TEST(ReplaySource, CrlfLineEndings) {
  ReplaySource src(test::write_temp("crlf.csv", "timestamp, utilization.gpu [%]\r\n2024/01/01 00:00:00.000, 5 %\r\n"));
  const auto s = test::drain(src);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(*s[0].values.get(Signal::GpuUtil), 5);
}

// --interval places rows in time only for logs that do not stamp them: refused where no row of the
// format can lack a time (CSV, JSONL), noted where this file's rows all carried one.
TEST(ReplaySource, AnIntervalTheRowsDoNotNeedIsRefusedOrNoted) {
  ReplayOptions o;
  o.interval_s = 1;
  try {
    ReplaySource csv(test::fixture("csv/two_gpus.csv"), o);
    ADD_FAILURE() << "an interval for a CSV log was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--interval has no effect on an nvidia-smi CSV log"), std::string::npos)
        << e.what();
  }
  const std::string jsonl = test::write_temp("interval.jsonl", R"({"time_s": 1, "gpu": {"index": 0}, "gpu_util_pct": 50})" "\n");
  EXPECT_THROW(ReplaySource(jsonl, o), std::invalid_argument);
  const auto noted = [&](const std::string& fixture) {
    ReplaySource src(test::fixture(fixture), o);
    test::drain(src);
    const auto& d = src.diagnostics();
    return std::any_of(d.begin(), d.end(), [](const Diagnostic& x) {
      return !x.is_error && x.message == "--interval was not used: every row of the file carries its own time";
    });
  };
  EXPECT_TRUE(noted("dmon/dt_two_gpus.log"));
  EXPECT_TRUE(noted("amd/amd_smi_watch.csv"));
  EXPECT_FALSE(noted("dmon/no_time.log"));        // the interval placed its rows
  EXPECT_FALSE(noted("amd/rocm_smi_loop.csv"));   // rocm-smi stamps nothing
  EXPECT_FALSE(noted("amd/amd_smi_no_timestamp.csv"));
}

}  // namespace wt
