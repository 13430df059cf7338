// verify_audit_log: checks an audit log's hash chain and signed checkpoints, as
// `workloadtruth verify-log --json` prints it, and with aggregate adds `report`'s summary.
// Reads the files, writes nothing.
#include <optional>

#include "audit/log_summary.hpp"
#include "audit/log_verifier.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/summary_arguments.hpp"
#include "mcp/tools.hpp"
#include "output/audit_report.hpp"
#include "output/log_summary_report.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  json properties = {
      {"log_file", {{"type", "string"}, {"minLength", 1}, {"description", "The audit log (JSON lines)"}}},
      {"public_key_file",
       {{"type", "string"},
        {"minLength", 1},
        {"description",
         "PREFIX.pub from `workloadtruth keygen`: also check the checkpoint signatures and that the log ends with a "
         "final checkpoint"}}},
      {"aggregate",
       {{"type", "boolean"},
        {"default", false},
        {"description",
         "Also sum the log up for an auditor, as `workloadtruth report` does: GPU-hours, share at confidence >= 0.9 "
         "and energy per observed class, mismatch alerts; only if the log verifies (else report is null); no GPU, "
         "process or pod is named (several logs together: report_audit_logs)"}}}};
  properties.update(summary_argument_properties("With aggregate: "));
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", {"log_file"}},
          {"additionalProperties", false}};
}

json run(const json& a) {
  std::optional<audit::PublicKey> key;
  if (a.contains("public_key_file")) key = audit::PublicKey::load(a["public_key_file"].get<std::string>());
  audit::VerifyOptions options;
  if (key) options.public_key = &*key;
  const std::string log = a["log_file"].get<std::string>();
  // A broken chain is a finding, not a failure of the tool: it comes back with valid false.
  if (!a.value("aggregate", false)) return verify_result_json(audit::verify_log_file(log, options));
  const auto [check, summary] = audit::verify_and_summarize(log, options, summary_arguments(a));
  json out = verify_result_json(check);
  out["report"] = summary ? log_summary_json(*summary) : json(nullptr);
  return out;
}

}  // namespace

Tool verify_audit_log_tool() {
  return {"verify_audit_log",
          "Verify an audit log",
          "Checks a WorkloadTruth audit log: re-derives every entry hash and chain link and, given the public key, "
          "the signed checkpoints; reports valid, or the first bad line and what is wrong there (edited, reordered, "
          "deleted, inserted, truncated, bad signature, torn tail). With aggregate, also an auditor's summary of a "
          "log that verifies: GPU-hours, confidence and energy per observed class and the mismatch alerts, each "
          "figure only where enough distinct GPUs make it, naming none.",
          input_schema(),
          verify_result_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          run};
}

}  // namespace wt::mcp
