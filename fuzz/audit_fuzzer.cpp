// libFuzzer target: arbitrary bytes as an audit log through the verifier, with the public key
// that signed the seed log (fuzz/audit_key.pub; its private key was thrown away) and without one.
// An auditor runs verify-log on logs from elsewhere: verify_log_text promises to throw nothing for
// any content, so any exception, crash or sanitizer report is a bug.
#include <cstdint>
#include <string_view>

#include "audit/log_verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const wt::audit::PublicKey key = wt::audit::PublicKey::load(WT_FUZZ_AUDIT_PUBKEY);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)wt::audit::verify_log_text(text, {&key, true});
  (void)wt::audit::verify_log_text(text, {nullptr, false});
  return 0;
}
