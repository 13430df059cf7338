// Audit-log verification speed: the whole verifier (hash chain, canonical-form check) over a
// million-entry log, against SHA-256 alone over the same bytes.
#include <benchmark/benchmark.h>

#include <string>

#include "audit/canonical_json.hpp"
#include "audit/checkpoint.hpp"
#include "audit/log_summary.hpp"
#include "audit/log_verifier.hpp"
#include "core/sha256.hpp"
#include "audit/verdict_entry.hpp"

namespace {

constexpr int kEntries = 1'000'000;

// A million verdict entries of 8 GPUs, chained as the writer chains them (built in memory:
// the writer's per-entry fsync would measure the disk, not the verifier).
const std::string& log_text() {
  static const std::string text = [] {
    std::string out, prev(wt::audit::kGenesisHash);
    wt::Sha256 sha;
    for (int i = 0; i < kEntries; ++i) {
      const wt::GpuIdentity gpu{i % 8, "GPU-3f2a9c1e-0000-4000-8000-00000000000" + std::to_string(i % 8), "", "", ""};
      wt::Verdict v;
      v.type = wt::WorkloadType::Training;
      v.confidence = 0.75 + (i % 100) * 0.0025;
      v.reasons = {"TRAINING in 3 of 4 votes: mean utilization 91.2% >= 65%, utilization std 3.1 <= 15.",
                   "Power std 8.4 W <= 25 W."};
      v.features.sample_count = 30;
      v.features.avg_gpu_util_pct = 91.2 + (i % 7) * 0.13;
      v.features.std_gpu_util_pct = 3.1;
      v.features.avg_power_watts = 612.5 + (i % 13);
      v.features.std_power_watts = 8.4;
      v.features.mem_growth_mib_per_sample = 0.0;
      v.features.avg_mem_used_mib = 71234.5;
      nlohmann::json e = wt::audit::verdict_entry(gpu, v, 1.7e9 + 15.0 * i, 1.7e9 + 15.0 * i + 30, 1.7e9 + 15.0 * i + 31);
      const std::string h = sha.hex(wt::audit::canonical(e), prev);
      e["prev_hash"] = prev;
      e["entry_hash"] = h;
      out += wt::audit::canonical(e);
      out += '\n';
      prev = h;
    }
    return out;
  }();
  return text;
}

void BM_Baseline_Sha256(benchmark::State& state) {
  const std::string& text = log_text();
  wt::Sha256 sha;
  for (auto _ : state) benchmark::DoNotOptimize(sha.digest(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kEntries);
}
BENCHMARK(BM_Baseline_Sha256)->Unit(benchmark::kMillisecond);

void BM_VerifyLog(benchmark::State& state) {
  const std::string& text = log_text();
  for (auto _ : state) {
    const wt::audit::VerifyResult r = wt::audit::verify_log_text(text, {});
    if (!r.valid() || r.entries != static_cast<std::size_t>(kEntries)) state.SkipWithError(r.message().c_str());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kEntries);
}
BENCHMARK(BM_VerifyLog)->Unit(benchmark::kMillisecond);

// The windows of every class in a summary with no GPU floor: every verdict read.
std::size_t windows_shown(const wt::audit::LogSummary& s) {
  std::size_t n = 0;
  for (const wt::audit::ClassTotals& c : s.classes) n += c.windows;
  return n;
}

// What `report` adds to the verification: reading every entry back as JSON to sum it up.
void BM_SummarizeLog(benchmark::State& state) {
  const std::string& text = log_text();
  wt::audit::SummaryOptions no_floor;
  no_floor.min_gpus = 1;
  for (auto _ : state) {
    const wt::audit::LogSummary s = wt::audit::summarize_log(text, no_floor);
    if (windows_shown(s) != static_cast<std::size_t>(kEntries)) state.SkipWithError("not every verdict was read");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kEntries);
}
BENCHMARK(BM_SummarizeLog)->Unit(benchmark::kMillisecond);

// The same with `--by day`: the log's 174 days, each window also added to its day's tally.
void BM_SummarizeLogByDay(benchmark::State& state) {
  const std::string& text = log_text();
  wt::audit::SummaryOptions by_day;
  by_day.min_gpus = 1;
  by_day.by = wt::CalendarUnit::Day;
  for (auto _ : state) {
    const wt::audit::LogSummary s = wt::audit::summarize_log(text, by_day);
    if (windows_shown(s) != static_cast<std::size_t>(kEntries) || s.periods.size() < 100)
      state.SkipWithError("not every verdict or day was read");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kEntries);
}
BENCHMARK(BM_SummarizeLogByDay)->Unit(benchmark::kMillisecond);

}  // namespace
