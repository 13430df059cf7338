// JSON of `watch` events: one object per window verdict or mismatch alert, printed one per line
// with --json, appended to the audit log, and given to --on-mismatch on stdin.
#pragma once

#include <nlohmann/json.hpp>

#include "watch/watcher.hpp"

namespace wt {

// {"type": "window", gpu_index, uuid, name, window_start, window_end, partial, workload_type,
//  confidence, job_type, job_confidence, job_since, held_s, declared, declared_by,
//  declared_conflict, mismatch}
nlohmann::json watch_window_json(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict);

// {"type": "mismatch", state ("raised" | "cleared"), timestamp (UTC, when logged), gpu_index,
//  uuid, name, declared, declared_by, observed, confidence, since, at, duration_s}
nlohmann::json mismatch_json(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double logged_at_s);

}  // namespace wt
