// WorkloadTruth's MCP tools. Each calls the library (classify_stream, run_benchmark,
// verify_log_file, verify_and_summarize) and returns the JSON its CLI command prints with --json.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "audit/signing_key.hpp"
#include "mcp/classifier_cache.hpp"
#include "mcp/tool_registry.hpp"
#include "source/prometheus/http_auth.hpp"

namespace wt::mcp {

struct ToolConfig {
  std::string audit_log;                      // the only file a tool may write; "" = none
  std::optional<audit::PrivateKey> sign_key;  // signs the audit log's checkpoints
  // The one dcgm/prometheus URL the operator gave credentials for: a call without a url reads it,
  // and only a call naming exactly it gets the credential files. An agent may not name files to
  // read, nor send the operator's secret to a server of its choosing.
  std::string http_url;
  HttpAuthFiles auth_files;
  // Where the host's procfs and sysfs are (classify_workload's job_by names the processes on
  // each GPU from them; the AMD source lists them from sysfs).
  std::string proc_root = "/proc", sys_root = "/sys";
};

// The classify tools share `classifiers`, so the model loads once per server.
Tool classify_workload_tool(std::shared_ptr<const ToolConfig> config, std::shared_ptr<ClassifierCache> classifiers);
Tool classify_trace_tool(std::shared_ptr<ClassifierCache> classifiers);
Tool run_benchmark_tool();
Tool verify_audit_log_tool();
Tool report_audit_logs_tool();

// All five, in that order.
ToolRegistry make_tools(std::shared_ptr<const ToolConfig> config);

}  // namespace wt::mcp
