#include "source/replay/nvidia_smi_dmon.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "core/time_format.hpp"
#include "source/replay/jsonl_trace.hpp"

namespace wt {

namespace {

using Kind = NvidiaSmiDmonParser::Column::Kind;

struct FieldSpec {
  std::string_view name;
  Kind kind;
  Signal signal;
  std::string_view unit;  // as dmon prints it on its units line
};

// dmon's column names (nvidia-smi dmon --help: -s p, u, c, m, t; the date and time of -o DT).
// Its units are fixed: W, C, %, MHz, MB (= MiB), MB/s. The rest (mtemp, enc, dec, jpg, ofa,
// pviol, tviol, bar1, ccpm, ECC and replay counts, GPM metrics) say nothing the features use.
constexpr std::array<FieldSpec, 12> kFields{{
    {"Date", Kind::Date, {}, ""},
    {"Time", Kind::Time, {}, ""},
    {"gpu", Kind::Index, {}, ""},
    {"pwr", Kind::Value, Signal::Power, "W"},
    {"gtemp", Kind::Value, Signal::Temperature, "C"},
    {"sm", Kind::Value, Signal::GpuUtil, "%"},
    {"mem", Kind::Value, Signal::MemUtil, "%"},
    {"mclk", Kind::Value, Signal::MemClock, "MHz"},
    {"pclk", Kind::Value, Signal::SmClock, "MHz"},
    {"fb", Kind::Value, Signal::MemUsed, "MB"},
    {"rxpci", Kind::Value, Signal::PcieRx, "MB/s"},
    {"txpci", Kind::Value, Signal::PcieTx, "MB/s"},
}};

// dmon pads its columns with blanks; with --format csv it separates them with commas instead
// (and may put the unit after each value). Empty fields are dropped.
void split_fields(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  const bool csv = line.find(',') != std::string_view::npos;
  auto is_separator = [csv](char c) { return csv ? c == ',' : c == ' ' || c == '\t' || c == '\r'; };
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_separator(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_separator(line[i])) ++i;
    std::string_view field = line.substr(start, i - start);
    while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) field.remove_prefix(1);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\t' || field.back() == '\r')) field.remove_suffix(1);
    if (!field.empty()) out.push_back(field);
  }
}

// The text after a leading '#', or nullopt when the line is not a comment line.
std::optional<std::string_view> comment_body(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos || line[first] != '#') return std::nullopt;
  return line.substr(first + 1);
}

bool is_names_line(const std::vector<std::string_view>& fields) {
  return std::find(fields.begin(), fields.end(), "gpu") != fields.end();
}

// --columns as header names: dmon's header keeps a '#' before the first one, which a user may copy.
std::vector<std::string_view> column_names(const std::vector<std::string>& columns) {
  std::vector<std::string_view> names;
  for (const std::string& c : columns) {
    std::string_view n = c;
    while (!n.empty() && (n.front() == '#' || n.front() == ' ')) n.remove_prefix(1);
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    names.push_back(n);
  }
  return names;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool looks_like_dmon(std::string_view head) {
  std::size_t pos = 0;
  while (pos < head.size()) {
    const std::size_t end = std::min(head.find('\n', pos), head.size());
    const std::string_view line = head.substr(pos, end - pos);
    pos = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const auto body = comment_body(line);
    if (!body) return false;
    std::vector<std::string_view> fields;
    split_fields(*body, fields);
    return is_names_line(fields);
  }
  return false;
}

bool names_dmon_columns(const std::vector<std::string>& columns) { return is_names_line(column_names(columns)); }

NvidiaSmiDmonParser::NvidiaSmiDmonParser(std::string origin, Report report, std::optional<double> interval_s,
                                         const std::vector<std::string>& columns)
    : origin_(std::move(origin)), report_(std::move(report)), interval_s_(interval_s) {
  if (interval_s_ && !(*interval_s_ > 0)) throw InputError(origin_ + ": --interval must be positive");
  if (columns.empty()) return;
  const std::vector<std::string_view> names = column_names(columns);
  if (!is_names_line(names))
    throw std::invalid_argument("--columns for nvidia-smi dmon output must name its gpu column (e.g. "
                                "Date,Time,gpu,pwr,gtemp,mtemp,sm,mem,enc,dec,mclk,pclk for -s puc -o DT)");
  set_columns(names, origin_ + " (--columns)");  // a header line in the file still replaces them
}

void NvidiaSmiDmonParser::bad(std::size_t line_no, std::string message) {
  report_({at(origin_, line_no), std::move(message), true});
}

void NvidiaSmiDmonParser::set_columns(const std::vector<std::string_view>& names, const std::string& where) {
  columns_.clear();
  has_date_ = has_time_ = false;
  std::string ignored;
  for (std::string_view n : names) {
    const auto spec = std::find_if(kFields.begin(), kFields.end(), [&](const FieldSpec& f) { return f.name == n; });
    if (spec == kFields.end()) {
      columns_.push_back({Kind::Ignored, {}, std::string(n), ""});
      ignored += (ignored.empty() ? "" : ", ") + std::string(n);
      continue;
    }
    columns_.push_back({spec->kind, spec->signal, std::string(n), spec->unit});
    has_date_ = has_date_ || spec->kind == Kind::Date;
    has_time_ = has_time_ || spec->kind == Kind::Time;
  }
  if (!ignored.empty())
    report_({where, "ignoring columns the classifier does not use: " + ignored, false});
}

std::optional<double> NvidiaSmiDmonParser::row_time(std::string_view date, std::string_view time,
                                                    std::size_t line_no) {
  std::string text = "1970/01/01";
  if (has_date_) {
    if (date.size() != 8 || !all_digits(date)) {
      bad(line_no, "date '" + std::string(date.substr(0, 40)) + "' is not of the form YYYYMMDD");
      return std::nullopt;
    }
    text = std::string(date.substr(0, 4)) + "/" + std::string(date.substr(4, 2)) + "/" + std::string(date.substr(6, 2));
  }
  const auto t = parse_timestamp(text + " " + std::string(time));
  if (!t || time.size() < 8) {
    bad(line_no, "time '" + std::string(time.substr(0, 40)) + "' is not of the form HH:MM:SS");
    return std::nullopt;
  }
  if (has_date_) return t;
  // Time of day only: the clock running back by more than half a day is midnight passing.
  if (last_time_of_day_s_ >= 0 && *t < last_time_of_day_s_ - 43200) day_offset_s_ += 86400;
  last_time_of_day_s_ = *t;
  return *t + day_offset_s_;
}

bool NvidiaSmiDmonParser::parse_line(std::string_view line, std::size_t line_no, Sample& out) {
  if (const auto body = comment_body(line)) {
    split_fields(*body, fields_);
    // The names line sets the columns; dmon repeats it (and its units line) every few screens.
    if (is_names_line(fields_) && *body != header_) {
      set_columns(fields_, at(origin_, line_no));
      header_ = std::string(*body);
    }
    return false;
  }
  split_fields(line, fields_);
  if (fields_.empty()) return false;
  if (columns_.empty())
    throw InputError(at(origin_, line_no) + ": a row before dmon's header line (\"# gpu pwr ...\"); not nvidia-smi "
                     "dmon output, or its first lines are missing (for --format csv,noheader, give its --columns)");
  if (!has_time_ && !interval_s_) {
    const std::string why =
        "nvidia-smi dmon output without a time column (record it with -o DT, or give --interval SECONDS, the -d it "
        "was run with)";
    if (gpus_.empty()) throw InputError(at(origin_, line_no) + ": " + why);
    bad(line_no, why);  // a later run appended without -o: what was read stays
    return false;
  }
  if (fields_.size() != columns_.size()) {
    bad(line_no, "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields_.size()));
    return false;
  }

  std::string_view date, time, index;
  out.values = {};
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const Column& col = columns_[i];
    const std::string_view v = fields_[i];
    switch (col.kind) {
      case Kind::Ignored: break;
      case Kind::Date: date = v; break;
      case Kind::Time: time = v; break;
      case Kind::Index: index = v; break;
      case Kind::Value: {
        if (v == "-") break;  // dmon's "not available"
        double value = 0;
        const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        if (ec != std::errc{} || !std::isfinite(value)) {
          bad(line_no, col.name + ": '" + std::string(v.substr(0, 40)) + "' is not a finite number");
          return false;
        }
        std::string_view unit = v.substr(static_cast<std::size_t>(p - v.data()));
        while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
        if (!unit.empty() && unit != col.unit) {
          bad(line_no, col.name + ": '" + std::string(v.substr(0, 40)) + "' is not a number of " + std::string(col.unit));
          return false;
        }
        if (const std::string why = implausible(col.signal, value); !why.empty()) {
          bad(line_no, col.name + ": " + why);
          return false;
        }
        out.values.set(col.signal, value);
        break;
      }
    }
  }

  int gpu_index = -1;
  const auto [p, ec] = std::from_chars(index.data(), index.data() + index.size(), gpu_index);
  if (index.empty() || ec != std::errc{} || p != index.data() + index.size() || gpu_index < 0 || gpu_index > 100000) {
    bad(line_no, "GPU index '" + std::string(index.substr(0, 40)) + "' is not a small non-negative integer");
    return false;
  }
  const auto found = gpus_.find_or_add(gpu_index, [&] { return gpu_of_index(gpu_index); }, {-INFINITY, 0});
  if (found == nullptr) {
    bad(line_no, "more than " + std::to_string(gpus_.kMaxGpus) + " distinct GPUs in one file");
    return false;
  }
  GpuRows* gpu = &found->state;

  if (has_time_) {
    const auto t = row_time(date, time, line_no);
    if (!t) return false;
    out.time_s = *t;
  } else {
    out.time_s = static_cast<double>(gpu->rows) * *interval_s_;
    interval_used_ = true;
  }
  if (out.time_s > kMaxTraceTimeS) {  // midnights or rows past year 9999: windows could not advance
    bad(line_no, "time runs past the year 9999");
    return false;
  }
  if (out.time_s < gpu->last_time_s) {
    bad(line_no, "GPU " + std::to_string(gpu_index) + " time goes back (" + format_nvidia_smi_time(out.time_s) +
                     " after " + format_nvidia_smi_time(gpu->last_time_s) + ")");
    return false;
  }
  ++gpu->rows;
  gpu->last_time_s = out.time_s;
  out.gpu = found->ref;
  return true;
}

}  // namespace wt
