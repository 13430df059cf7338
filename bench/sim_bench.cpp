// Simulator speed: samples generated per second over every catalog scenario (5-minute traces at
// 1 s, as training data is made), against the seed tool's Gaussian profiles.
#include <benchmark/benchmark.h>

#include "sim/simulated_source.hpp"
#include "source/synthetic_source.hpp"

namespace {

void BM_Baseline_LegacyProfiles(benchmark::State& state) {
  std::size_t n = 0;
  for (auto _ : state) {
    wt::SyntheticSource src({"inference", 300, 0, 1});
    wt::Sample s;
    while (src.next(s)) ++n;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(n));
}
BENCHMARK(BM_Baseline_LegacyProfiles)->Unit(benchmark::kMicrosecond);

void BM_SimulateCatalog(benchmark::State& state) {
  std::size_t n = 0;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    for (const auto& spec : wt::sim::scenario_catalog()) {
      auto src = wt::sim::make_simulated_source({spec, 300, 1.0, seed++});
      wt::Sample s;
      while (src->next(s)) ++n;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(n));
}
BENCHMARK(BM_SimulateCatalog)->Unit(benchmark::kMillisecond);

}  // namespace
