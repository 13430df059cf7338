#include "sim/gpu_physics.hpp"

#include <algorithm>
#include <cmath>

namespace wt::sim {

namespace {

// Time constants of the first-order lags. Board power as NVML reports it is smoothed over a
// few hundred ms (the inference traces at 0.1 s show ramps of 2-4 polls); the die warms over
// tens of seconds (the V100/B200 traces rise ~10 C in 20-60 s after a job starts).
constexpr double kPowerTauS = 0.25;
constexpr double kThermalTauS = 30.0;
// Dynamic power grows roughly with f * V^2, and V with f in the DVFS range: P_dyn ~ f^2.5.
constexpr double kDvfsExponent = 2.5;
// Kernels at full compute and bandwidth would draw this much more than the default limit, so
// heavy work runs into the cap (as training and dense FP64 do on real parts) and clocks drop.
constexpr double kPeakDemandOverLimit = 1.15;
// GPU Boost, below the power cap: the clock steps down one bin for every few degrees of die
// temperature, and near a step it dithers between adjacent bins (the 20k-atom V100 GROMACS run,
// below its cap, reads 1335-1425 MHz). Clock variation that says nothing about the workload.
constexpr double kBoostBinMhz = 15;
constexpr double kBoostRefC = 35;
constexpr double kBoostStepC = 5;
constexpr double kBoostTempNoiseC = 1.5;

}  // namespace

GpuPhysics::GpuPhysics(const GpuModel& gpu, PhysicsParams params, Rng rng)
    : gpu_(gpu),
      params_(params),
      rng_(rng),
      boost_rng_(Rng(rng).fork()),
      limit_w_(gpu.power_limit_w * params.power_limit_fraction) {
  power_w_ = gpu.idle_power_w;
  temp_c_ = params.ambient_c + 45.0 * gpu.idle_power_w / gpu.power_limit_w;
  sm_clock_mhz_ = gpu.idle_sm_clock_mhz;
}

void GpuPhysics::begin(const Segment& seg) {
  const Activity& a = seg.activity;
  const double base = seg.processes > 0 ? gpu_.context_power_w : gpu_.idle_power_w;
  boosting_ = false;
  if (a.busy <= 0) {
    target_power_w_ = base;
    target_clock_mhz_ = seg.processes > 0 ? gpu_.ctx_sm_clock_mhz : gpu_.idle_sm_clock_mhz;
    return;
  }
  const double load = std::clamp(0.75 * a.compute + 0.35 * a.membw, 0.0, 1.0);
  const double clock_cap = params_.clock_cap_fraction;
  // A locked clock lowers voltage with it, so dynamic power falls faster than the clock.
  double dyn = a.busy * load * (kPeakDemandOverLimit * gpu_.power_limit_w - base) * std::pow(clock_cap, kDvfsExponent);
  double clock = gpu_.max_sm_clock_mhz * clock_cap;
  const double headroom = std::max(1.0, limit_w_ - base);
  if (dyn > headroom) {  // power capping: the driver lowers clocks until the board fits the limit
    clock *= std::pow(headroom / dyn, 1.0 / kDvfsExponent);
    dyn = headroom;
  } else {
    boosting_ = params_.clock_cap_fraction >= 1.0;  // a locked clock does not boost
  }
  // Kernel-to-kernel variation of the draw within a phase (a few % of the dynamic part).
  target_power_w_ = std::min(limit_w_, base + dyn * rng_.jitter(0.03));
  target_clock_mhz_ = clock;
}

void GpuPhysics::advance(const Segment& seg, double dt) {
  power_w_ = target_power_w_ + (power_w_ - target_power_w_) * std::exp(-dt / kPowerTauS);
  const double temp_target = params_.ambient_c + 45.0 * power_w_ / gpu_.power_limit_w;
  temp_c_ = temp_target + (temp_c_ - temp_target) * std::exp(-dt / kThermalTauS);
  sm_clock_mhz_ = target_clock_mhz_;
  const Activity& a = seg.activity;
  span_s_ += dt;
  busy_s_ += a.busy * dt;
  membw_s_ += a.busy * a.membw * dt;
  rx_mb_ += a.pcie_rx_mbps * dt;
  tx_mb_ += a.pcie_tx_mbps * dt;
  nvl_mb_ += a.nvlink_mbps * dt;
}

SignalValues GpuPhysics::read(const Segment& seg) {
  SignalValues v;
  const double span = std::max(span_s_, 1e-9);
  // nvidia-smi prints integer percentages and MiB, power with two decimals.
  v.set(Signal::GpuUtil, std::clamp(std::round(100.0 * busy_s_ / span), 0.0, 100.0));
  v.set(Signal::MemUtil, std::clamp(std::round(100.0 * membw_s_ / span), 0.0, 100.0));
  v.set(Signal::MemUsed, std::round(std::clamp(seg.mem_used_mib, 0.0, gpu_.memory_mib)));
  v.set(Signal::MemTotal, gpu_.memory_mib);
  const double sensor = power_w_ + rng_.normal(0, 0.004 * power_w_);  // sensor noise, ~0.4 %
  v.set(Signal::Power, std::round(std::clamp(sensor, 0.0, limit_w_ * 1.02) * 100) / 100);
  v.set(Signal::PowerLimit, limit_w_);
  v.set(Signal::Temperature, std::round(temp_c_));
  double clock = sm_clock_mhz_;
  if (boosting_) {
    const double t = temp_c_ + boost_rng_.normal(0, kBoostTempNoiseC);
    clock -= kBoostBinMhz * std::floor(std::max(0.0, t - kBoostRefC) / kBoostStepC);
  }
  v.set(Signal::SmClock, std::round(clock));
  v.set(Signal::MemClock, gpu_.mem_clock_mhz);
  v.set(Signal::PcieRx, std::round(rx_mb_ / span));
  v.set(Signal::PcieTx, std::round(tx_mb_ / span));
  if (gpu_.nvlink_gbps > 0) {
    v.set(Signal::NvlinkRx, std::round(nvl_mb_ / span));
    v.set(Signal::NvlinkTx, std::round(nvl_mb_ / span));
  }
  v.set(Signal::ProcessCount, seg.processes);
  span_s_ = busy_s_ = membw_s_ = rx_mb_ = tx_mb_ = nvl_mb_ = 0;
  return v;
}

}  // namespace wt::sim
