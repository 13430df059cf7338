// verify_audit_log: checks an audit log's hash chain and signed checkpoints, as
// `workloadtruth verify-log --json` prints it. Reads the files, writes nothing.
#include <optional>

#include "audit/log_verifier.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/tools.hpp"
#include "output/audit_report.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  return {{"type", "object"},
          {"properties",
           {{"log_file", {{"type", "string"}, {"minLength", 1}, {"description", "The audit log (JSON lines)"}}},
            {"public_key_file",
             {{"type", "string"},
              {"minLength", 1},
              {"description",
               "PREFIX.pub from `workloadtruth keygen`: also check the checkpoint signatures and that the log ends "
               "with a final checkpoint"}}}}},
          {"required", {"log_file"}},
          {"additionalProperties", false}};
}

json run(const json& a) {
  std::optional<audit::PublicKey> key;
  if (a.contains("public_key_file")) key = audit::PublicKey::load(a["public_key_file"].get<std::string>());
  audit::VerifyOptions options;
  if (key) options.public_key = &*key;
  // A broken chain is a finding, not a failure of the tool: it comes back with valid false.
  return verify_result_json(audit::verify_log_file(a["log_file"].get<std::string>(), options));
}

}  // namespace

Tool verify_audit_log_tool() {
  return {"verify_audit_log",
          "Verify an audit log",
          "Checks a WorkloadTruth audit log: re-derives every entry hash and chain link and, given the public key, "
          "the signed checkpoints; reports valid, or the first bad line and what is wrong there (edited, reordered, "
          "deleted, inserted, truncated, bad signature, torn tail).",
          input_schema(),
          verify_result_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          run};
}

}  // namespace wt::mcp
