// JSON views of classification results (the `--json` output and the MCP payloads).
#pragma once

#include <nlohmann/json.hpp>

#include "pipeline/classify_stream.hpp"

namespace wt {

nlohmann::json features_json(const WindowFeatures& f);

// {"source", "classifier", "window_seconds", "stride_seconds", "gpus": [...], "errors": [...]}
nlohmann::json classify_result_json(const ClassifyResult& r);

// The seed tool's single-GPU object: workload_type, confidence, gpu_index, window_seconds,
// sample_count, reasons, features.
nlohmann::json seed_verdict_json(const GpuReport& g);

nlohmann::json diagnostics_json(const Diagnostics& d);

}  // namespace wt
