#include "audit/verdict_entry.hpp"

#include <cmath>

#include "core/time_format.hpp"
#include "output/classify_json.hpp"

namespace wt::audit {

nlohmann::json verdict_entry(const GpuIdentity& gpu, const Verdict& verdict, double window_start_s,
                             double window_end_s, double logged_at_s) {
  nlohmann::json entry = {
      {"timestamp", format_iso_time(logged_at_s) + "Z"},
      {"gpu_index", gpu.index},
      {"uuid", gpu.uuid},
      {"workload_type", to_string(verdict.type)},
      {"confidence", std::round(verdict.confidence * 10000.0) / 10000.0},  // 4 decimals, as classify --json
      {"reasons", verdict.reasons},
      {"features", features_json(verdict.features)},
      {"window_start", format_iso_time(window_start_s)},
      {"window_end", format_iso_time(window_end_s)},
  };
  if (!gpu.host.empty()) entry["host"] = gpu.host;  // where the source names the GPU's node
  return entry;
}

}  // namespace wt::audit
