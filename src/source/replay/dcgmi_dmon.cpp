#include "source/replay/dcgmi_dmon.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "source/replay/jsonl_trace.hpp"
#include "source/replay/nvidia_smi_csv.hpp"

namespace wt {

namespace {

// dcgmi's short field names (dcgm_fields.cpp) and the signal each carries. `rank` orders two
// fields of one signal: the device counter (GPUTL, MCUTL) before the profiling ratio, as the
// exporter path does (dcgm_fields.cpp here).
struct FieldRule {
  std::string_view name;
  Signal signal;
  double scale;  // into the signal's unit
  int rank;
};

constexpr std::array<FieldRule, 13> kRules{{
    {"GPUTL", Signal::GpuUtil, 1, 0},      // 203, %
    {"GRACT", Signal::GpuUtil, 100, 1},    // 1001, ratio of time busy
    {"MCUTL", Signal::MemUtil, 1, 0},      // 204, %
    {"DRAMA", Signal::MemUtil, 100, 1},    // 1005, ratio of cycles
    {"FBUSD", Signal::MemUsed, 1, 0},      // 252, MiB
    {"FBTTL", Signal::MemTotal, 1, 0},     // 250, MiB
    {"POWER", Signal::Power, 1, 0},        // 155, W
    {"PMLMT", Signal::PowerLimit, 1, 0},   // 160, W
    {"TMPTR", Signal::Temperature, 1, 0},  // 150, C
    {"SMCLK", Signal::SmClock, 1, 0},      // 100, MHz
    {"MMCLK", Signal::MemClock, 1, 0},     // 101, MHz
    {"PCITX", Signal::PcieTx, 1e-6, 0},    // 1009, bytes/s
    {"PCIRX", Signal::PcieRx, 1e-6, 0},    // 1010, bytes/s
}};

int rule_index(std::string_view name) {
  for (std::size_t i = 0; i < kRules.size(); ++i)
    if (kRules[i].name == name) return static_cast<int>(i);
  return -1;
}

// The words of a line and where each starts.
std::vector<std::pair<std::string_view, std::size_t>> words(std::string_view line) {
  std::vector<std::pair<std::string_view, std::size_t>> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start), start);
  }
  return out;
}

// "#Entity" (DCGM 3 and later) or "# Entity" (DCGM 2, right-aligned).
bool is_header(std::string_view line) {
  line = trim_blanks(line);
  if (!line.starts_with('#')) return false;
  return trim_blanks(line.substr(1)).starts_with("Entity");
}

}  // namespace

bool looks_like_dcgmi_dmon(std::string_view head) {
  while (!head.empty()) {
    const auto eol = head.find('\n');
    const std::string_view line = trim_blanks(head.substr(0, eol));
    head = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 1);
    if (!line.empty()) return is_header(line);
  }
  return false;
}

DcgmiDmonParser::DcgmiDmonParser(std::string origin, Report report, std::optional<double> interval_s)
    : origin_(std::move(origin)), report_(std::move(report)) {
  if (!interval_s)
    throw InputError(origin_ +
                     ": dcgmi dmon output carries no timestamps; give --interval SECONDS, the -d it was run with "
                     "(in seconds), so its rows can be placed in time");
  if (!(*interval_s > 0)) throw InputError(origin_ + ": --interval must be positive");
  interval_s_ = *interval_s;
}

void DcgmiDmonParser::bad(std::size_t line_no, std::string message) {
  report_({at(origin_, line_no), std::move(message), true});
}

void DcgmiDmonParser::set_columns(std::string_view header, std::size_t line_no) {
  columns_.clear();
  std::string ignored;
  const auto names = words(header);
  // The first word is "#Entity", or "#" then "Entity".
  const std::size_t first = names.size() > 1 && names[0].first == "#" ? 2 : 1;
  // dcgmi watches a few dozen fields at most; each row is read against every column.
  constexpr std::size_t kMaxColumns = 256;
  if (names.size() - first > kMaxColumns) {
    bad(line_no, "a header of more than " + std::to_string(kMaxColumns) + " columns; not dcgmi dmon output");
    return;
  }
  for (std::size_t i = first; i < names.size(); ++i) {
    const auto [name, offset] = names[i];
    const int rule = rule_index(name);
    columns_.push_back({std::string(name), offset, rule});
    if (rule < 0) ignored += (ignored.empty() ? "" : ", ") + std::string(name);
  }
  if (!ignored.empty())
    report_({at(origin_, line_no), "ignoring columns the classifier does not use: " + ignored, false});
}

bool DcgmiDmonParser::parse_line(std::string_view line, std::size_t line_no, Sample& out) {
  const std::string_view text = trim_blanks(line);
  if (text.empty()) return false;
  if (is_header(text)) {
    if (text != header_) {
      set_columns(line, line_no);
      header_ = std::string(text);
    }
    return false;
  }
  // The units line ("ID  W  C", "Id" in DCGM 2), and what dcgmi says when stopped.
  if (text.starts_with("ID") || text.starts_with("Id") || text.find("dmon was stopped") != std::string_view::npos)
    return false;
  if (columns_.empty()) {
    bad(line_no, "a line before dcgmi dmon's header (\"#Entity ...\"); skipped");
    return false;
  }
  const auto cells = words(line);
  if (cells.size() < 2 || cells[0].first != "GPU") {
    static constexpr std::array<std::string_view, 8> kEntities{"GPU-I", "GPU-CI", "vGPU", "Switch",
                                                               "LINK",  "CPU",    "CX",   "UNKNOWN"};
    if (!cells.empty() && std::find(kEntities.begin(), kEntities.end(), cells[0].first) != kEntities.end()) {
      if (!other_entities_noted_)
        report_({at(origin_, line_no), "rows of entities other than whole GPUs (" + std::string(cells[0].first) +
                                           ", ...) are skipped", false});
      other_entities_noted_ = true;
      return false;
    }
    bad(line_no, "not a dcgmi dmon row (\"GPU N ...\"); skipped");
    return false;
  }
  int index = -1;
  const std::string_view id = cells[1].first;
  const auto [p, ec] = std::from_chars(id.data(), id.data() + id.size(), index);
  if (ec != std::errc() || p != id.data() + id.size() || index < 0 || index > 100000) {
    bad(line_no, "GPU '" + std::string(id.substr(0, 40)) + "' is not a small non-negative integer; skipped");
    return false;
  }

  // Each column's cell: by word when every column has one; else by where the header puts its
  // name (a blank cell, for a field the GPU has no value of, leaves no word).
  const bool by_word = cells.size() == columns_.size() + 2;
  out.values = {};
  std::array<int, kSignals.size()> rank{};
  rank.fill(1 << 20);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const Column& col = columns_[i];
    if (col.rule < 0) continue;
    std::string_view cell;
    if (by_word) {
      cell = cells[i + 2].first;
    } else if (col.offset < line.size()) {
      const std::size_t end = i + 1 < columns_.size() ? columns_[i + 1].offset : line.size();
      cell = trim_blanks(line.substr(col.offset, end - col.offset));
    }
    if (cell.empty() || cell.starts_with("N/")) continue;  // N/A; N/S and N/W in older releases
    double v = 0;
    const auto [q, ecv] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ecv != std::errc() || q != cell.data() + cell.size() || !std::isfinite(v)) {
      bad(line_no, col.name + ": '" + std::string(cell.substr(0, 40)) + "' is not a number; left missing");
      continue;
    }
    const FieldRule& rule = kRules[static_cast<std::size_t>(col.rule)];
    v *= rule.scale;
    if (const std::string why = implausible(rule.signal, v); !why.empty()) {
      bad(line_no, col.name + ": " + why + "; left missing");
      continue;
    }
    int& best = rank[static_cast<std::size_t>(rule.signal)];
    if (rule.rank < best) {
      best = rule.rank;
      out.values.set(rule.signal, v);
    }
  }

  const auto gpu = gpus_.find_or_add(index, [&] { return gpu_of_index(index); }, 0L);
  if (gpu == nullptr) {
    bad(line_no, "more than " + std::to_string(gpus_.kMaxGpus) + " distinct GPUs in one file");
    return false;
  }
  out.time_s = static_cast<double>(gpu->state) * interval_s_;
  if (out.time_s > kMaxTraceTimeS) {
    bad(line_no, "time runs past the year 9999");
    return false;
  }
  ++gpu->state;
  out.gpu = gpu->ref;
  return true;
}

}  // namespace wt
