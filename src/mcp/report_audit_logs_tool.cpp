// report_audit_logs: several audit logs (a fleet's, or one node's rotated files) verified, then
// summed up as one, as `workloadtruth report LOG... --json` prints them. Reads the files, writes
// nothing.
#include "audit/log_summary.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/summary_arguments.hpp"
#include "mcp/tools.hpp"
#include "output/log_summary_report.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  const json path = {{"type", "string"}, {"minLength", 1}};
  json properties = {
      {"log_files",
       {{"type", "array"},
        {"items", path},
        {"minItems", 1},
        {"description", "The audit logs (JSON lines), in any order: they are read oldest first"}}},
      {"public_key_files",
       {{"type", "array"},
        {"items", path},
        {"minItems", 1},
        {"description",
         "PREFIX.pub files from `workloadtruth keygen`: one for every log, or one per log in log_files' order; also "
         "checks the checkpoint signatures and that each log ends with a final checkpoint"}}}};
  properties.update(summary_argument_properties(""));
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", {"log_files"}},
          {"additionalProperties", false}};
}

json run(const json& a) {
  const auto logs = a["log_files"].get<std::vector<std::string>>();
  const auto keys = a.value("public_key_files", std::vector<std::string>{});
  // A log that does not verify is a finding (its verification says where), not a tool error.
  return verified_logs_json(logs, audit::verify_and_summarize(logs, keys, summary_arguments(a), "public_key_files"));
}

}  // namespace

Tool report_audit_logs_tool() {
  return {"report_audit_logs",
          "Sum up audit logs for an auditor",
          "Verifies several WorkloadTruth audit logs (a fleet's nodes, or one node's rotated files) and, only if every "
          "one verifies, sums them up as one: GPU-hours, confidence and energy per observed class and the mismatch "
          "alerts, GPUs told apart by UUID across logs, each figure only where enough distinct GPUs make it, naming "
          "none. The same log given twice is refused.",
          input_schema(),
          verified_logs_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          run};
}

}  // namespace wt::mcp
