#include "source/amd/amd_gpu_reader.hpp"

namespace wt {

std::optional<double> EnergyRate::update(std::uint64_t count, float resolution_uj, std::uint64_t time_ns) {
  const Reading now{static_cast<double>(count) * resolution_uj, time_ns};
  std::optional<double> watts;
  if (last_ && now.time_ns > last_->time_ns && now.uj >= last_->uj)
    watts = (now.uj - last_->uj) * 1e3 / static_cast<double>(now.time_ns - last_->time_ns);  // µJ/ns = kW
  last_ = now;
  return watts;
}

}  // namespace wt
