// The audit-log payload for one classified window of one GPU (what `watch` appends).
#pragma once

#include <nlohmann/json.hpp>

#include "classify/verdict.hpp"
#include "core/sample.hpp"

namespace wt::audit {

// {timestamp (UTC, when logged), gpu_index, uuid, workload_type, confidence, reasons,
//  features, window_start, window_end (the telemetry's clock)}
nlohmann::json verdict_entry(const GpuIdentity& gpu, const Verdict& verdict, double window_start_s,
                             double window_end_s, double logged_at_s);

}  // namespace wt::audit
