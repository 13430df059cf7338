// Parses what AMD's command-line tools print, so recorded AMD logs can be classified:
//   rocm-smi --csv   ("device,GPU use (%),..." then "card0,..." rows; the header again for
//                     every invocation when a loop appends runs to one file)
//   rocm-smi --json  (one object a line: {"card0": {...}, "card1": {...}, "system": {...}})
//   rocm-smi text    ("GPU[0]\t\t: GPU use (%): 98" lines under "=== ROCm System Management
//                     Interface ===" banners, one run a snapshot: rocm-smi --showuse ... in a loop)
//   amd-smi metric --csv  ("gpu,gfx_activity,..." or, with -w, "timestamp,gpu,...")
//   amd-smi metric --json (an indented JSON array of one object per GPU, values as
//                     {"value": 98, "unit": "%"}; with -w one array per snapshot, each object
//                     with a "timestamp", or one array of them all when written with --file)
// Which column means what, and where each layout comes from: docs/amd.md.
//
// rocm-smi prints no time, and amd-smi prints none outside its watch mode, so a file without
// a timestamp column needs the time between snapshots (`interval_s`): snapshot k (k-th header
// line, k-th JSON line, or k-th run of text) is then at k x interval_s seconds after 1970-01-01 00:00:00, a
// documented stand-in origin. Without it such a file is refused: its times cannot be known.
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"
#include "source/replay/gpus_by_index.hpp"

namespace wt {

enum class AmdToolLayout { RocmSmiCsv, RocmSmiJson, RocmSmiText, AmdSmiCsv, AmdSmiJson };
inline bool is_amd_smi(AmdToolLayout l) { return l == AmdToolLayout::AmdSmiCsv || l == AmdToolLayout::AmdSmiJson; }

// The layout of the first meaningful lines of a file, if it is one of these.
std::optional<AmdToolLayout> detect_amd_tool_layout(std::string_view head);
// rocm-smi's banner with no GPU[N] line under it: the summary table `rocm-smi` prints without
// options, which is not read (its columns change between releases and name no units).
bool is_rocm_smi_summary_table(std::string_view head);

class AmdToolLogParser {
 public:
  using Report = std::function<void(Diagnostic)>;

  // `interval_s`: seconds between snapshots, for files without timestamps (nullopt: none given).
  AmdToolLogParser(std::string origin, Report report, AmdToolLayout layout, std::optional<double> interval_s);
  ~AmdToolLogParser();
  AmdToolLogParser(const AmdToolLogParser&) = delete;
  AmdToolLogParser& operator=(const AmdToolLogParser&) = delete;

  // Parses one line. Returns true with `out` filled for a sample; false for a header, a blank
  // or ignored line, or a bad line (then reported, naming file and line). A JSON line holds
  // every GPU: the first comes back here, the others from take_pending().
  bool parse_line(std::string_view line, std::size_t line_no, Sample& out);
  bool take_pending(Sample& out);
  // After the last line: reports an amd-smi JSON document left unfinished, and gives the last
  // run of rocm-smi text (to take_pending()) when no banner closed it.
  void end_of_input();
  // Whether a snapshot was placed in time by the interval (it carried no timestamp).
  bool interval_used() const { return interval_used_; }

 private:
  struct Row;
  bool parse_csv(std::string_view line, std::size_t line_no, Sample& out);
  bool parse_json(std::string_view line, std::size_t line_no, Sample& out);
  // rocm-smi text: a run's lines are gathered per GPU, and become samples when it ends.
  bool parse_text(std::string_view line, std::size_t line_no, Sample& out);
  void end_text_run();
  // amd-smi --json documents span lines: gathered until their brackets close, then read.
  bool gather_amd_smi_json(std::string_view line, std::size_t line_no, Sample& out);
  void parse_amd_smi_document();
  // Turns one GPU's fields into a sample; false (reported) when it cannot.
  bool make_sample(const Row& row, std::size_t line_no, Sample& out);
  double snapshot_time(std::size_t line_no);
  void bad(std::size_t line_no, std::string message);

  std::string origin_;
  Report report_;
  AmdToolLayout layout_;
  std::optional<double> interval_s_;
  std::vector<std::string> header_;
  int timestamp_column_ = -1;
  long snapshots_ = 0;  // headers (CSV) or objects (JSON) seen
  bool interval_used_ = false;
  GpusByIndex<double> gpus_;  // the tool's index (cardN, or amd-smi's gpu), and its last time
  std::deque<Sample> pending_;
  std::vector<std::string_view> fields_;
  // The amd-smi JSON document being gathered: its text, first line, bracket depth, whether
  // the scan is inside a string (and after a backslash there), whether it is an array, and
  // the line each of its elements starts on (for errors).
  std::string doc_;
  std::size_t doc_line_ = 0;
  int depth_ = 0;
  bool in_string_ = false, escaped_ = false, doc_too_big_ = false, doc_is_array_ = false;
  std::vector<std::size_t> element_lines_;
  std::vector<Row> text_run_;  // the rocm-smi text run being read: each GPU's fields so far
};

}  // namespace wt
