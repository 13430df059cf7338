#include "train/sim_dataset.hpp"

#include <filesystem>
#include <functional>

#include "features/gpu_context.hpp"
#include "sim/simulated_source.hpp"
#include "source/replay/replay_source.hpp"

namespace wt {

const std::vector<double>& training_intervals() {
  static const std::vector<double> intervals{0.1, 0.25, 0.5, 1.0, 2.0, 5.0};
  return intervals;
}

const std::vector<std::vector<Signal>>& recorded_signal_sets() {
  using S = Signal;
  static const std::vector<std::vector<Signal>> sets{
      {},  // everything the source gives (live NVML)
      {S::GpuUtil, S::MemUtil, S::MemUsed, S::MemTotal, S::Power, S::Temperature, S::SmClock, S::MemClock},
      {S::GpuUtil, S::MemUsed, S::Power},
      {S::GpuUtil, S::MemUtil, S::Power},
      {S::GpuUtil, S::MemUtil, S::MemUsed, S::MemTotal, S::Power},
  };
  return sets;
}

namespace {

// Passes samples through, keeping only a chosen set of signals.
class KeepSignals final : public TelemetrySource {
 public:
  KeepSignals(TelemetrySource& inner, const std::vector<Signal>& keep) : inner_(inner), keep_(keep) {}
  bool next(Sample& out) override {
    if (!inner_.next(out)) return false;
    if (keep_.empty()) return true;
    SignalValues kept;
    for (Signal s : keep_)
      if (out.values.has(s)) kept.set(s, out.values.value(s));
    out.values = kept;
    return true;
  }
  std::string describe() const override { return inner_.describe(); }

 private:
  TelemetrySource& inner_;
  const std::vector<Signal>& keep_;
};

}  // namespace

void build_sim_dataset(const SimDatasetOptions& o, std::vector<LabelledWindow>& train,
                       std::vector<LabelledWindow>& calibration) {
  for (const sim::ScenarioSpec& spec : sim::scenario_catalog()) {
    if (!o.exclude_evasion.empty() && spec.evasion == o.exclude_evasion) continue;
    if (!o.include_evasions && !spec.evasion.empty()) continue;
    for (std::size_t i = 0; i < o.traces_per_scenario; ++i) {
      sim::SimOptions so;
      so.scenario = spec;
      if (!o.only_gpu_model.empty()) so.scenario.gpu_model = o.only_gpu_model;
      so.seed = std::hash<std::string>{}(spec.name() + "#" + std::to_string(i)) ^ (o.seed * 0x9E3779B97F4A7C15ULL);
      so.duration_s = o.duration_s;
      so.interval_s = training_intervals()[so.seed % training_intervals().size()];
      auto sim_source = sim::make_simulated_source(so);
      KeepSignals source(*sim_source, recorded_signal_sets()[(so.seed >> 8) % recorded_signal_sets().size()]);
      std::vector<LabelledWindow> rows;
      add_windows(source, spec.label, spec.name(), o.window, gpu_context_for, rows);
      auto& dest = i % 5 == 4 ? calibration : train;
      for (auto& r : rows)
        if (o.exclude_gpu_model.empty() || r.gpu_model != o.exclude_gpu_model) dest.push_back(std::move(r));
    }
  }
}

std::size_t add_real_traces(const std::string& dir, const WindowSpec& window, std::vector<LabelledWindow>& out) {
  std::size_t files = 0;
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".csv") paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    const std::string name = p.filename().string();
    const auto label = label_from_file_name(name);
    if (!label) continue;
    const auto first = name.find("__") + 2;
    const std::string source = name.substr(first, name.find("__", first) - first);
    ReplaySource src(p.string());
    add_windows(src, *label, "real:" + source, window, gpu_context_for, out);
    ++files;
  }
  return files;
}

}  // namespace wt
