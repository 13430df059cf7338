#include "sink/audit_sink.hpp"

#include "audit/verdict_entry.hpp"
#include "output/watch_json.hpp"

namespace wt {

void AuditSink::on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool,
                          double now_s) {
  log_.append(audit::verdict_entry(gpu.gpu, verdict, window.start_s, window.end_s, now_s));
}

void AuditSink::on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) {
  log_.append(mismatch_json(gpu, event, now_s));
}

}  // namespace wt
