// The tamper-evident audit log writer: one canonical-JSON entry per line, hash-chained, each
// line written with one write() call, synced, locked against a second writer, with signed
// checkpoints when given a key. See docs/audit-log.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "audit/signing_key.hpp"

namespace wt::audit {

struct AuditLogOptions {
  std::size_t fsync_every = 1;              // sync after every N entries; 0 leaves it to the OS
  std::optional<PrivateKey> signing_key;    // signs checkpoints; none: a hash chain only
  std::size_t checkpoint_every = 1000;      // a checkpoint after N entries (0: off) ...
  double checkpoint_seconds = 300;          // ... or at the first append this long after the last (0: off)
};

class AuditLog {
 public:
  // Opens or creates `path`, takes an exclusive lock on it and checks the chain so far.
  // A torn last line (a crash mid-write) is cut off and the chain resumes after the last good
  // entry (see recovery_note()). Throws InputError naming the file when it is locked by
  // another writer, cannot be written, or its chain is broken.
  AuditLog(const std::string& path, AuditLogOptions options);
  ~AuditLog();  // close(), errors swallowed: call close() to see them
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Appends one entry: `payload` is a JSON object without prev_hash/entry_hash, not a
  // checkpoint, with finite numbers and UTF-8 strings (else std::invalid_argument).
  void append(const nlohmann::json& payload);
  // Writes the final checkpoint (with a key), syncs and releases the lock. Idempotent.
  void close();

  std::size_t entries() const { return entries_; }  // lines in the log, checkpoints included
  const std::string& head() const { return head_; }  // entry_hash of the last line
  const std::string& recovery_note() const { return recovery_note_; }

 private:
  void write_entry(nlohmann::json entry);
  void write_checkpoint(bool final);

  std::string path_;
  AuditLogOptions options_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::size_t entries_ = 0;
  std::string head_;
  std::size_t since_sync_ = 0, since_checkpoint_ = 0;
  bool ends_with_final_checkpoint_ = false;
  std::chrono::steady_clock::time_point last_checkpoint_;
  std::string recovery_note_;
};

}  // namespace wt::audit
