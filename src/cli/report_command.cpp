// `workloadtruth report`: the aggregate of one or more audit logs for an auditor, once every one
// has verified.
#include <algorithm>
#include <iostream>
#include <memory>

#include "audit/log_summary.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_guarded.hpp"
#include "output/audit_report.hpp"
#include "output/log_summary_report.hpp"

namespace wt::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> files{"workloadtruth.log.jsonl"};
  std::vector<std::string> pubkeys;
  std::size_t min_gpus = 5;
  std::string from, to, by;
  bool json = false;
};

int run_report(const ReportOptions& o) {
  const audit::SummaryOptions so = audit::parse_summary_options(o.min_gpus, o.from, o.to, o.by, "--");
  const audit::VerifiedLogs logs = audit::verify_and_summarize(o.files, o.pubkeys, so, "--pubkey");
  const auto& [checks, summary] = logs;
  if (o.json) {
    std::cout << verified_logs_json(o.files, logs).dump() << '\n';
  } else {
    for (std::size_t i = 0; i < checks.size(); ++i) std::cout << o.files[i] << ": " << verify_result_text(checks[i]);
    if (summary) std::cout << '\n' << log_summary_text(*summary, o.files.size());
    else std::cout << "No report: " << (checks.size() == 1 ? "the log does not verify" : "not every log verifies") << ".\n";
  }
  const bool valid = std::all_of(checks.begin(), checks.end(), [](const audit::VerifyResult& r) { return r.valid(); });
  return valid ? exit_code::kOk : exit_code::kBadInput;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report",
      "Verify audit logs (a node's, or a fleet's together), then sum them up for an auditor: GPU-hours and energy per "
      "class, mismatch alerts");
  sub->add_option("logs", o->files,
                  "Audit logs, summed up as one fleet (default workloadtruth.log.jsonl); each must verify");
  sub->add_option("--pubkey", o->pubkeys,
                  "Public key (PREFIX.pub from keygen): each log must carry valid signed checkpoints and end with a "
                  "final one. One key for every log, or repeat it: one per log, in the logs' order")
      ->allow_extra_args(false);
  sub->add_option("--min-gpus", o->min_gpus,
                  "Show a figure only where at least this many distinct GPUs contribute to it, so that no one "
                  "customer's GPUs can be singled out (1 shows everything)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  sub->add_option("--from", o->from,
                  "Only the telemetry from this time on (the log's clock: 2026-12-01T00:00:00, a date, or Unix "
                  "seconds), e.g. for a monthly report");
  sub->add_option("--to", o->to, "Only the telemetry before this time (as --from)");
  sub->add_option("--by", o->by,
                  "Also cut the figures into calendar periods (UTC on the log's clock; weeks from Monday), each "
                  "under the same --min-gpus floor")
      ->check(CLI::IsMember({"day", "week", "month"}));
  sub->add_flag("--json", o->json,
                "Print {logs: [{log, verification}], report}; report is null unless every log verifies");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_report(*o); }); }};
}

}  // namespace wt::cli
