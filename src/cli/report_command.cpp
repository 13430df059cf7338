// `workloadtruth report`: an audit log's aggregate for an auditor, once the log has verified.
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "audit/log_summary.hpp"
#include "audit/signing_key.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_guarded.hpp"
#include "core/calendar_period.hpp"
#include "core/time_format.hpp"
#include "output/audit_report.hpp"
#include "output/log_summary_report.hpp"

namespace wt::cli {
namespace {

struct ReportOptions {
  std::string file = "workloadtruth.log.jsonl";
  std::string pubkey;
  std::size_t min_gpus = 5;
  std::string from, to, by;
  bool json = false;
};

int run_report(const ReportOptions& o) {
  std::optional<audit::PublicKey> key;
  if (!o.pubkey.empty()) key = audit::PublicKey::load(o.pubkey);
  audit::VerifyOptions vo;
  if (key) vo.public_key = &*key;
  audit::SummaryOptions so;
  so.min_gpus = o.min_gpus;
  if (!o.from.empty()) so.from_s = parse_time_option("--from", o.from);
  if (!o.to.empty()) so.to_s = parse_time_option("--to", o.to);
  if (so.from_s && so.to_s && *so.from_s >= *so.to_s) throw std::invalid_argument("--from must come before --to");
  if (!o.by.empty()) so.by = parse_calendar_unit(o.by);
  const auto [check, summary] = audit::verify_and_summarize(o.file, vo, so);
  if (o.json) {
    nlohmann::json out = {{"log", o.file}, {"verification", verify_result_json(check)}, {"report", nullptr}};
    if (summary) out["report"] = log_summary_json(*summary);
    std::cout << out.dump() << '\n';
  } else {
    std::cout << o.file << ": " << verify_result_text(check);
    if (summary) std::cout << '\n' << log_summary_text(*summary);
    else std::cout << "No report: the log does not verify.\n";
  }
  return check.valid() ? exit_code::kOk : exit_code::kBadInput;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report", "Verify an audit log, then sum it up for an auditor: GPU-hours and energy per class, mismatch alerts");
  sub->add_option("file", o->file, "Audit log (default workloadtruth.log.jsonl)");
  sub->add_option("--pubkey", o->pubkey,
                  "Public key (PREFIX.pub from keygen): the log must carry valid signed checkpoints and end with a "
                  "final one");
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
  sub->add_flag("--json", o->json, "Print {log, verification, report}; report is null when the log does not verify");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_report(*o); }); }};
}

}  // namespace wt::cli
