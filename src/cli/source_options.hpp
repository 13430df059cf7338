// Command-line options that choose and configure a telemetry source, shared by commands.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>
#include <string>

#include "pipeline/open_source.hpp"

namespace wt::cli {

// The command-line face of a SourceSpec (pipeline/open_source.hpp).
struct SourceOptions : SourceSpec {
  bool list_scenarios = false;
  CLI::Option* interval_option = nullptr;  // set by add_to: tells a given --interval from the default
  CLI::Option* replay_option = nullptr;    // set by add_to

  // `format_flag`: the flag name that overrides the replay format ("--format" or "--input-format").
  // `min_samples` 0 lets --samples 0 mean "until stopped" (live sources).
  void add_to(CLI::App& app, const std::string& format_flag, std::size_t min_samples = 1);
  // The recorded trace as a positional argument too (`classify gpu-log.csv`), for commands whose
  // only file is their input. Call after add_to.
  void add_trace_positional(CLI::App& app);
  // `--follow` (prometheus), for commands that run until stopped: watch and record.
  void add_follow_option(CLI::App& app);
  std::string resolved_backend() const { return wt::resolved_backend(*this); }
  // Throws InputError / NoTelemetryError / std::invalid_argument (a usage error).
  std::unique_ptr<TelemetrySource> open() const;
  // `--list-scenarios` was given: prints the simulator's scenarios and returns true.
  bool print_scenarios_if_asked(std::ostream& out) const;
};

}  // namespace wt::cli
