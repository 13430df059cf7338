#include "source/replay/amd_tool_log.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_parse.hpp"
#include "source/replay/nvidia_smi_csv.hpp"

namespace wt {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
// amd-smi metric -w --file writes one array holding every snapshot, which is read whole: a
// 25.6 MB one peaked at 139 MB of memory (docs/amd.md). Larger than this is refused.
constexpr std::size_t kMaxJsonDocumentBytes = std::size_t{64} << 20;
constexpr int kMaxJsonDepth = 64;

// A column (rocm-smi's own words, or amd-smi's field names) and the signal it carries.
// `rank` orders alternatives for one signal: the lower wins when a row has both (the edge
// sensor before junction/hotspot, which MI200/MI300 report alone).
struct FieldRule {
  std::string_view key;
  Signal signal;
  double scale;  // into the signal's unit
  int rank;
  std::string_view unit;  // amd-smi --json's "unit" for the value (rocm-smi names it in the key)
};

constexpr std::array<FieldRule, 21> kRules{{
    // rocm-smi --showuse / --showmemuse / --showmeminfo vram / --showpower / --showmaxpower /
    // --showtemp / --showclocks
    {"GPU use (%)", Signal::GpuUtil, 1, 0, ""},
    {"GPU memory use (%)", Signal::MemUtil, 1, 0, ""},                  // rsmi_dev_memory_busy_percent_get
    {"GPU Memory Read/Write Activity (%)", Signal::MemUtil, 1, 0, ""},  // its name from ROCm 6
    {"VRAM Total Memory (B)", Signal::MemTotal, 1 / kMiB, 0, ""},
    {"VRAM Total Used Memory (B)", Signal::MemUsed, 1 / kMiB, 0, ""},
    {"Average Graphics Package Power (W)", Signal::Power, 1, 0, ""},
    {"Current Socket Graphics Package Power (W)", Signal::Power, 1, 0, ""},  // MI300, ROCm 6
    {"Max Graphics Package Power (W)", Signal::PowerLimit, 1, 0, ""},
    {"Temperature (Sensor edge) (C)", Signal::Temperature, 1, 0, ""},
    {"Temperature (Sensor junction) (C)", Signal::Temperature, 1, 1, ""},
    {"sclk clock speed:", Signal::SmClock, 1, 0, ""},  // "(1700Mhz)"
    {"mclk clock speed:", Signal::MemClock, 1, 0, ""},
    // amd-smi metric
    {"gfx_activity", Signal::GpuUtil, 1, 0, "%"},
    {"umc_activity", Signal::MemUtil, 1, 0, "%"},
    {"socket_power", Signal::Power, 1, 0, "W"},
    {"gfx_0_clk", Signal::SmClock, 1, 0, "MHz"},
    {"mem_0_clk", Signal::MemClock, 1, 0, "MHz"},
    {"edge", Signal::Temperature, 1, 0, "C"},
    {"hotspot", Signal::Temperature, 1, 1, "C"},
    {"total_vram", Signal::MemTotal, 1, 0, "MB"},  // amd-smi's "MB" are bytes / 1024^2
    {"used_vram", Signal::MemUsed, 1, 0, "MB"},
}};

// Keys that name a GPU rather than measure it (rocm-smi's --showuniqueid, --showbus, --showproductname).
bool names_gpu(std::string_view key) {
  return key == "Unique ID" || key == "PCI Bus" || key == "Card series" || key == "Card Series";
}

const FieldRule* rule_for(std::string_view key) {
  for (const FieldRule& r : kRules)
    if (r.key == key) return &r;
  return nullptr;
}

// Lines the tools print around their data: blank lines, "WARNING: ..." notes, "=====" banners.
bool is_chatter(std::string_view line) {
  line = trim_blanks(line);
  return line.empty() || line.starts_with("WARNING") || line.front() == '=';
}

// The number in a cell: "89.0", "(1700Mhz)", "35 %". nullopt for "N/A", "N/A (Secondary die)"
// and other words (missing, never zero); `bad` is set when the cell starts like a number but
// is not one.
std::optional<double> cell_number(std::string_view v, bool& bad) {
  bad = false;
  v = trim_blanks(v);
  if (!v.empty() && v.front() == '(') v.remove_prefix(1);
  if (v.empty() || v.starts_with("N/A")) return std::nullopt;
  double x = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || !std::isfinite(x)) {
    bad = (v.front() >= '0' && v.front() <= '9') || v.front() == '-' || v.front() == '.';
    return std::nullopt;
  }
  for (const char c : std::string_view(p, static_cast<std::size_t>(v.data() + v.size() - p)))
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '%' || c == ' ' || c == ')' || c == '/')) {
      bad = true;
      return std::nullopt;
    }
  return x;
}

}  // namespace

struct AmdToolLogParser::Row {
  int index = -1;
  std::optional<double> time_s;
  std::vector<std::pair<std::string, std::string>> fields;  // column, cell
  std::vector<std::size_t> field_lines;  // rocm-smi text: the line of each field (else empty)
};

namespace {

constexpr std::string_view kRocmSmiBanner = "ROCm System Management Interface";
constexpr std::string_view kRocmSmiFooter = "End of ROCm SMI Log";

// rocm-smi text's "GPU[3]\t\t: rest" (printLog; "GPU[3] \t\t: " before ROCm 3): the index and the
// rest, trimmed. nullopt for any other line.
std::optional<std::pair<int, std::string_view>> rocm_smi_text_line(std::string_view line) {
  if (!line.starts_with("GPU[")) return std::nullopt;
  const auto close = line.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  int index = -1;
  const auto [p, ec] = std::from_chars(line.data() + 4, line.data() + close, index);
  if (ec != std::errc() || p != line.data() + close || index < 0) return std::nullopt;
  std::string_view rest = trim_blanks(line.substr(close + 1));
  if (!rest.starts_with(':')) return std::nullopt;
  return std::pair{index, trim_blanks(rest.substr(1))};
}

}  // namespace

std::optional<AmdToolLayout> detect_amd_tool_layout(std::string_view head) {
  // rocm-smi text: its banner, then sections whose lines may start with system lines
  // ("Driver version: ..."); or GPU[N] lines alone (a log grepped for them).
  if (head.find(kRocmSmiBanner) != std::string_view::npos)
    for (std::string_view rest = head; !rest.empty();) {
      const auto eol = rest.find('\n');
      if (rocm_smi_text_line(trim_blanks(rest.substr(0, eol)))) return AmdToolLayout::RocmSmiText;
      rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    }
  std::vector<std::string_view> fields;
  while (!head.empty()) {
    const auto eol = head.find('\n');
    const std::string_view line = trim_blanks(head.substr(0, eol));
    head = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 1);
    if (is_chatter(line)) continue;
    if (line.starts_with("device,")) return AmdToolLayout::RocmSmiCsv;
    if (rocm_smi_text_line(line)) return AmdToolLayout::RocmSmiText;
    // amd-smi --json: an array of GPU objects ("[" alone on its line when indented), or an
    // object holding them under "gpu_data" (when CPUs are listed too).
    const bool gpu_key = head.find("\"gpu") != std::string_view::npos || line.find("\"gpu") != std::string_view::npos;
    if (line.front() == '[') return gpu_key ? std::optional(AmdToolLayout::AmdSmiJson) : std::nullopt;
    if (line.front() == '{') {
      if (line.starts_with("{\"card")) return AmdToolLayout::RocmSmiJson;
      if ((line == "{" || line.starts_with("{\"gpu")) && gpu_key) return AmdToolLayout::AmdSmiJson;
      return std::nullopt;
    }
    split_csv(line, fields);
    bool gpu = false, metric = false;
    for (std::string_view f : fields) {
      gpu = gpu || f == "gpu";
      metric = metric || (rule_for(f) != nullptr && f.find(' ') == std::string_view::npos);
    }
    if (gpu && metric) return AmdToolLayout::AmdSmiCsv;
    return std::nullopt;
  }
  return std::nullopt;
}

bool is_rocm_smi_summary_table(std::string_view head) {
  return head.find(kRocmSmiBanner) != std::string_view::npos &&
         detect_amd_tool_layout(head) != AmdToolLayout::RocmSmiText;
}

AmdToolLogParser::AmdToolLogParser(std::string origin, Report report, AmdToolLayout layout,
                                   std::optional<double> interval_s)
    : origin_(std::move(origin)), report_(std::move(report)), layout_(layout), interval_s_(interval_s) {
  if (!is_amd_smi(layout_) && !interval_s_)
    throw InputError(origin_ +
                     ": rocm-smi output carries no timestamps; give --interval SECONDS, the time between its "
                     "snapshots, so they can be placed in time");
  if (interval_s_ && !(*interval_s_ > 0)) throw InputError(origin_ + ": --interval must be positive");
}

AmdToolLogParser::~AmdToolLogParser() = default;

void AmdToolLogParser::bad(std::size_t line_no, std::string message) {
  report_({at(origin_, line_no), std::move(message), true});
}

bool AmdToolLogParser::take_pending(Sample& out) {
  if (pending_.empty()) return false;
  out = std::move(pending_.front());
  pending_.pop_front();
  return true;
}

double AmdToolLogParser::snapshot_time(std::size_t line_no) {
  if (!interval_s_)
    throw InputError(at(origin_, line_no) +
                     ": amd-smi output without timestamps (run it with -w, or give --interval SECONDS, "
                     "the time between its snapshots)");
  interval_used_ = true;
  return static_cast<double>(std::max(snapshots_ - 1, 0L)) * *interval_s_;
}

bool AmdToolLogParser::parse_line(std::string_view line, std::size_t line_no, Sample& out) {
  if (layout_ == AmdToolLayout::AmdSmiJson) return gather_amd_smi_json(line, line_no, out);
  if (layout_ == AmdToolLayout::RocmSmiText) return parse_text(line, line_no, out);
  if (is_chatter(line)) return false;
  return layout_ == AmdToolLayout::RocmSmiJson ? parse_json(line, line_no, out) : parse_csv(line, line_no, out);
}

bool AmdToolLogParser::gather_amd_smi_json(std::string_view line, std::size_t line_no, Sample& out) {
  if (depth_ == 0 && is_chatter(line)) return false;
  std::size_t from = 0;  // start of the part of `line` that belongs to the current document
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (depth_ == 0) {  // between documents: only whitespace, or the start of the next one
      if (c == ' ' || c == '\t' || c == '\r') continue;
      if (c != '[' && c != '{') {
        bad(line_no, "not part of an amd-smi --json document; rest of the line skipped");
        break;
      }
      from = i;
      doc_.clear();
      doc_line_ = line_no;
      doc_too_big_ = false;
      element_lines_.clear();
    }
    if (in_string_) {
      if (escaped_)
        escaped_ = false;
      else if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        in_string_ = false;
      continue;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '[' || c == '{') {
      if (depth_ == kMaxJsonDepth) {  // amd-smi nests 6 deep at most: not its output
        bad(doc_line_, "amd-smi JSON document nested deeper than " + std::to_string(kMaxJsonDepth) + "; skipped");
        depth_ = 0;
        doc_.clear();
        break;
      }
      if (depth_ == 0) doc_is_array_ = c == '[';
      if (depth_ == 1 && c == '{' && doc_is_array_) element_lines_.push_back(line_no);
      ++depth_;
    } else if (c == ']' || c == '}') {
      if (--depth_ == 0) {
        if (!doc_too_big_) doc_.append(line.substr(from, i + 1 - from));
        parse_amd_smi_document();
        from = i + 1;
      }
    }
  }
  if (depth_ > 0 && !doc_too_big_) {
    doc_.append(line.substr(from)).push_back('\n');
    if (doc_.size() > kMaxJsonDocumentBytes) {
      doc_too_big_ = true;
      doc_.clear();
      bad(doc_line_, "amd-smi JSON document over " + std::to_string(kMaxJsonDocumentBytes >> 20) +
                         " MiB; skipped (write one snapshot a document: amd-smi metric -w without --file)");
    }
  }
  return take_pending(out);
}

// One whole document: the GPU objects of its array (or of its "gpu_data"), each a sample. The
// values are flattened to the keys of amd-smi's own CSV (clock -> gfx_0 -> clk is gfx_0_clk),
// so one table of fields serves both.
void AmdToolLogParser::parse_amd_smi_document() {
  if (doc_too_big_) return;
  const nlohmann::json doc = wt::parse_json(doc_);
  doc_.clear();
  if (doc.is_discarded()) {
    bad(doc_line_, "amd-smi JSON document that is not valid JSON; skipped");
    return;
  }
  const nlohmann::json* gpus = &doc;
  if (doc.is_object() && doc.contains("gpu_data")) gpus = &doc["gpu_data"];
  nlohmann::json single = nlohmann::json::array();
  if (gpus->is_object() && gpus->contains("gpu")) {
    single.push_back(*gpus);
    gpus = &single;
  }
  if (!gpus->is_array()) {
    bad(doc_line_, "not amd-smi metric --json output (no array of GPUs); document skipped");
    return;
  }
  ++snapshots_;
  for (std::size_t k = 0; k < gpus->size(); ++k) {
    const nlohmann::json& g = (*gpus)[k];
    const std::size_t line_no = k < element_lines_.size() ? element_lines_[k] : doc_line_;
    const auto gpu = g.is_object() ? g.find("gpu") : g.end();
    if (!g.is_object() || gpu == g.end() || !gpu->is_number_unsigned() || *gpu > 1'000'000) {
      bad(line_no, "not a GPU of amd-smi --json (no \"gpu\" index); skipped");
      continue;
    }
    Row row;
    row.index = gpu->get<int>();
    if (const auto t = g.find("timestamp"); t != g.end()) {
      if (!t->is_number() || !std::isfinite(t->get<double>())) {
        bad(line_no, "timestamp " + t->dump() + " is not a number of seconds; skipped");
        continue;
      }
      row.time_s = t->get<double>();
    }
    auto field = [&](const std::string& key, const nlohmann::json& v) {
      const FieldRule* rule = rule_for(key);
      if (rule == nullptr || rule->unit.empty()) return;
      const nlohmann::json* value = &v;
      if (v.is_object() && v.contains("value")) {
        value = &v["value"];
        const auto unit = v.find("unit");
        const std::string u = unit != v.end() && unit->is_string() ? unit->get<std::string>() : std::string(rule->unit);
        if (u != rule->unit && !(rule->unit == "C" && u == "\u00b0C")) {
          bad(line_no, key + ": unit '" + u + "' where '" + std::string(rule->unit) + "' was expected; left missing");
          return;
        }
      }
      if (value->is_number())
        row.fields.emplace_back(key, value->dump());
      else if (value->is_string())
        row.fields.emplace_back(key, value->get<std::string>());
      else
        bad(line_no, key + ": " + value->dump().substr(0, 40) + " is not a number; left missing");
    };
    for (const auto& [group, members] : g.items()) {
      if (!members.is_object()) continue;  // "gpu", "timestamp", or a whole group "N/A"
      for (const auto& [key, v] : members.items()) {
        if (v.is_object() && !v.contains("value")) {  // clock: {"gfx_0": {"clk": {...}, ...}}
          for (const auto& [sub, w] : v.items()) field(key + "_" + sub, w);
        } else {
          field(key, v);
        }
      }
    }
    Sample s;
    if (make_sample(row, line_no, s)) pending_.push_back(std::move(s));
  }
}

void AmdToolLogParser::end_of_input() {
  if (layout_ == AmdToolLayout::RocmSmiText) end_text_run();
  if (layout_ != AmdToolLayout::AmdSmiJson || depth_ == 0) return;
  bad(doc_line_, "amd-smi JSON document not finished at the end of the file; skipped");
  depth_ = 0;  // reported once
}

bool AmdToolLogParser::parse_csv(std::string_view line, std::size_t line_no, Sample& out) {
  split_csv(line, fields_);
  const bool rocm = layout_ == AmdToolLayout::RocmSmiCsv;
  const bool header =
      rocm ? fields_.front() == "device" : std::find(fields_.begin(), fields_.end(), "gpu") != fields_.end();
  if (header) {
    header_.assign(fields_.begin(), fields_.end());
    timestamp_column_ = -1;
    for (std::size_t i = 0; i < header_.size(); ++i)
      if (header_[i] == "timestamp") timestamp_column_ = static_cast<int>(i);
    ++snapshots_;
    return false;
  }
  if (header_.empty()) {
    bad(line_no, "data before the header line; line skipped");
    return false;
  }
  if (fields_.size() != header_.size()) {
    bad(line_no, std::to_string(fields_.size()) + " fields, but the header has " + std::to_string(header_.size()) +
                     "; line skipped");
    return false;
  }
  Row row;
  for (std::size_t i = 0; i < header_.size(); ++i) {
    const std::string_view key = header_[i];
    const std::string_view value = fields_[i];
    if ((rocm && i == 0) || (!rocm && key == "gpu")) {
      std::string_view digits = rocm && value.starts_with("card") ? value.substr(4) : value;
      if (rocm && !value.starts_with("card")) digits = {};
      int index = -1;
      const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
      if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size() || index < 0) {
        bad(line_no, "'" + std::string(value) + "' is not a GPU (" + (rocm ? "cardN" : "an index") + "); line skipped");
        return false;
      }
      row.index = index;
    } else if (static_cast<int>(i) == timestamp_column_) {
      bool malformed = false;
      row.time_s = cell_number(value, malformed);
      if (!row.time_s) {
        bad(line_no, "timestamp '" + std::string(value) + "' is not a number of seconds; line skipped");
        return false;
      }
    } else {
      row.fields.emplace_back(std::string(key), std::string(value));
    }
  }
  return make_sample(row, line_no, out);
}

bool AmdToolLogParser::parse_json(std::string_view line, std::size_t line_no, Sample& out) {
  nlohmann::json doc = wt::parse_json(line);
  if (doc.is_discarded() || !doc.is_object()) {
    bad(line_no, "not a rocm-smi --json object; line skipped");
    return false;
  }
  ++snapshots_;
  std::vector<Row> rows;
  for (const auto& [card, fields] : doc.items()) {
    if (card == "system") continue;
    int index = -1;
    const std::string_view digits = std::string_view(card).substr(card.starts_with("card") ? 4 : 0);
    const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (!card.starts_with("card") || ec != std::errc() || p != digits.data() + digits.size() || !fields.is_object()) {
      bad(line_no, "'" + card + "' is not a card of rocm-smi --json; skipped");
      continue;
    }
    Row row;
    row.index = index;
    for (const auto& [key, value] : fields.items())
      if (value.is_string() || value.is_number())
        row.fields.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
    rows.push_back(std::move(row));
  }
  bool first = true;
  for (const Row& row : rows) {
    Sample s;
    if (!make_sample(row, line_no, s)) continue;
    if (first) {
      out = std::move(s);
      first = false;
    } else {
      pending_.push_back(std::move(s));
    }
  }
  return !first;
}

// A run of rocm-smi prints its sections one after the other (temperatures, clocks, power, use
// ...), each listing every GPU, so a GPU's sample is whole only when the run ends: at its footer
// banner, the next run's banner, a GPU naming a field a second time (runs logged without
// banners) or the end of the file.
bool AmdToolLogParser::parse_text(std::string_view line, std::size_t line_no, Sample& out) {
  if (line.find(kRocmSmiBanner) != std::string_view::npos || line.find(kRocmSmiFooter) != std::string_view::npos) {
    end_text_run();
    return take_pending(out);
  }
  // Anything else without a GPU: section rules, system lines ("Driver version: ..."), notes
  // ("Primary die ... shows total ... power"), errors logged as "ERROR: GPU[0]\t: ...".
  const auto gpu_line = rocm_smi_text_line(line);
  if (!gpu_line) return false;
  const int index = gpu_line->first;  // not a structured binding: clang 14 cannot capture those
  const std::string_view rest = gpu_line->second;
  // "KEY: VALUE"; a key alone is a value rocm-smi could not read ("GPU use Unsupported").
  const auto colon = rest.find(": ");
  if (colon == std::string_view::npos) return false;
  std::string key(rest.substr(0, colon));
  std::string_view value = trim_blanks(rest.substr(colon + 2));
  // "sclk clock level: 3: (1158Mhz)" (-c), "sclk clock level: 3 (1158Mhz)" (-g, ROCm 2): the
  // frequency, as --json gives it under "sclk clock speed:".
  if (key == "sclk clock level" || key == "mclk clock level") {
    const auto paren = value.find('(');
    if (paren == std::string_view::npos) return false;
    key = key.substr(0, 4) + " clock speed:";
    value = value.substr(paren);
  }
  // Only what is read is kept, so a GPU's fields stay few however long the run.
  if (rule_for(key) == nullptr && !names_gpu(key)) return false;
  auto row = std::find_if(text_run_.begin(), text_run_.end(), [&](const Row& r) { return r.index == index; });
  if (row != text_run_.end() &&
      std::any_of(row->fields.begin(), row->fields.end(), [&](const auto& f) { return f.first == key; })) {
    end_text_run();
    row = text_run_.end();
  }
  if (text_run_.empty()) ++snapshots_;
  if (row == text_run_.end()) {
    if (text_run_.size() >= gpus_.kMaxGpus) {
      bad(line_no, "more than " + std::to_string(gpus_.kMaxGpus) + " GPUs in one run; line skipped");
      return take_pending(out);
    }
    text_run_.emplace_back().index = index;
    row = text_run_.end() - 1;
  }
  row->fields.emplace_back(std::move(key), std::string(value));
  row->field_lines.push_back(line_no);
  return take_pending(out);
}

void AmdToolLogParser::end_text_run() {
  for (const Row& row : text_run_) {
    Sample s;
    if (make_sample(row, row.field_lines.front(), s)) pending_.push_back(std::move(s));
  }
  text_run_.clear();
}

bool AmdToolLogParser::make_sample(const Row& row, std::size_t line_no, Sample& out) {
  const double time_s = row.time_s ? *row.time_s : snapshot_time(line_no);
  const auto known = gpus_.find_or_add(
      row.index,
      [&] {
        auto id = std::make_shared<GpuIdentity>();
        id->index = row.index;
        for (const auto& [key, value] : row.fields) {
          if (value.starts_with("N/A")) continue;
          if (key == "Unique ID") id->uuid = value;
          if (key == "PCI Bus") id->pci_bus_id = value;
          if (key == "Card series" || key == "Card Series") id->name = value;
        }
        return GpuRef(std::move(id));
      },
      -1e300);
  if (known == nullptr) {
    bad(line_no, "more than " + std::to_string(gpus_.kMaxGpus) + " distinct GPUs in one file; skipped");
    return false;
  }
  // Each GPU once a snapshot: a second row of it before the next header cannot be given a time.
  if (time_s <= known->state) {
    bad(line_no, "GPU " + std::to_string(row.index) +
                     " twice in one snapshot: its time cannot be known (a snapshot without its header line?); "
                     "line skipped");
    return false;
  }
  known->state = time_s;

  SignalValues values;
  std::array<int, kSignals.size()> rank{};
  rank.fill(1 << 20);
  for (std::size_t i = 0; i < row.fields.size(); ++i) {
    const auto& [key, value] = row.fields[i];
    const FieldRule* rule = rule_for(key);
    if (rule == nullptr) continue;
    const std::size_t field_line = i < row.field_lines.size() ? row.field_lines[i] : line_no;
    bool malformed = false;
    const std::optional<double> x = cell_number(value, malformed);
    if (malformed) {
      bad(field_line, std::string(key) + ": '" + std::string(value) + "' is not a number; left missing");
      continue;
    }
    if (!x) continue;
    const double v = *x * rule->scale;
    const SignalInfo& si = info(rule->signal);
    if (v < si.min || v > si.max) {
      bad(field_line, std::string(key) + ": " + std::string(value) + " is outside the plausible range; left missing");
      continue;
    }
    int& best = rank[static_cast<std::size_t>(rule->signal)];
    if (rule->rank < best) {
      best = rule->rank;
      values.set(rule->signal, v);
    }
  }
  out = Sample{{time_s, std::move(values)}, known->ref};
  return true;
}

}  // namespace wt
