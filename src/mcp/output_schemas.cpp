#include "mcp/output_schemas.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

const json kString{{"type", "string"}};
const json kNumber{{"type", "number"}};
const json kInteger{{"type", "integer"}};
const json kBoolean{{"type", "boolean"}};
const json kNullableNumber{{"type", json::array({"number", "null"})}};
const json kNullableString{{"type", json::array({"string", "null"})}};
const json kNullableInteger{{"type", json::array({"integer", "null"})}};

json workload_type() {
  return {{"type", "string"}, {"enum", {"TRAINING", "INFERENCE", "IDLE", "HPC", "MINING", "GRAPHICS", "UNKNOWN"}}};
}

json object(json properties, json required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

json string_array() { return {{"type", "array"}, {"items", kString}}; }

// Feature name -> value (null when the telemetry lacks what it needs).
json features() { return {{"type", "object"}, {"additionalProperties", kNullableNumber}}; }

}  // namespace

json classify_result_schema() {
  const json window = object({{"start", kString},
                              {"end", kString},
                              {"workload_type", workload_type()},
                              {"confidence", kNumber},
                              {"training_score", kNullableNumber},
                              {"partial", kBoolean}},
                             {"start", "end", "workload_type", "confidence"});
  const json gpu = object({{"gpu_index", kInteger},
                           {"host", kString},
                           {"uuid", kString},
                           {"name", kString},
                           {"workload_type", workload_type()},
                           {"confidence", kNumber},
                           {"training_score", kNullableNumber},
                           {"reasons", string_array()},
                           {"features", features()},
                           {"sample_count", kInteger},
                           {"start", kString},
                           {"end", kString},
                           {"window_seconds", kNumber},
                           {"stride_seconds", kNumber},
                           {"window_widened", kBoolean},
                           {"windows", {{"type", "array"}, {"items", window}}}},
                          {"gpu_index", "workload_type", "confidence", "reasons", "sample_count", "windows"});
  const json error = object(
      {{"where", kString}, {"message", kString}, {"severity", {{"type", "string"}, {"enum", {"error", "note"}}}}},
      {"where", "message", "severity"});
  json counts = {{"type", "object"}, {"additionalProperties", kInteger}};
  const json job = object({{"job", kString},
                           {"gpu_indices", {{"type", "array"}, {"items", kInteger}}},
                           {"gpu_hosts", string_array()},
                           {"workload_type", workload_type()},
                           {"confidence", kNumber},
                           {"training_score", kNullableNumber},
                           {"reasons", string_array()},
                           {"gpu_verdicts", std::move(counts)}},
                          {"job", "gpu_indices", "workload_type", "confidence", "reasons", "gpu_verdicts"});
  return object({{"source", kString},
                 {"classifier", kString},
                 {"window_seconds", kNumber},
                 {"stride_seconds", kNumber},
                 {"gpus", {{"type", "array"}, {"items", gpu}}},
                 {"errors", {{"type", "array"}, {"items", error}}},
                 {"jobs", {{"type", "array"}, {"items", job}}}},  // only when jobs were named
                {"source", "classifier", "gpus", "errors"});
}

json seed_verdict_schema() {
  return object({{"workload_type", workload_type()},
                 {"confidence", kNumber},
                 {"gpu_index", kInteger},
                 {"window_seconds", kNumber},
                 {"sample_count", kInteger},
                 {"reasons", string_array()},
                 {"features", features()}},
                {"workload_type", "confidence", "gpu_index", "window_seconds", "sample_count", "reasons", "features"});
}

json benchmark_schema() {
  return object({{"window_seconds", kNumber},
                 {"stride_seconds", kNumber},
                 {"protocol", {{"type", "string"}, {"enum", {"standard", "loso", "loso-real"}}}},
                 {"model", kString},  // the scored model's date, or "retrained" under loso
                 {"train_traces", kInteger},  // loso only: traces per scenario of each retrained model
                 {"real_weight", kNumber},    // loso only: what each real training window counts for
                 {"synthetic", {{"type", "object"}}},  // absent under loso-real, which tests on real traces only
                 {"real", {{"type", "array"}, {"items", {{"type", "object"}}}}}},
                {"window_seconds", "stride_seconds", "protocol", "model"});
}

json with_audit_log(json schema) {
  schema["properties"]["audit_log"] = object({{"path", kString}, {"entries_written", kInteger}, {"head", kString}},
                                             {"path", "entries_written", "head"});
  return schema;
}

namespace {

// What `report --json` gives as its report; null where a log does not verify.
json log_report_schema() {
  const json hours = object({{"class", workload_type()},
                             {"gpus", kInteger},
                             {"windows", kInteger},
                             {"timed_windows", kInteger},
                             {"gpu_hours", kNumber},
                             {"sure_gpu_hours", kNumber},
                             {"energy_kwh", kNumber},
                             {"energy_gpu_hours", kNumber}},
                            {"class", "gpus", "windows", "gpu_hours"});
  const json alerts = object({{"declared", workload_type()}, {"observed", workload_type()}, {"alerts", kInteger},
                              {"gpus", kInteger}},
                             {"declared", "observed", "alerts", "gpus"});
  const json classes = {{"type", "array"}, {"items", hours}};
  const json mismatch_alerts = {{"type", "array"}, {"items", alerts}};
  const json period = object({{"period", kString},
                              {"start", kString},
                              {"end", kString},
                              {"gpus", kInteger},
                              {"classes", classes},
                              {"classes_withheld", kInteger},
                              {"mismatch_alerts", mismatch_alerts},
                              {"mismatch_kinds_withheld", kInteger}},
                             {"period", "start", "end", "gpus", "classes", "mismatch_alerts"});
  json report = object({{"min_gpus", kInteger},
                        {"from", kNullableString},
                        {"to", kNullableString},
                        {"gpus", kInteger},
                        {"first_window_start", kNullableString},
                        {"last_window_end", kNullableString},
                        {"classes", classes},
                        {"classes_withheld", kInteger},
                        {"mismatch_alerts", mismatch_alerts},
                        {"mismatch_kinds_withheld", kInteger},
                        {"by", {{"type", "string"}, {"enum", {"day", "week", "month"}}}},  // with by only
                        {"periods", {{"type", "array"}, {"items", period}}}},
                       {"min_gpus", "gpus", "classes", "mismatch_alerts"});
  report["type"] = json::array({"object", "null"});  // null: the log did not verify
  return report;
}

// `verify-log --json` of one log.
json verification_schema() {
  return object({{"valid", kBoolean},
                 {"message", kString},
                 {"entries", kInteger},
                 {"first_bad_line", kNullableInteger},
                 {"kind", kNullableString},
                 {"checkpoints", kInteger},
                 {"signatures_checked", kBoolean}},
                {"valid", "message", "entries", "first_bad_line", "kind", "checkpoints", "signatures_checked"});
}

}  // namespace

json verify_result_schema() {
  json schema = verification_schema();
  schema["properties"]["report"] = log_report_schema();  // only with aggregate
  return schema;
}

json verified_logs_schema() {
  const json log = object({{"log", kString}, {"verification", verification_schema()}}, {"log", "verification"});
  return object({{"logs", {{"type", "array"}, {"items", log}}}, {"report", log_report_schema()}}, {"logs", "report"});
}


}  // namespace wt::mcp
