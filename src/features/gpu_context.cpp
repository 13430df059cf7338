#include "features/gpu_context.hpp"

#include "sim/gpu_models.hpp"

namespace wt {

GpuContext gpu_context_for(const GpuIdentity& gpu) {
  const sim::GpuModel* m = sim::find_gpu_model(gpu.name);
  if (m == nullptr) return {};
  return {m->power_limit_w, m->idle_power_w, m->memory_mib, m->max_sm_clock_mhz};
}

}  // namespace wt
