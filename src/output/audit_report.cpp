#include "output/audit_report.hpp"

namespace wt {

nlohmann::json verify_result_json(const audit::VerifyResult& r) {
  return {{"valid", r.valid()},
          {"message", r.message()},
          {"entries", r.entries},
          {"first_bad_line", r.valid() ? nlohmann::json(nullptr) : nlohmann::json(r.first_bad_line)},
          {"kind", r.valid() ? nlohmann::json(nullptr) : nlohmann::json(audit::to_string(r.kind))},
          {"checkpoints", r.checkpoints},
          {"signatures_checked", r.signatures_checked}};
}

std::string verify_result_text(const audit::VerifyResult& r) {
  if (r.kind == audit::BreakKind::TornTail) return "[TORN] " + r.message() + "\n";
  if (!r.valid()) return "[TAMPERED] " + r.message() + "\n";
  std::string out = "[OK] " + r.message() + "\n";
  if (r.signatures_checked)
    out += std::to_string(r.checkpoints) + " signed checkpoints verified; the log ends with a final one\n";
  else if (r.checkpoints > 0)
    out += std::to_string(r.checkpoints) + " checkpoints, signatures not checked (give --pubkey to check them)\n";
  return out;
}

}  // namespace wt
