// Parses the CSV that `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]` writes,
// one line at a time (the file loop lives in ReplaySource; fuzzers feed lines directly).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"

namespace wt {

struct CsvColumn {
  enum class Kind { Timestamp, Index, Uuid, Name, PciBusId, Host, Value, Ignored };
  Kind kind = Kind::Ignored;
  Signal signal{};            // for Kind::Value
  std::string_view unit;      // unit the values may carry ("W"), "" when none
  double kib_scale = 0;       // for PCIe/NVLink: a value in KB/s is scaled to MB/s
  std::string header;         // as written in the file
};

// Maps a query field name ("power.draw [W]", "utilization.gpu") to a column.
CsvColumn csv_column_for(std::string_view header_field);

class NvidiaSmiCsvParser {
 public:
  using Report = std::function<void(Diagnostic)>;

  // `origin` names the file in messages. `columns` is the --query-gpu list for files written
  // with `noheader`; leave it empty to read the header line.
  NvidiaSmiCsvParser(std::string origin, Report report, std::vector<std::string> columns = {});

  // Parses one line. Returns true with `out` filled for a sample; false for a header, a blank
  // line, or a bad line (then reported, naming file and line).
  bool parse_line(std::string_view line, std::size_t line_no, Sample& out);

 private:
  struct KnownGpu {
    std::string key;   // the identifying field's text
    std::string host;  // with the host column's: GPUs of several hosts share indices
    GpuRef ref;
    double last_time_s;
  };

  void set_columns(const std::vector<std::string_view>& fields, std::size_t line_no);
  // The fields that name a GPU, as one line gives them.
  struct GpuFields {
    std::string_view index, uuid, name, bus_id, host;
  };
  KnownGpu* intern_gpu(const GpuFields& f, std::size_t line_no);
  void bad(std::size_t line_no, std::string message);

  std::string origin_;
  Report report_;
  std::vector<CsvColumn> columns_;
  std::string header_line_;
  int key_column_ = -1;  // index, else uuid, else pci.bus_id; -1: the file has one GPU
  std::vector<KnownGpu> gpus_;
  std::vector<std::string_view> fields_;  // reused per line: no allocation on the hot path
};

// `s` without the blanks (spaces, tabs, a carriage return) around it; shared by the text readers.
std::string_view trim_blanks(std::string_view s);

// Splits on commas, trimming spaces around fields; double quotes protect commas.
void split_csv(std::string_view line, std::vector<std::string_view>& fields);

}  // namespace wt
