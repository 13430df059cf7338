#include "mcp/tools.hpp"

namespace wt::mcp {

ToolRegistry make_tools(std::shared_ptr<const ToolConfig> config) {
  ToolRegistry r;
  r.add(classify_workload_tool(std::move(config)));
  r.add(classify_trace_tool());
  r.add(run_benchmark_tool());
  r.add(verify_audit_log_tool());
  return r;
}

}  // namespace wt::mcp
