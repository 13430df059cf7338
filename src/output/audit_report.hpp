// Renderings of an audit-log check for `verify-log`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "audit/log_verifier.hpp"

namespace wt {

// {valid, message, entries, first_bad_line, kind, checkpoints, signatures_checked}; first_bad_line and
// kind are null when valid.
nlohmann::json verify_result_json(const audit::VerifyResult& r);

// "[OK] chain verified, N entries" (the seed tool's line) and a line on checkpoints, or
// "[TAMPERED] line L: kind: why", or "[TORN] ..." for a crash-torn last line.
std::string verify_result_text(const audit::VerifyResult& r);

}  // namespace wt
