// JSON Schemas of what the tools return: the shapes the CLI prints with --json.
#pragma once

#include <nlohmann/json.hpp>

namespace wt::mcp {

nlohmann::json classify_result_schema();  // output/classify_json.hpp classify_result_json
nlohmann::json seed_verdict_schema();     // output/classify_json.hpp seed_verdict_json
nlohmann::json benchmark_schema();        // eval/benchmark.hpp run_benchmark
// output/audit_report.hpp verify_result_json, with aggregate's `report` (log_summary_json, or null)
nlohmann::json verify_result_schema();
// output/log_summary_report.hpp verified_logs_json
nlohmann::json verified_logs_schema();

// `schema` (an object's) with the optional `audit_log` a call that wrote to the audit log adds.
nlohmann::json with_audit_log(nlohmann::json schema);

}  // namespace wt::mcp
