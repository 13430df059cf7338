#include "audit/audit_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "audit/canonical_json.hpp"
#include "audit/checkpoint.hpp"
#include "audit/log_verifier.hpp"
#include "audit/mapped_file.hpp"
#include "core/diagnostic.hpp"
#include "core/sha256.hpp"
#include "core/time_format.hpp"

namespace wt::audit {
namespace {

std::string errno_text(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

// The pid holding a flock on the file open on `fd`, from /proc/locks; "" when unknown.
std::string lock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "";
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF"; waiters have "->" after the number.
    std::istringstream in(line);
    std::string num, type, advisory, mode, pid, dev;
    if (in >> num >> type >> advisory >> mode >> pid >> dev && type == "FLOCK" && dev == id) return pid;
  }
  return "";
}

std::string utc_now_iso() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return format_iso_time(std::chrono::duration<double>(now).count()) + "Z";
}

}  // namespace

AuditLog::AuditLog(const std::string& path, AuditLogOptions options)
    : path_(path), options_(std::move(options)), last_checkpoint_(std::chrono::steady_clock::now()) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd_ < 0) throw InputError(errno_text(path, "cannot open the audit log"));
  try {
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) throw InputError(errno_text(path, "cannot lock the audit log"));
      const std::string pid = lock_holder(fd_);
      throw InputError(path + ": another writer holds this audit log" +
                       (pid.empty() ? std::string() : " (pid " + pid + ")") + "; one writer per log");
    }
    VerifyOptions vo;
    if (options_.signing_key) vo.public_key = &options_.signing_key->public_key();
    vo.require_final_checkpoint = false;  // after a crash the last entries are not signed yet
    VerifyResult r;
    {
      const MappedFile map(fd_, path);
      r = verify_log_text(map.text(), vo);
    }
    if (r.kind == BreakKind::TornTail) {
      struct stat st {};
      ::fstat(fd_, &st);
      if (::ftruncate(fd_, static_cast<off_t>(r.good_bytes)) != 0 || ::fsync(fd_) != 0)
        throw InputError(errno_text(path, "cannot cut off a torn last line"));
      recovery_note_ = path + ": line " + std::to_string(r.first_bad_line) + " was torn by a crash (" +
                       std::to_string(static_cast<std::uint64_t>(st.st_size) - r.good_bytes) +
                       " bytes without a newline); removed it, the " + std::to_string(r.entries) +
                       " entries before it are intact and the chain resumes after them";
    } else if (!r.valid()) {
      throw InputError(path + ": " + r.message() + "; refusing to extend a broken chain");
    }
    size_ = r.good_bytes;
    entries_ = r.entries;
    head_ = r.head;
    ends_with_final_checkpoint_ = r.ends_with_final_checkpoint;
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

AuditLog::~AuditLog() {
  try {
    close();
  } catch (...) {  // NOLINT: a destructor cannot report; close() explicitly to see errors
  }
}

void AuditLog::append(const nlohmann::json& payload) {
  if (fd_ < 0) throw std::logic_error(path_ + ": append after close");
  if (!payload.is_object()) throw std::invalid_argument("an audit entry must be a JSON object");
  if (payload.contains("prev_hash") || payload.contains("entry_hash"))
    throw std::invalid_argument("prev_hash and entry_hash are the log's to write");
  if (is_checkpoint(payload)) throw std::invalid_argument("checkpoints are the log's to write");
  write_entry(payload);
  ++since_checkpoint_;
  if (!options_.signing_key) return;
  const double since_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_).count();
  if ((options_.checkpoint_every > 0 && since_checkpoint_ >= options_.checkpoint_every) ||
      (options_.checkpoint_seconds > 0 && since_s >= options_.checkpoint_seconds))
    write_checkpoint(false);
}

void AuditLog::write_entry(nlohmann::json entry) {
  const std::string payload = canonical(entry);  // throws before anything is written
  const std::string entry_hash = sha256_hex(payload, head_);
  entry["prev_hash"] = head_;
  entry["entry_hash"] = entry_hash;
  std::string line = canonical(entry);
  line += '\n';
  // One write() for the whole line: a crash leaves at worst one torn last line, never a gap.
  ssize_t n;
  do n = ::write(fd_, line.data(), line.size());
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(line.size())) {
    std::string err = n < 0 ? std::strerror(errno) : "short write (disk full?)";
    // Take back a partial line; failing that, the next open reports it as torn and removes it.
    if (n > 0 && ::ftruncate(fd_, static_cast<off_t>(size_)) != 0) err += "; the partial line stays until the next open";
    throw InputError(path_ + ": cannot write an audit entry: " + err);
  }
  size_ += line.size();
  head_ = entry_hash;
  ++entries_;
  ends_with_final_checkpoint_ = false;
  ++since_sync_;
  if (options_.fsync_every > 0 && since_sync_ >= options_.fsync_every) {
    if (::fdatasync(fd_) != 0) throw InputError(errno_text(path_, "cannot sync the audit log"));
    since_sync_ = 0;
  }
}

void AuditLog::write_checkpoint(bool final) {
  const Checkpoint cp = make_checkpoint(entries_, head_, final, *options_.signing_key, utc_now_iso());
  write_entry(checkpoint_payload(cp));
  ends_with_final_checkpoint_ = final;
  since_checkpoint_ = 0;
  last_checkpoint_ = std::chrono::steady_clock::now();
}

void AuditLog::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  struct Release {
    int& fd;
    int raw;
    ~Release() {
      ::close(raw);  // also releases the lock
      fd = -1;
    }
  } release{fd_, fd};
  if (options_.signing_key && !ends_with_final_checkpoint_) write_checkpoint(true);
  if (since_sync_ > 0 && ::fdatasync(fd) != 0) throw InputError(errno_text(path_, "cannot sync the audit log"));
}

}  // namespace wt::audit
