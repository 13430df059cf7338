// Runs the benchmarks, then prints the project's speed figures with their targets and the
// ratio to a baseline measured in the same run, and the peak memory of `classify --replay`
// on a generated 1 GB, 8-GPU nvidia-smi CSV (WT_BENCH_BIG_MB sets the size; 0 skips it).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "bench_data.hpp"

namespace {

// Keeps each benchmark's rates while printing the usual console table.
class Recorder : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> bytes_per_s, items_per_s;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      const std::string name = r.benchmark_name();
      if (auto it = r.counters.find("bytes_per_second"); it != r.counters.end()) bytes_per_s[name] = it->second;
      if (auto it = r.counters.find("items_per_second"); it != r.counters.end()) items_per_s[name] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

const char* met(bool ok) { return ok ? "met" : "NOT MET"; }

// Writes `mb` MiB of 8-GPU CSV, runs the CLI on it and returns a line with wall time and peak
// RSS. Run before the benchmarks: a forked child's peak RSS counts what the parent held.
std::string big_file_check(std::size_t mb) {
  const auto path = std::filesystem::temp_directory_path() / "wt_bench_1gb.csv";
  {
    std::ofstream out(path, std::ios::binary);
    std::size_t written = 0, poll = 0;
    bool header = true;
    while (written < mb << 20) {
      const std::string chunk = wt::bench::make_nvidia_smi_csv(16 << 20, 8, header, poll);
      header = false;
      poll += 1 + (16 << 20) / (8 * 130);  // polls are ~130 bytes per GPU: keep timestamps increasing
      out << chunk;
      written += chunk.size();
    }
  }
  const auto size = std::filesystem::file_size(path);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    execl(WT_CLI_PATH, WT_CLI_PATH, "classify", "--replay", path.c_str(), "--json", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove(path);
  const double rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "  classify --replay --json, %.2f GB 8-GPU CSV: exit %d, %.1f s (%.0f MB/s), peak RSS %.1f MB "
                "(target < 200 MB: %s)\n",
                static_cast<double>(size) / 1e9, WIFEXITED(status) ? WEXITSTATUS(status) : -1, secs,
                static_cast<double>(size) / 1e6 / secs, rss_mb, met(rss_mb < 200));
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const char* env = std::getenv("WT_BENCH_BIG_MB");
  const std::size_t mb = env ? std::strtoul(env, nullptr, 10) : 1024;
  const std::string big = mb > 0 ? big_file_check(mb) : "";
  Recorder rec;
  benchmark::RunSpecifiedBenchmarks(&rec);
  benchmark::Shutdown();

  std::printf("\nWorkloadTruth speed figures (one core; ratios against baselines measured in this run):\n");
  auto& b = rec.bytes_per_s;
  auto& i = rec.items_per_s;
  if (b.count("BM_CsvParse") && b.count("BM_Baseline_LineScan"))
    std::printf("  nvidia-smi CSV parsing        %7.0f MB/s (target >= 100 MB/s: %s), %.3fx a newline scan (%.0f MB/s)\n",
                b["BM_CsvParse"] / 1e6, met(b["BM_CsvParse"] >= 100e6), b["BM_CsvParse"] / b["BM_Baseline_LineScan"],
                b["BM_Baseline_LineScan"] / 1e6);
  if (b.count("BM_ReplayFile") && b.count("BM_CsvParse"))
    std::printf("  replay from a file            %7.0f MB/s, %.2fx in-memory parsing\n", b["BM_ReplayFile"] / 1e6,
                b["BM_ReplayFile"] / b["BM_CsvParse"]);
  if (i.count("BM_WindowFeaturesRules") && i.count("BM_Baseline_SumOneSignal"))
    std::printf("  windows + features + rules    %7.1f M samples/s (target >= 20 M/s: %s), %.3fx summing one signal (%.0f M/s)\n",
                i["BM_WindowFeaturesRules"] / 1e6, met(i["BM_WindowFeaturesRules"] >= 20e6),
                i["BM_WindowFeaturesRules"] / i["BM_Baseline_SumOneSignal"], i["BM_Baseline_SumOneSignal"] / 1e6);
  if (i.count("BM_SimulateCatalog") && i.count("BM_Baseline_LegacyProfiles"))
    std::printf("  simulator, every scenario      %7.2f M samples/s (target >= 1 M/s: %s), %.3fx the seed tool's Gaussian profiles (%.1f M/s)\n",
                i["BM_SimulateCatalog"] / 1e6, met(i["BM_SimulateCatalog"] >= 1e6),
                i["BM_SimulateCatalog"] / i["BM_Baseline_LegacyProfiles"], i["BM_Baseline_LegacyProfiles"] / 1e6);
  if (i.count("BM_VerifyLog") && i.count("BM_Baseline_Sha256"))
    std::printf("  verify-log, 1 M entries         %5.2f s (target < 5 s: %s), %.0f MB/s, %.3fx SHA-256 alone (%.0f MB/s)\n",
                1e6 / i["BM_VerifyLog"], met(1e6 / i["BM_VerifyLog"] < 5), b["BM_VerifyLog"] / 1e6,
                b["BM_VerifyLog"] / b["BM_Baseline_Sha256"], b["BM_Baseline_Sha256"] / 1e6);
  if (i.count("BM_SummarizeLog") && i.count("BM_VerifyLog"))
    std::printf("  report, 1 M entries             %5.2f s (verify-log, then the summary: %.2f s more, %.2fx verify-log)\n",
                1e6 / i["BM_VerifyLog"] + 1e6 / i["BM_SummarizeLog"], 1e6 / i["BM_SummarizeLog"],
                i["BM_VerifyLog"] / i["BM_SummarizeLog"]);
  if (i.count("BM_SummarizeLogByDay") && i.count("BM_SummarizeLog"))
    std::printf("  report --by day, 1 M entries    summary %5.2f s, %.2fx the summary without --by\n",
                1e6 / i["BM_SummarizeLogByDay"], i["BM_SummarizeLog"] / i["BM_SummarizeLogByDay"]);
  std::printf("%s", big.c_str());
  return 0;
}
