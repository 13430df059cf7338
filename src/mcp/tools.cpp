#include "mcp/tools.hpp"

namespace wt::mcp {

ToolRegistry make_tools(std::shared_ptr<const ToolConfig> config) {
  ToolRegistry r;
  auto classifiers = std::make_shared<ClassifierCache>();
  r.add(classify_workload_tool(std::move(config), classifiers));
  r.add(classify_trace_tool(classifiers));
  r.add(run_benchmark_tool());
  r.add(verify_audit_log_tool());
  r.add(report_audit_logs_tool());
  return r;
}

}  // namespace wt::mcp
