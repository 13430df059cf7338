// Windowing + features + rules speed, against the cost of merely touching each sample.
#include <benchmark/benchmark.h>

#include "bench_data.hpp"
#include "classify/rule_classifier.hpp"
#include "features/window_features.hpp"
#include "window/windower.hpp"

namespace {

const std::vector<wt::Sample>& samples() {
  static const std::vector<wt::Sample> s = wt::bench::make_samples(2'000'000);  // 55 h at 10 Hz
  return s;
}

// Baseline: read one signal of every sample once.
void BM_Baseline_SumOneSignal(benchmark::State& state) {
  for (auto _ : state) {
    double sum = 0;
    for (const auto& s : samples()) sum += s.values.value(wt::Signal::GpuUtil);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples().size()));
}
BENCHMARK(BM_Baseline_SumOneSignal)->Unit(benchmark::kMillisecond);

void BM_WindowFeaturesRules(benchmark::State& state) {
  const wt::RuleClassifier rules;
  for (auto _ : state) {
    std::size_t training = 0;
    const wt::GpuIdentity gpu{0, "GPU-bench", "NVIDIA H100 80GB HBM3", "", ""};
    wt::Windower w({30, 15, 3}, [&](const wt::Window& win) {
      training += rules.classify({win.samples, gpu}).type == wt::WorkloadType::Training;
    });
    for (const auto& s : samples()) w.push(s);
    w.finish();
    benchmark::DoNotOptimize(training);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples().size()));
}
BENCHMARK(BM_WindowFeaturesRules)->Unit(benchmark::kMillisecond);

}  // namespace
