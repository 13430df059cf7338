#include "train/sim_dataset.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <string_view>

#include "features/gpu_context.hpp"
#include "sim/gpu_models.hpp"
#include "sim/simulated_source.hpp"

namespace wt {

const std::vector<double>& training_intervals() {
  static const std::vector<double> intervals{0.1, 0.25, 0.5, 1.0, 2.0, 5.0};
  return intervals;
}

const std::vector<RecordedSignalSet>& recorded_signal_sets() {
  using S = Signal;
  static const std::vector<RecordedSignalSet> sets{
      {"all", "all (live NVML)", {}},
      {"smi", "util, memory, power, temperature, clocks",
       {S::GpuUtil, S::MemUtil, S::MemUsed, S::MemTotal, S::Power, S::Temperature, S::SmClock, S::MemClock}},
      {"util-memused-power", "util, memory used, power", {S::GpuUtil, S::MemUsed, S::Power}},
      {"util-memutil-power", "util, memory util, power", {S::GpuUtil, S::MemUtil, S::Power}},
      {"util-mem-power", "util, memory, power", {S::GpuUtil, S::MemUtil, S::MemUsed, S::MemTotal, S::Power}},
  };
  return sets;
}

std::optional<std::size_t> find_signal_set(std::string_view key) {
  const auto& sets = recorded_signal_sets();
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (sets[i].key == key) return i;
  return std::nullopt;
}

namespace {

// Passes samples through, keeping only a chosen set of signals.
class KeepSignals final : public TelemetrySource {
 public:
  KeepSignals(std::unique_ptr<TelemetrySource> inner, const std::vector<Signal>& keep)
      : inner_(std::move(inner)), keep_(keep) {}
  bool next(Sample& out) override {
    if (!inner_->next(out)) return false;
    if (keep_.empty()) return true;
    SignalValues kept;
    for (Signal s : keep_)
      if (out.values.has(s)) kept.set(s, out.values.value(s));
    out.values = kept;
    return true;
  }
  std::string describe() const override { return inner_->describe(); }

 private:
  std::unique_ptr<TelemetrySource> inner_;
  const std::vector<Signal>& keep_;
};

}  // namespace

TraceDraw draw_trace(const sim::ScenarioSpec& spec, const std::string& salt, std::size_t i, std::uint64_t seed,
                     double duration_s, std::optional<double> interval_s, std::optional<std::size_t> signal_set) {
  TraceDraw d;
  d.seed = std::hash<std::string>{}(spec.name() + "#" + salt + std::to_string(i)) ^ (seed * 0x9E3779B97F4A7C15ULL);
  // One trace in four is a short run (20-60 s, less than two windows): real jobs are often
  // recorded that briefly, and a short trace is mostly its set-up phase.
  d.shortened = (d.seed >> 16) % 4 == 0;
  d.duration_s = d.shortened ? std::min(duration_s, 20.0 + static_cast<double>((d.seed >> 20) % 41)) : duration_s;
  d.interval_s = interval_s.value_or(training_intervals()[d.seed % training_intervals().size()]);
  d.signal_set = signal_set.value_or((d.seed >> 8) % recorded_signal_sets().size());
  return d;
}

std::unique_ptr<TelemetrySource> simulated_trace(const sim::ScenarioSpec& spec, const TraceDraw& draw,
                                                 const std::string& gpu_model) {
  sim::SimOptions so;
  so.scenario = spec;
  if (!gpu_model.empty()) so.scenario.gpu_model = gpu_model;
  so.seed = draw.seed;
  so.duration_s = draw.duration_s;
  so.interval_s = draw.interval_s;
  // Every signal is what WorkloadTruth's own NVML reader records; the column sets are nvidia-smi logs.
  so.reader = recorded_signal_sets()[draw.signal_set].signals.empty() ? sim::Reader::IntervalMean
                                                                      : sim::Reader::LatestSample;
  return std::make_unique<KeepSignals>(sim::make_simulated_source(so), recorded_signal_sets()[draw.signal_set].signals);
}

void build_sim_dataset(const SimDatasetOptions& o, std::vector<LabelledWindow>& train,
                       std::vector<LabelledWindow>& calibration) {
  for (const sim::ScenarioSpec& spec : sim::scenario_catalog()) {
    if (!o.include_evasions && !spec.evasion.empty()) continue;
    for (std::size_t i = 0; i < o.traces_per_scenario; ++i) {
      auto source = simulated_trace(spec, draw_trace(spec, "", i, o.seed, o.duration_s), o.only_gpu_model);
      add_windows(*source, spec.label, spec.name(), o.window, gpu_context_for, i % 5 == 4 ? calibration : train);
    }
  }
}

std::vector<LabelledWindow> without_held_out(const std::vector<LabelledWindow>& rows, const std::string& evasion,
                                             const std::vector<std::string>& gpu_models) {
  std::set<std::string> held_scenarios;  // a row's group is its scenario's name
  for (const sim::ScenarioSpec& spec : sim::scenario_catalog())
    if (!evasion.empty() && spec.evasion == evasion) held_scenarios.insert(spec.name());
  // A real trace names its GPU as its driver printed it ("Tesla V100-SXM2-32GB-LS"): hold it out
  // with the model that name matches.
  const auto held_gpu = [&](const std::string& name) {
    if (gpu_models.empty()) return false;
    const sim::GpuModel* m = sim::find_gpu_model(name);
    const std::string_view model = m ? m->name : std::string_view(name);
    return std::find(gpu_models.begin(), gpu_models.end(), model) != gpu_models.end();
  };
  std::vector<LabelledWindow> out;
  for (const LabelledWindow& r : rows)
    if (!held_scenarios.contains(r.group) && !held_gpu(r.gpu_model)) out.push_back(r);
  return out;
}

}  // namespace wt
