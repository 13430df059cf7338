// Renderings of an audit log's aggregate (audit::LogSummary) for `report`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "audit/log_summary.hpp"

namespace wt {

nlohmann::json log_summary_json(const audit::LogSummary& s);

// Several logs' checks and their aggregate, as `report --json` prints them and the MCP tool
// report_audit_logs returns them: {logs: [{log, verification}], report (null unless all verify)}.
nlohmann::json verified_logs_json(const std::vector<std::string>& paths, const audit::VerifiedLogs& v);

// An aligned table per observed class, then the mismatch alerts, each withheld part said.
// `logs`: how many logs it sums up (said when more than one).
std::string log_summary_text(const audit::LogSummary& s, std::size_t logs = 1);

}  // namespace wt
