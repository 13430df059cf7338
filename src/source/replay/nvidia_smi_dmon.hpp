// Parses what `nvidia-smi dmon` prints (its scrolling device monitor, saved with -f FILE or a
// redirect), the cheapest recording an operator can leave running:
//   #Date       Time        gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk
//   #YYYYMMDD   HH:MM:SS    Idx     W     C     C     %     %     %     %   MHz   MHz
//    20210102   19:12:31      0    37    19     -     0     0     0     0  4006   582
// Columns come from its header, whatever -s groups were chosen (and in whatever order the
// driver prints them); the header repeats every few screens and is then skipped. Newer drivers'
// `--format csv` (commas between fields, a unit after each value unless `nounit`) is read too;
// with `noheader` the columns must be given (`columns`: the header's names, as the -s groups and
// -o DT print them), since the file does not say. "-" is a missing value.
//
// Times: with -o DT each row has its date and time (whole seconds). With -o T only the time of
// day: it is placed on 1970-01-01 and a day is added each time the clock runs back by more
// than 12 h (midnight). Without either, the time between rows (dmon's -d, 1 s by default) must
// be given as `interval_s`: a GPU's k-th row is then at k x interval_s seconds after 1970-01-01.
// dmon names no GPU model, so power cannot be set against the card's limit (docs/trace-format.md).
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

// True when the file's first meaningful line is dmon's column header ("#... gpu ...").
bool looks_like_dmon(std::string_view head);
// True when --columns name dmon's gpu column (no nvidia-smi --query-gpu field is called "gpu").
bool names_dmon_columns(const std::vector<std::string>& columns);

class NvidiaSmiDmonParser {
 public:
  using Report = std::function<void(Diagnostic)>;

  // `columns`: the header of a file written without one (empty: the file's own header). Throws
  // std::invalid_argument when they do not name the gpu column.
  NvidiaSmiDmonParser(std::string origin, Report report, std::optional<double> interval_s,
                      const std::vector<std::string>& columns = {});

  // Parses one line. Returns true with `out` filled for a sample; false for a header, a blank
  // line, or a bad line (then reported, naming file and line). Throws InputError when rows
  // come before any header, or when the file starts without a time column and no interval was given.
  bool parse_line(std::string_view line, std::size_t line_no, Sample& out);
  // Whether a row was placed in time by the interval (its file had no time column there).
  bool interval_used() const { return interval_used_; }

  // One column of the header in force, as read.
  struct Column {
    enum class Kind { Date, Time, Index, Value, Ignored } kind;
    Signal signal;
    std::string name;       // as the header spells it
    std::string_view unit;  // the unit dmon prints it in (from a static table)
  };

 private:
  // `where`: the header's place, for the note on columns it ignores.
  void set_columns(const std::vector<std::string_view>& names, const std::string& where);
  // The row's time from its Time column (and Date column, when the header has one).
  std::optional<double> row_time(std::string_view date, std::string_view time, std::size_t line_no);
  void bad(std::size_t line_no, std::string message);

  std::string origin_;
  Report report_;
  std::optional<double> interval_s_;
  std::vector<Column> columns_;
  std::string header_;  // the names line in force, so its repeats are skipped quietly
  bool has_date_ = false, has_time_ = false, interval_used_ = false;
  double day_offset_s_ = 0, last_time_of_day_s_ = -1;
  struct GpuRows {
    double last_time_s;
    long rows;
  };
  GpusByIndex<GpuRows> gpus_;
  std::vector<std::string_view> fields_;
};

}  // namespace wt
