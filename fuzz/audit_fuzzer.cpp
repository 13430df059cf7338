// libFuzzer target: arbitrary bytes as an audit log through the verifier, with the public key
// that signed the seed log (fuzz/audit_key.pub; its private key was thrown away) and without one,
// then through `report`'s summary. An auditor runs verify-log and report on logs from elsewhere:
// both promise to throw nothing for any content, so any exception, crash or sanitizer report is
// a bug. The summary runs whatever the verdict (report summarizes only logs that verify, but
// anyone can hash a crafted line into a valid unsigned chain).
#include <cstdint>
#include <string_view>

#include "audit/log_summary.hpp"
#include "audit/log_verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const wt::audit::PublicKey key = wt::audit::PublicKey::load(WT_FUZZ_AUDIT_PUBKEY);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)wt::audit::verify_log_text(text, {&key, true});
  (void)wt::audit::verify_log_text(text, {nullptr, false});
  wt::audit::SummaryOptions everything;
  everything.min_gpus = 1;
  (void)wt::audit::summarize_log(text, everything);
  return 0;
}
