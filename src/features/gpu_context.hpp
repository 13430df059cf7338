// What the documented GPU model table (src/sim/gpu_models) says of a GPU, by its name.
#pragma once

#include "core/sample.hpp"
#include "features/model_features.hpp"

namespace wt {

// Empty when the name is not in the table: features then rely on the telemetry alone.
GpuContext gpu_context_for(const GpuIdentity& gpu);

}  // namespace wt
