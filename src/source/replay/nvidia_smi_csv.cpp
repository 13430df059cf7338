#include "source/replay/nvidia_smi_csv.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "core/time_format.hpp"

namespace wt {
namespace {

using Kind = CsvColumn::Kind;

struct FieldSpec {
  std::string_view name;
  Kind kind;
  Signal signal;
  std::string_view unit;
};

// nvidia-smi --query-gpu field names (and their aliases) that carry what we read, plus the
// project's own columns for signals nvidia-smi cannot query (PCIe/NVLink rates, processes).
constexpr std::array<FieldSpec, 29> kFields{{
    {"timestamp", Kind::Timestamp, {}, ""},
    {"index", Kind::Index, {}, ""},
    {"uuid", Kind::Uuid, {}, ""},
    {"gpu_uuid", Kind::Uuid, {}, ""},
    {"name", Kind::Name, {}, ""},
    {"gpu_name", Kind::Name, {}, ""},
    {"pci.bus_id", Kind::PciBusId, {}, ""},
    {"gpu_bus_id", Kind::PciBusId, {}, ""},
    {"host", Kind::Host, {}, ""},  // WorkloadTruth's own: the node, where a source named it
    {"utilization.gpu", Kind::Value, Signal::GpuUtil, "%"},
    {"utilization.memory", Kind::Value, Signal::MemUtil, "%"},
    {"memory.used", Kind::Value, Signal::MemUsed, "MiB"},
    {"memory.total", Kind::Value, Signal::MemTotal, "MiB"},
    {"power.draw", Kind::Value, Signal::Power, "W"},
    {"power.draw.average", Kind::Value, Signal::Power, "W"},
    {"power.draw.instant", Kind::Value, Signal::Power, "W"},
    {"power.limit", Kind::Value, Signal::PowerLimit, "W"},
    {"enforced.power.limit", Kind::Value, Signal::PowerLimit, "W"},
    {"temperature.gpu", Kind::Value, Signal::Temperature, "C"},
    {"clocks.sm", Kind::Value, Signal::SmClock, "MHz"},
    {"clocks.current.sm", Kind::Value, Signal::SmClock, "MHz"},
    {"clocks.mem", Kind::Value, Signal::MemClock, "MHz"},
    {"clocks.current.memory", Kind::Value, Signal::MemClock, "MHz"},
    {"pcie.tx", Kind::Value, Signal::PcieTx, "MB/s"},
    {"pcie.rx", Kind::Value, Signal::PcieRx, "MB/s"},
    {"nvlink.tx", Kind::Value, Signal::NvlinkTx, "MB/s"},
    {"nvlink.rx", Kind::Value, Signal::NvlinkRx, "MB/s"},
    {"processes.count", Kind::Value, Signal::ProcessCount, ""},
    {"count", Kind::Ignored, {}, ""},  // GPU count: constant, says nothing of the workload
}};

// nvidia-smi writes "[N/A]", "[Not Supported]", "[Unknown Error]", "[GPU is lost]" where a
// value cannot be read: the signal is missing for that sample, not zero.
bool is_missing(std::string_view v) { return v.empty() || v.front() == '[' || v == "N/A"; }

// A line of names, not values: every field non-empty and none starting like a number.
bool all_names(const std::vector<std::string_view>& fields) {
  for (std::string_view f : fields) {
    if (f.empty()) return false;
    const char c = f.front();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == '[') return false;
  }
  return true;
}

bool names_a_field(const std::vector<std::string_view>& fields) {
  return std::any_of(fields.begin(), fields.end(),
                     [](std::string_view f) { return csv_column_for(f).kind != CsvColumn::Kind::Ignored; });
}

// A header names at least one column we know and no field starts like a value.
bool looks_like_header(const std::vector<std::string_view>& fields) {
  return all_names(fields) && names_a_field(fields);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void split_csv(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  const bool quoted = line.find('"') != std::string_view::npos;
  std::size_t pos = 0;
  for (;;) {
    std::size_t end;
    const std::string_view rest = trim_blanks(line.substr(pos));
    if (quoted && !rest.empty() && rest.front() == '"') {
      // Quoted field (our writer quotes names that hold commas): up to the closing quote.
      const std::size_t open = line.find('"', pos);
      const std::size_t close = line.find('"', open + 1);
      end = close == std::string_view::npos ? std::string_view::npos : line.find(',', close);
      fields.push_back(close == std::string_view::npos ? trim_blanks(line.substr(open + 1))
                                                       : line.substr(open + 1, close - open - 1));
    } else {
      end = line.find(',', pos);
      fields.push_back(trim_blanks(line.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos)));
    }
    if (end == std::string_view::npos) return;
    pos = end + 1;
  }
}

CsvColumn csv_column_for(std::string_view header_field) {
  CsvColumn col;
  col.header = std::string(header_field);
  std::string_view name = trim_blanks(header_field);
  if (const auto bracket = name.find('['); bracket != std::string_view::npos) name = trim_blanks(name.substr(0, bracket));
  const std::string key = lower(name);
  for (const FieldSpec& f : kFields) {
    if (f.name == key) {
      col.kind = f.kind;
      col.signal = f.signal;
      col.unit = f.unit;
      if (f.unit == "MB/s") col.kib_scale = 0.001;
      return col;
    }
  }
  return col;  // Ignored
}

NvidiaSmiCsvParser::NvidiaSmiCsvParser(std::string origin, Report report, std::vector<std::string> columns)
    : origin_(std::move(origin)), report_(std::move(report)) {
  if (!columns.empty()) {
    std::vector<std::string_view> views(columns.begin(), columns.end());
    set_columns(views, 0);
  }
}

void NvidiaSmiCsvParser::bad(std::size_t line_no, std::string message) {
  report_({at(origin_, line_no), std::move(message) + "; line skipped", true});
}

void NvidiaSmiCsvParser::set_columns(const std::vector<std::string_view>& fields, std::size_t line_no) {
  std::vector<CsvColumn> columns;
  int index_col = -1, uuid_col = -1, bus_col = -1;
  bool has_time = false;
  std::string ignored;
  for (std::string_view f : fields) {
    columns.push_back(csv_column_for(f));
    const int i = static_cast<int>(columns.size()) - 1;
    switch (columns.back().kind) {
      case Kind::Timestamp: has_time = true; break;
      case Kind::Index: index_col = i; break;
      case Kind::Uuid: uuid_col = i; break;
      case Kind::PciBusId: bus_col = i; break;
      case Kind::Ignored: ignored += (ignored.empty() ? "" : ", ") + std::string(f); break;
      default: break;
    }
  }
  const std::string where = line_no ? at(origin_, line_no) : origin_ + " (--columns)";
  if (!has_time) {
    const std::string why = "no timestamp column; windows are measured in seconds, so add 'timestamp' to --query-gpu";
    if (columns_.empty()) throw InputError(where + ": " + why);
    bad(line_no, "header line with " + why);  // mid-file: keep reading with the columns we had
    return;
  }
  columns_ = std::move(columns);
  key_column_ = index_col >= 0 ? index_col : uuid_col >= 0 ? uuid_col : bus_col;
  if (!ignored.empty()) report_({where, "ignoring columns the classifier does not use: " + ignored, false});
}

NvidiaSmiCsvParser::KnownGpu* NvidiaSmiCsvParser::intern_gpu(const GpuFields& f, std::size_t line_no) {
  const std::string_view key = key_column_ < 0 ? std::string_view{} : fields_[static_cast<std::size_t>(key_column_)];
  const std::string_view host = is_missing(f.host) ? std::string_view{} : f.host;
  for (KnownGpu& g : gpus_)
    if (g.key == key && g.host == host) return &g;

  constexpr std::size_t kMaxGpus = 4096;
  if (gpus_.size() >= kMaxGpus) {
    bad(line_no, "more than 4096 distinct GPUs in one file");
    return nullptr;
  }
  auto id = std::make_shared<GpuIdentity>();
  if (!is_missing(f.index)) {
    int value = -1;
    const auto [p, ec] = std::from_chars(f.index.data(), f.index.data() + f.index.size(), value);
    if (ec != std::errc{} || p != f.index.data() + f.index.size() || value < 0 || value > 100000) {
      bad(line_no, "GPU index '" + std::string(f.index.substr(0, 40)) + "' is not a small non-negative integer");
      return nullptr;
    }
    id->index = value;
  } else {
    id->index = static_cast<int>(gpus_.size());
  }
  if (!is_missing(f.uuid)) id->uuid = std::string(f.uuid);
  if (!is_missing(f.name)) id->name = std::string(f.name);
  if (!is_missing(f.bus_id)) id->pci_bus_id = std::string(f.bus_id);
  id->host = std::string(host);
  gpus_.push_back({std::string(key), id->host, id, -INFINITY});
  return &gpus_.back();
}

bool NvidiaSmiCsvParser::parse_line(std::string_view line, std::size_t line_no, Sample& out) {
  if (trim_blanks(line).empty()) return false;
  split_csv(line, fields_);
  if (looks_like_header(fields_)) {
    std::string text(line);
    if (text != header_line_) {
      set_columns(fields_, line_no);
      header_line_ = std::move(text);  // a repeat of this line (nvidia-smi -l) is skipped silently
    }
    return false;
  }
  if (columns_.empty() && all_names(fields_)) {
    std::string names;
    for (std::size_t i = 0; i < std::min<std::size_t>(fields_.size(), 4); ++i)
      names += (i ? ", " : "") + std::string(fields_[i].substr(0, 40));
    throw InputError(at(origin_, line_no) + ": the header (" + names + (fields_.size() > 4 ? ", ..." : "") +
                     ") names no nvidia-smi --query-gpu field, such as timestamp, index, utilization.gpu or "
                     "power.draw: not a GPU telemetry log");
  }
  if (columns_.empty())
    throw InputError(at(origin_, line_no) +
                     ": no header line (written with --format=csv,noheader?): pass --columns with the "
                     "--query-gpu field list, e.g. --columns timestamp,index,utilization.gpu,power.draw");
  if (fields_.size() != columns_.size()) {
    bad(line_no, "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields_.size()));
    return false;
  }

  GpuFields gpu_fields;
  bool have_time = false;
  out.values = {};
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const CsvColumn& col = columns_[i];
    const std::string_view v = fields_[i];
    switch (col.kind) {
      case Kind::Ignored: break;
      case Kind::Index: gpu_fields.index = v; break;
      case Kind::Uuid: gpu_fields.uuid = v; break;
      case Kind::Name: gpu_fields.name = v; break;
      case Kind::PciBusId: gpu_fields.bus_id = v; break;
      case Kind::Host: gpu_fields.host = v; break;
      case Kind::Timestamp: {
        const auto t = parse_timestamp(v);
        if (!t) {
          bad(line_no, "timestamp '" + std::string(v.substr(0, 40)) + "' is not of the form YYYY/MM/DD HH:MM:SS.mmm");
          return false;
        }
        out.time_s = *t;
        have_time = true;
        break;
      }
      case Kind::Value: {
        if (is_missing(v)) break;
        double value = 0;
        const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        if (ec != std::errc{} || !std::isfinite(value)) {
          bad(line_no, col.header + ": '" + std::string(v.substr(0, 40)) + "' is not a finite number");
          return false;
        }
        const std::string_view unit = trim_blanks(v.substr(static_cast<std::size_t>(p - v.data())));
        if (!unit.empty() && unit != col.unit) {
          if (col.kib_scale > 0 && unit == "KB/s") {
            value *= col.kib_scale;
          } else {
            bad(line_no, col.header + ": unexpected unit in '" + std::string(v.substr(0, 40)) + "'");
            return false;
          }
        }
        if (const std::string why = implausible(col.signal, value); !why.empty()) {
          bad(line_no, col.header + ": " + why);
          return false;
        }
        out.values.set(col.signal, value);
        break;
      }
    }
  }
  if (!have_time) {
    bad(line_no, "empty timestamp");
    return false;
  }
  if (out.values.has(Signal::MemUsed) && out.values.has(Signal::MemTotal) &&
      out.values.value(Signal::MemUsed) > out.values.value(Signal::MemTotal) * 1.05 + 1) {
    bad(line_no, "memory.used is larger than memory.total");
    return false;
  }
  KnownGpu* gpu = intern_gpu(gpu_fields, line_no);
  if (gpu == nullptr) return false;
  if (out.time_s < gpu->last_time_s) {
    bad(line_no, "GPU " + gpu->ref->label() + " timestamp goes back in time (" +
                     format_nvidia_smi_time(out.time_s) + " after " + format_nvidia_smi_time(gpu->last_time_s) + ")");
    return false;
  }
  gpu->last_time_s = out.time_s;
  out.gpu = gpu->ref;
  return true;
}

}  // namespace wt
