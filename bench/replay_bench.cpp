// Replay parsing speed: nvidia-smi CSV text -> samples, against a plain newline scan.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "bench_data.hpp"
#include "source/replay/nvidia_smi_csv.hpp"
#include "source/replay/replay_source.hpp"

namespace {

const std::string& csv_text() {
  static const std::string text = wt::bench::make_nvidia_smi_csv(32 << 20, 8);
  return text;
}

// Baseline: the least any line-based reader must do, finding every newline.
void BM_Baseline_LineScan(benchmark::State& state) {
  const std::string& text = csv_text();
  for (auto _ : state) {
    std::size_t lines = 0;
    for (const char* p = text.data(); (p = static_cast<const char*>(std::memchr(p, '\n', text.data() + text.size() - p)));
         ++p)
      ++lines;
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Baseline_LineScan)->Unit(benchmark::kMillisecond);

void BM_CsvParse(benchmark::State& state) {
  const std::string& text = csv_text();
  for (auto _ : state) {
    wt::NvidiaSmiCsvParser parser("bench.csv", [](wt::Diagnostic) {});
    wt::Sample s;
    std::size_t samples = 0, line_no = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
      const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (nl == nullptr) nl = end;
      samples += parser.parse_line({p, static_cast<std::size_t>(nl - p)}, ++line_no, s);
      p = nl + 1;
    }
    benchmark::DoNotOptimize(samples);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_CsvParse)->Unit(benchmark::kMillisecond);

// The same through ReplaySource: file reads and line splitting included.
void BM_ReplayFile(benchmark::State& state) {
  const auto path = std::filesystem::temp_directory_path() / "wt_bench_replay.csv";
  std::ofstream(path, std::ios::binary) << csv_text();
  for (auto _ : state) {
    wt::ReplaySource src(path.string());
    wt::Sample s;
    std::size_t samples = 0;
    while (src.next(s)) ++samples;
    benchmark::DoNotOptimize(samples);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * csv_text().size()));
  std::filesystem::remove(path);
}
BENCHMARK(BM_ReplayFile)->Unit(benchmark::kMillisecond);

}  // namespace
