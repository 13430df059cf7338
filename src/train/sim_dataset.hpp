// Labelled windows from the simulator, and from directories of labelled real traces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "train/dataset.hpp"

namespace wt {

struct SimDatasetOptions {
  std::size_t traces_per_scenario = 12;
  double duration_s = 300;
  std::uint64_t seed = 1;
  WindowSpec window;
  // Scenarios to leave out (held-out evaluation): by evasion family or by GPU model.
  std::string exclude_evasion;
  std::string exclude_gpu_model;
  std::string only_gpu_model;  // when set, every trace runs on this model
  bool include_evasions = true;  // false: clean families only (what calibration compares)
};

// Sampling intervals a trace is drawn with, so that the model learns rate-independent cues.
const std::vector<double>& training_intervals();

// The signal sets real recordings carry (live NVML has all; an nvidia-smi query has what it
// asked for). Each simulated trace keeps one of them, drawn from its seed, so that the model
// learns from the signals that are there instead of from which ones are missing.
const std::vector<std::vector<Signal>>& recorded_signal_sets();

// One trace per (scenario, i): seed = hash(seed, scenario, i); i % 5 == 4 goes to
// `calibration`, the rest to `train`. `group` is the scenario name.
void build_sim_dataset(const SimDatasetOptions& o, std::vector<LabelledWindow>& train,
                       std::vector<LabelledWindow>& calibration);

// Every "<label>__<source>__<run>.csv" in `dir` (group = "real:<source>"). Returns the files read.
std::size_t add_real_traces(const std::string& dir, const WindowSpec& window, std::vector<LabelledWindow>& out);

}  // namespace wt
