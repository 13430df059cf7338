// What an audit log says in aggregate, for an auditor who must not learn about any one customer:
// GPU-hours, their confidence and energy per observed class, and mismatch alerts, over the log's
// whole period or a period asked for. A figure is published only when at least `min_gpus`
// distinct GPUs contribute to it, and (with `by`) withheld figures cannot be got back by
// subtracting a report's periods from its whole; no GPU, process, pod or container is named, and
// no time finer than the period is given (with `by`, than a day, week or month).
// Read from a log that verify_log_text found valid (a broken log is not summarized).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/log_verifier.hpp"
#include "classify/verdict.hpp"
#include "core/calendar_period.hpp"

namespace wt::audit {

struct ClassTotals {
  WorkloadType type = WorkloadType::Unknown;
  std::size_t gpus = 0;     // distinct GPUs with at least one window of this class
  std::size_t windows = 0;        // verdict entries
  std::size_t timed_windows = 0;  // of which with window times (all but seed-format entries)
  // Telemetry time its windows cover; a window overlapping the GPU's previous one counts only
  // the part after it, so 30 s windows every 15 s add 15 s each. Seed-format entries carry no
  // window times and add windows only.
  double gpu_hours = 0;
  double sure_gpu_hours = 0;  // of which the verdict's confidence was >= 0.9
  // Mean power x covered time, over the windows that recorded power, and how many GPU-hours
  // those were: energy is a proxy for compute, not a count of operations.
  double energy_kwh = 0;
  double energy_gpu_hours = 0;
};

struct MismatchTotals {
  WorkloadType declared = WorkloadType::Unknown, observed = WorkloadType::Unknown;
  std::size_t alerts = 0;  // raised, not cleared, events
  std::size_t gpus = 0;
};

struct SummaryOptions {
  std::size_t min_gpus = 5;
  // The period, on the telemetry's clock: windows count only for their part inside it, alerts
  // when raised inside it. Entries without window times (seed format) cannot be placed in a
  // period and are left out when one is given.
  std::optional<double> from_s, to_s;
  // Also cut the figures into calendar periods (UTC on the telemetry's clock), each under the
  // same GPU floor. Seed-format entries have no time and are in the whole-log figures only.
  std::optional<CalendarUnit> by;
};

// The options as a user gives them (`report --min-gpus --from --to --by`, or the MCP tool's
// arguments): times as parse_time_option reads them, "" for none; `flag_prefix` ("--" or "")
// names them in errors. Throws std::invalid_argument on a time it cannot read or a period that
// does not run forwards.
SummaryOptions parse_summary_options(std::size_t min_gpus, const std::string& from, const std::string& to,
                                     const std::string& by, const std::string& flag_prefix);

// The published figures of one stretch of time. No count of all its verdicts (or their time):
// less the classes shown, it would give away the withheld classes' windows.
struct Aggregate {
  std::size_t gpus = 0;                    // distinct GPUs with a verdict
  std::vector<ClassTotals> classes;        // published, in class order
  // Seen on fewer than options.min_gpus GPUs, or (in a period of `by`) withheld with those so
  // that the whole report less the periods shown cannot give them away.
  std::size_t classes_withheld = 0;
  std::vector<MismatchTotals> mismatches;  // published, by declared then observed class
  std::size_t mismatch_kinds_withheld = 0;  // the same
};

// One calendar period of `by`; a window across its edges counts in both periods, its time split.
struct PeriodAggregate : Aggregate {
  double start_s = 0, end_s = 0;
};

struct LogSummary : Aggregate {
  SummaryOptions options;
  std::size_t mismatch_events = 0;
  std::string first_window_start, last_window_end;  // the period, on the telemetry's clock; "" for seed-format logs
  std::vector<PeriodAggregate> periods;              // with options.by: those with a verdict or alert, in order
};

// A report cut finer than this many periods is refused (InputError): a crafted window from
// 1970 to 9999 would otherwise make millions of days.
inline constexpr std::size_t kMaxReportPeriods = 10000;

// Sums up one or more logs that verified (a fleet's nodes, a node's rotated logs) into one
// summary: GPUs are told apart by UUID across logs, and a GPU's time is counted once as long as
// its windows arrive in time order (give a node's logs oldest first). Entries it cannot use
// (checkpoints, unknown types) are skipped; a verdict without a known class counts as UNKNOWN.
class LogSummarizer {
 public:
  explicit LogSummarizer(const SummaryOptions& options);
  ~LogSummarizer();
  LogSummarizer(const LogSummarizer&) = delete;
  LogSummarizer& operator=(const LogSummarizer&) = delete;
  // `text`: a whole log. Throws InputError when `by` would make too many periods.
  void add(std::string_view text);
  LogSummary finish() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// One log's summary.
LogSummary summarize_log(std::string_view text, const SummaryOptions& options);

// The window_start of a log's first verdict entry; nullopt when it has none with a time.
std::optional<double> first_window_start(std::string_view text);

// The log file checked, and summed up only if it verified: figures from a log that does not
// verify could be anyone's. Throws InputError naming the file when it cannot be read.
struct VerifiedSummary {
  VerifyResult check;
  std::optional<LogSummary> summary;
};
VerifiedSummary verify_and_summarize(const std::string& path, const VerifyOptions& verify, const SummaryOptions& summary);

// Several logs, each checked with its public key from `key_files`: none (no signature checked),
// one for every log, or one per log in the logs' order. Summed up, oldest first, only if every
// one verified. Throws std::invalid_argument when the keys do not pair with the logs (the
// message starts with `keys_name`), InputError naming the file that cannot be read or is no key.
struct VerifiedLogs {
  std::vector<VerifyResult> checks;  // in the order given
  std::optional<LogSummary> summary;
};
VerifiedLogs verify_and_summarize(const std::vector<std::string>& paths, const std::vector<std::string>& key_files,
                                  const SummaryOptions& summary, const std::string& keys_name);

}  // namespace wt::audit
