// The arguments that shape an audit log's aggregate (min_gpus, from, to, by), as `report` takes
// them, shared by verify_audit_log (with aggregate) and report_audit_logs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "audit/log_summary.hpp"

namespace wt::mcp {

// Their input-schema properties, each description led by `lead` ("With aggregate: " or "").
nlohmann::json summary_argument_properties(const std::string& lead);

// Read from a call's arguments; throws std::invalid_argument (a tool error) as `report` refuses.
audit::SummaryOptions summary_arguments(const nlohmann::json& arguments);

}  // namespace wt::mcp
