// Chooses and opens a telemetry source from plain settings, for the CLI and the MCP server alike.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/waiting_hook.hpp"
#include "source/prometheus/http_auth.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

struct SourceSpec {
  std::string backend;  // "" = replay when replay_files are given, else nvml
  // Recorded traces (see ReplayFile); several are read as one fleet, merged in time, each file's
  // GPUs named after the file (node7.csv: node7/0 ...) where the file names no host.
  std::vector<std::string> replay_files;
  std::string input_format = "auto";
  std::vector<std::string> columns;
  std::string profile = "training";
  std::size_t samples = 30;
  double interval_s = 1.0;
  bool interval_given = false;  // a replayed rocm-smi log takes interval_s as its snapshot spacing only when given
  std::uint64_t seed = 42;
  std::optional<int> gpu;
  std::string sys_root = "/sys";  // where sysfs is mounted: the AMD source lists processes under it
  // Simulator (backend "sim").
  std::string scenario = "training/pretrain";
  std::string gpu_model;             // "" = drawn from the seed
  std::optional<double> duration_s;  // default: samples x interval
  // dcgm-exporter (backend "dcgm": its /metrics URL) and Prometheus (backend "prometheus": the
  // server's URL, a time range and label matchers).
  std::string url;
  std::string match;
  std::string start, end;        // ISO 8601 in UTC ("2026-12-03T10:00:00Z") or Unix seconds; end "" = now
  std::optional<double> last_s;  // instead of start: seconds before the end
  bool follow = false;  // after the range, read what Prometheus stores next, until `waiting` ends it
  std::string declared_label;  // a series label whose values samples carry as `declared` (dcgm_fields.hpp)
  // Called while a source waits with no sample to give (following, or a replay of a pipe that
  // stays quiet): core/waiting_hook.hpp.
  WaitingHook waiting;
  // Either: credentials and trust read from files.
  HttpAuthFiles auth_files;
};

// A --replay argument: PATH, or NODE=PATH naming the node whose GPUs the file holds (a pipe from
// `ssh node7 nvidia-smi ...` has no name of its own). Read as a path where a file of that whole
// name exists.
struct ReplayFile {
  std::string host;  // "" when not named
  std::string path;
};
ReplayFile parse_replay_file(const std::string& arg);

std::string resolved_backend(const SourceSpec& s);

// Throws InputError / NoTelemetryError / std::invalid_argument (a usage error).
std::unique_ptr<TelemetrySource> open_source(const SourceSpec& s);

}  // namespace wt
