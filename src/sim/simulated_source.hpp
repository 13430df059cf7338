// The simulator's public API: the scenario catalog and a TelemetrySource that generates a
// scenario's telemetry, deterministic for a given SimOptions and without sleeping.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "classify/verdict.hpp"
#include "sim/reader.hpp"
#include "source/telemetry_source.hpp"

namespace wt::sim {

struct ScenarioSpec {
  std::string family;     // training, inference, idle, hpc, mining, graphics
  std::string variant;    // pretrain, online-poisson, bare, md, ethash, render, ...
  WorkloadType label;     // what the GPU is really doing (disguised training stays TRAINING)
  std::string evasion;    // "" for clean
  std::string gpu_model;  // "" = drawn from the seed among the models this family runs on
  int gpus = 1;
  // "family/variant" or "family/variant/evasion".
  std::string name() const { return family + "/" + variant + (evasion.empty() ? "" : "/" + evasion); }
};

// Every scenario the simulator can generate: clean families of every class and every evasion family.
const std::vector<ScenarioSpec>& scenario_catalog();
// The catalog entry of that name ("training/pretrain", "training/finetune/low-util"), nullptr if none.
const ScenarioSpec* find_scenario(const std::string& name);

struct SimOptions {
  ScenarioSpec scenario;
  double duration_s = 300;
  double interval_s = 1.0;
  std::uint64_t seed = 1;
  Reader reader = Reader::IntervalMean;  // as WorkloadTruth's NVML reader or nvidia-smi reads the GPUs
  double start_time_s = 1'767'225'600.0;  // 2026-01-01T00:00:00
};

// Throws std::invalid_argument for an unknown family/variant/evasion or GPU model, or a
// non-positive duration or interval.
std::unique_ptr<TelemetrySource> make_simulated_source(const SimOptions&);

std::vector<std::string> evasion_families();  // names

}  // namespace wt::sim
