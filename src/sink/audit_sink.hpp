// Appends `watch`'s verdicts to the audit log: one entry per window per GPU
// (audit::verdict_entry) and one per mismatch alert raised or cleared (output/watch_json.hpp).
#pragma once

#include "audit/audit_log.hpp"
#include "watch/watcher.hpp"

namespace wt {

class AuditSink final : public watch::WatchSink {
 public:
  explicit AuditSink(audit::AuditLog& log) : log_(log) {}
  void on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool job_changed,
                 double now_s) override;
  void on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) override;

 private:
  audit::AuditLog& log_;
};

}  // namespace wt
