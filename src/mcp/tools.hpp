// WorkloadTruth's MCP tools. Each calls the library (classify_stream, run_benchmark,
// verify_log_file) and returns the JSON its CLI command prints with --json.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "audit/signing_key.hpp"
#include "mcp/tool_registry.hpp"

namespace wt::mcp {

struct ToolConfig {
  std::string audit_log;                      // the only file a tool may write; "" = none
  std::optional<audit::PrivateKey> sign_key;  // signs the audit log's checkpoints
};

Tool classify_workload_tool(std::shared_ptr<const ToolConfig> config);
Tool classify_trace_tool();
Tool run_benchmark_tool();
Tool verify_audit_log_tool();

// All four, in that order.
ToolRegistry make_tools(std::shared_ptr<const ToolConfig> config);

}  // namespace wt::mcp
