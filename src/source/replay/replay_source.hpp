// Replays a recorded trace file: nvidia-smi CSV or dmon output, dcgmi dmon output, the project's
// JSONL, or rocm-smi / amd-smi output (docs/amd.md), auto-detected.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/line_reader.hpp"
#include "source/replay/amd_tool_log.hpp"
#include "source/replay/dcgmi_dmon.hpp"
#include "source/replay/jsonl_trace.hpp"
#include "source/replay/nvidia_smi_csv.hpp"
#include "source/replay/nvidia_smi_dmon.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

enum class TraceFormat { Auto, Csv, Dmon, DcgmiDmon, Jsonl, RocmSmi, AmdSmi };
// "auto", "csv", "dmon", "dcgmi-dmon", "jsonl", "rocm-smi", "amd-smi"
std::optional<TraceFormat> parse_trace_format(std::string_view name);

struct ReplayOptions {
  TraceFormat format = TraceFormat::Auto;
  std::vector<std::string> columns;  // for CSV written with noheader
  // Seconds between snapshots, for rocm-smi / amd-smi / dmon / dcgmi dmon output that carries no time.
  std::optional<double> interval_s = std::nullopt;
  // The model of GPUs the file does not name (dmon logs, CSVs without a name column), so that
  // features can set power and memory against the card's datasheet; "" = leave them unnamed.
  std::string gpu_name = "";
  // Called while a pipe being read stays quiet (core/waiting_hook.hpp).
  WaitingHook waiting = {};
};

class ReplaySource final : public TelemetrySource {
 public:
  // Throws InputError when the file cannot be opened or is plainly not a trace (binary).
  ReplaySource(std::string path, ReplayOptions options = {});
  bool next(Sample& out) override;
  std::string describe() const override { return "replay:" + path_; }
  TraceFormat format() const { return format_; }

 private:
  bool next_from_file(Sample& out);
  std::string no_samples_message() const;

  std::string path_;
  LineReader reader_;
  TraceFormat format_;
  std::unique_ptr<NvidiaSmiCsvParser> csv_;
  std::unique_ptr<NvidiaSmiDmonParser> dmon_;
  std::unique_ptr<DcgmiDmonParser> dcgmi_;
  std::unique_ptr<JsonlTraceParser> jsonl_;
  std::unique_ptr<AmdToolLogParser> amd_;
  std::size_t samples_ = 0;
  std::string gpu_name_;
  std::map<const GpuIdentity*, GpuRef> named_;  // each unnamed identity, named once
  bool interval_given_ = false;
  bool noted_at_end_ = false;  // the notes on unused options, said once
};

}  // namespace wt
