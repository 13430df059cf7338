// What a classifier concludes about a window or a whole GPU stream.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "features/window_features.hpp"

namespace wt {

enum class WorkloadType { Training, Inference, Idle, Hpc, Mining, Graphics, Unknown };
// Its values are 0 .. kWorkloadTypeCount - 1, UNKNOWN last: they index per-class arrays.
inline constexpr std::size_t kWorkloadTypeCount = 7;

std::string_view to_string(WorkloadType t);  // "TRAINING", ...
std::optional<WorkloadType> parse_workload_type(std::string_view text);  // case-insensitive
// What parse_workload_type accepts, for error messages: "training, inference, ..., unknown".
std::string workload_type_names();

struct Verdict {
  WorkloadType type = WorkloadType::Unknown;
  double confidence = 0;             // 0..1
  std::vector<std::string> reasons;  // sentences naming the signals and thresholds that decided
  WindowFeatures features;
  // "Is this training?" as a probability, for classifiers that can say (the trained one).
  std::optional<double> training_score;
};

}  // namespace wt
