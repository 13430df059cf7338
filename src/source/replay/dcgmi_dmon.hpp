// Parses what `dcgmi dmon -e FIELDS` prints (DCGM's device monitor, saved with a redirect), the
// recording an operator of a DCGM-managed cluster has at hand:
//   #Entity    POWER          TMPTR    GPUTL          FBUSD          GRACT
//   ID         W              C
//   GPU 0      245.312        61       98             30120          0.912
// Columns come from its header (each field's short name, dcgm_fields.cpp), repeated every 14
// samples and then skipped; values are left-aligned under their names (DCGM 2.x right-aligned
// them), "N/A" or blank when there is none. Rows of entities other than GPUs (GPU-I, GPU-CI,
// NvSwitch, CPU ...) are skipped. dcgmi prints no time: a GPU's k-th row is placed at
// k x interval_s (its -d, in seconds) after 1970-01-01, and interval_s must be given.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"
#include "source/replay/gpus_by_index.hpp"

namespace wt {

// True when the file's first meaningful line is dcgmi dmon's header ("#Entity ...").
bool looks_like_dcgmi_dmon(std::string_view head);

class DcgmiDmonParser {
 public:
  using Report = std::function<void(Diagnostic)>;

  // Throws InputError without an interval: the file cannot say when its rows were taken.
  DcgmiDmonParser(std::string origin, Report report, std::optional<double> interval_s);

  // Parses one line. Returns true with `out` filled for a GPU's row; false for a header, units,
  // blank or skipped line, or a bad line (then reported, naming file and line).
  bool parse_line(std::string_view line, std::size_t line_no, Sample& out);

 private:
  struct Column {
    std::string name;
    std::size_t offset;  // where its name starts in the header line
    int rule;            // into the field table, -1 when not read
  };
  void set_columns(std::string_view header, std::size_t line_no);
  void bad(std::size_t line_no, std::string message);

  std::string origin_;
  Report report_;
  double interval_s_;
  std::vector<Column> columns_;
  std::string header_;  // the header line in force, so its repeats are skipped quietly
  bool other_entities_noted_ = false;
  GpusByIndex<long> gpus_;  // and the rows of each so far
};

}  // namespace wt
