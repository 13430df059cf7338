// Checks an audit log: re-derives every entry hash and chain link, checks checkpoints (and,
// given the public key, their signatures) and reports the first break. See docs/audit-log.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "audit/signing_key.hpp"

namespace wt::audit {

enum class BreakKind { None, Edited, Reordered, Deleted, Inserted, Truncated, BadSignature, TornTail };
std::string_view to_string(BreakKind k);  // "edited", "torn tail", ...

struct VerifyOptions {
  const PublicKey* public_key = nullptr;  // checks signatures; then the log must end with a final checkpoint
  bool require_final_checkpoint = true;   // the writer, resuming after a crash, turns this off
};

struct VerifyResult {
  BreakKind kind = BreakKind::None;
  std::size_t entries = 0;         // chain entries verified (all of them when valid), checkpoints included
  std::size_t first_bad_line = 0;  // 1-based; 0 when valid
  std::string why;                 // what is wrong, for a user
  std::size_t checkpoints = 0;     // good checkpoints before the break
  bool signatures_checked = false;
  // Where a writer resumes: the bytes of the good entries and the last good entry_hash.
  std::uint64_t good_bytes = 0;
  std::string head;
  bool ends_with_final_checkpoint = false;

  bool valid() const { return kind == BreakKind::None; }
  // "chain verified, N entries" or "line L: <kind>: <why>".
  std::string message() const;
};

// `text` is the whole log; throws nothing for any content.
VerifyResult verify_log_text(std::string_view text, const VerifyOptions& options);
// Throws InputError naming the file when it cannot be read.
VerifyResult verify_log_file(const std::string& path, const VerifyOptions& options);

}  // namespace wt::audit
