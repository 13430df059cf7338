// Command-line options that choose and configure a telemetry source, shared by commands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "source/amd/amd_source.hpp"
#include "source/telemetry_source.hpp"

namespace wt::cli {

struct SourceOptions {
  std::string backend;  // "" = replay when --replay is given, else nvml
  std::string replay_file;
  std::string input_format = "auto";
  std::vector<std::string> columns;
  std::string profile = "training";
  std::size_t samples = 30;
  double interval_s = 1.0;
  std::uint64_t seed = 42;
  std::optional<int> gpu;
  // Simulator (--backend sim).
  std::string scenario = "training/pretrain";
  std::string gpu_model;  // "" = drawn from the seed
  std::optional<double> duration_s;  // default: --samples polls
  bool list_scenarios = false;
  CLI::Option* interval_option = nullptr;  // set by add_to: tells a given --interval from the default

  // `format_flag`: the flag name that overrides the replay format ("--format" or "--input-format").
  // `min_samples` 0 lets --samples 0 mean "until stopped" (live sources).
  void add_to(CLI::App& app, const std::string& format_flag, std::size_t min_samples = 1);
  std::string resolved_backend() const;
  // Throws InputError / NoTelemetryError / std::invalid_argument (a usage error).
  std::unique_ptr<TelemetrySource> open() const;
  // `--list-scenarios` was given: prints the simulator's scenarios and returns true.
  bool print_scenarios_if_asked(std::ostream& out) const;

 private:
  std::unique_ptr<TelemetrySource> open_auto() const;
  AmdOptions amd_options() const;
};

}  // namespace wt::cli
