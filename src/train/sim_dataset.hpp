// Labelled windows from the simulator, and from directories of labelled real traces.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/simulated_source.hpp"
#include "train/dataset.hpp"

namespace wt {

struct SimDatasetOptions {
  std::size_t traces_per_scenario = 12;
  double duration_s = 300;
  std::uint64_t seed = 1;
  WindowSpec window;
  std::string only_gpu_model;  // when set, every trace runs on this model
  bool include_evasions = true;  // false: clean families only (what calibration compares)
};

// Sampling intervals a trace is drawn with, so that the model learns rate-independent cues.
const std::vector<double>& training_intervals();

// The signal sets real recordings carry (live NVML has all; an nvidia-smi query has what it
// asked for). Each simulated trace keeps one of them, drawn from its seed, so that the model
// learns from the signals that are there instead of from which ones are missing.
struct RecordedSignalSet {
  std::string_view key;         // what `benchmark --signals` takes: "util-memused-power"
  std::string_view name;        // what a benchmark reader recognises: "util, memory used, power"
  std::vector<Signal> signals;  // empty: everything the source gives
};
const std::vector<RecordedSignalSet>& recorded_signal_sets();
// The index of the set with this key; nullopt for none.
std::optional<std::size_t> find_signal_set(std::string_view key);

// How trace `i` of a scenario is recorded, as training and evaluation draw it: seed from
// (scenario, salt, i, seed), sampling interval from training_intervals() unless `interval_s` fixes
// it, signals from recorded_signal_sets() unless `signal_set` fixes them, one trace in four
// shortened to 20-60 s.
// Benchmarks use another `salt` than training so their traces are never trained on.
struct TraceDraw {
  std::uint64_t seed = 0;
  double duration_s = 0;
  double interval_s = 0;
  std::size_t signal_set = 0;  // index into recorded_signal_sets()
  bool shortened = false;      // cut to 20-60 s
};
TraceDraw draw_trace(const sim::ScenarioSpec& spec, const std::string& salt, std::size_t i, std::uint64_t seed,
                     double duration_s, std::optional<double> interval_s = std::nullopt,
                     std::optional<std::size_t> signal_set = std::nullopt);

// The trace a draw describes, on `gpu_model` when set (else the one the seed picks).
std::unique_ptr<TelemetrySource> simulated_trace(const sim::ScenarioSpec& spec, const TraceDraw& draw,
                                                 const std::string& gpu_model = "");

// One trace per (scenario, i): seed = hash(seed, scenario, i); i % 5 == 4 goes to
// `calibration`, the rest to `train`. `group` is the scenario name.
void build_sim_dataset(const SimDatasetOptions& o, std::vector<LabelledWindow>& train,
                       std::vector<LabelledWindow>& calibration);

// The rows of `rows` outside a held-out part: none from a scenario of evasion family `evasion`
// (when not empty), none on a GPU model of `gpu_models` (real rows too, by the model their GPU's
// name matches). Every trace's windows depend only on its own seed, so this is, row for row and in
// order, what a dataset built without the part holds.
std::vector<LabelledWindow> without_held_out(const std::vector<LabelledWindow>& rows, const std::string& evasion,
                                             const std::vector<std::string>& gpu_models);

}  // namespace wt
