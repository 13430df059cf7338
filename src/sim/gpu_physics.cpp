#include "sim/gpu_physics.hpp"

#include <algorithm>
#include <cmath>

namespace wt::sim {

namespace {

// Time constants of the first-order lags. The board's draw follows its kernels within tens of
// ms (our reader, averaging the driver's power samples between 0.1 s polls, sees an H200 step
// from 125 to 552 W in one poll); the die warms over tens of seconds (the V100/B200 traces rise
// ~10 C in 20-60 s after a job starts).
constexpr double kPowerTauS = 0.05;
constexpr double kThermalTauS = 30.0;
// What nvmlDeviceGetPowerUsage returns, and so nvidia-smi prints. GA100 and older parts give the
// draw at an instant, smoothed over a few hundred ms (the A100 inference logs at 0.1 s ramp over
// 2-4 polls). Later parts give it averaged over about a second: the H200 step above takes ten
// polls, and step-and-sleep training reads 13 W of scatter through nvidia-smi's query against
// 65 W through our reader, polled every 0.1 s side by side. A lag of half the averaging window
// stands in for it.
constexpr double kInstantPowerTauS = 0.25;
constexpr double kAveragedPowerTauS = 0.5;
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
// Read by nvidia-smi, a part that reports power at an instant (GpuModel::instant_power) gives the
// draw of whatever kernel runs at the poll. Busy V100 and A100 readings in nvidia-smi logs
// scatter by 6-7 % of the dynamic draw (A100 LLM serving) to 10-24 % (V100 molecular dynamics)
// from poll to poll; averaging parts (H100, H200, B200) by about 1 %. How much depends on the
// kernel mix, which the simulator does not model, so each GPU of a trace draws its scatter from
// this range whatever its workload: the scatter then tells the GPU model, not the class.
constexpr double kInstantSdMin = 0.05, kInstantSdMax = 0.25;
// NVML samples utilization over a period "between 1 second and 1/6 second depending on the
// product" (nvmlDeviceGetUtilizationRates), and nvidia-smi prints the latest sample. Polled every
// 0.05-0.1 s, the nvidia-smi logs hold each value for 0.2-0.4 s (our H200, the A100, H100 and B200
// traces); polled every 5 s, the V100 MD runs read 0 % whenever a poll lands in a host pause of
// under a second. Drawn per GPU from the range the logs show.
constexpr double kUtilPeriodMinS = 1.0 / 6, kUtilPeriodMaxS = 0.5;

Rng third_stream(Rng rng) {
  rng.bits();
  return rng.fork();
}

}  // namespace

GpuPhysics::GpuPhysics(const GpuModel& gpu, PhysicsParams params, Rng rng)
    : gpu_(gpu),
      params_(params),
      rng_(rng),
      boost_rng_(Rng(rng).fork()),
      sensor_rng_(third_stream(rng)),
      limit_w_(gpu.power_limit_w * params.power_limit_fraction) {
  power_w_ = reported_power_w_ = gpu.idle_power_w;
  temp_c_ = params.ambient_c + 45.0 * gpu.idle_power_w / gpu.power_limit_w;
  sm_clock_mhz_ = gpu.idle_sm_clock_mhz;
  if (gpu.instant_power && params.reader == Reader::LatestSample)
    instant_sd_ = sensor_rng_.uniform(kInstantSdMin, kInstantSdMax);
  util_period_s_ = sensor_rng_.uniform(kUtilPeriodMinS, kUtilPeriodMaxS);
  // The driver's samples are not aligned with the polls; the time before the trace counts as idle.
  period_s_ = sensor_rng_.uniform(0, util_period_s_);
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
  // The lagged draw's mean over dt, exactly, then its value at the end.
  const double decay = std::exp(-dt / kPowerTauS);
  const double mean_w = target_power_w_ + (power_w_ - target_power_w_) * kPowerTauS / std::max(dt, 1e-12) * (1 - decay);
  power_w_ = target_power_w_ + (power_w_ - target_power_w_) * decay;
  if (params_.reader == Reader::LatestSample) {
    const double tau = gpu_.instant_power ? kInstantPowerTauS : kAveragedPowerTauS;
    reported_power_w_ += (mean_w - reported_power_w_) * (1 - std::exp(-dt / tau));
  } else {
    energy_j_ += mean_w * dt;
  }
  const double temp_target = params_.ambient_c + 45.0 * power_w_ / gpu_.power_limit_w;
  temp_c_ = temp_target + (temp_c_ - temp_target) * std::exp(-dt / kThermalTauS);
  sm_clock_mhz_ = target_clock_mhz_;
  const Activity& a = seg.activity;
  span_s_ += dt;
  if (params_.reader == Reader::LatestSample) {
    sample_utilization(a, dt);
  } else {
    busy_s_ += a.busy * dt;
    membw_s_ += a.busy * a.membw * dt;
  }
  rx_mb_ += a.pcie_rx_mbps * dt;
  tx_mb_ += a.pcie_tx_mbps * dt;
  nvl_mb_ += a.nvlink_mbps * dt;
}

void GpuPhysics::sample_utilization(const Activity& a, double dt) {
  for (double left = dt; left > 0;) {
    const double step = std::min(left, util_period_s_ - period_s_);
    period_s_ += step;
    period_busy_s_ += a.busy * step;
    period_membw_s_ += a.busy * a.membw * step;
    left -= step;
    if (period_s_ >= util_period_s_ - 1e-12) {
      util_sample_ = period_busy_s_ / period_s_;
      memutil_sample_ = period_membw_s_ / period_s_;
      period_s_ = period_busy_s_ = period_membw_s_ = 0;
    }
  }
}

SignalValues GpuPhysics::read(const Segment& seg) {
  SignalValues v;
  const double span = std::max(span_s_, 1e-9);
  // nvidia-smi prints integer percentages and MiB, power with two decimals.
  const bool latest = params_.reader == Reader::LatestSample;
  const double util = latest ? util_sample_ : busy_s_ / span, memutil = latest ? memutil_sample_ : membw_s_ / span;
  v.set(Signal::GpuUtil, std::clamp(std::round(100.0 * util), 0.0, 100.0));
  v.set(Signal::MemUtil, std::clamp(std::round(100.0 * memutil), 0.0, 100.0));
  v.set(Signal::MemUsed, std::round(std::clamp(seg.mem_used_mib, 0.0, gpu_.memory_mib)));
  v.set(Signal::MemTotal, gpu_.memory_mib);
  // What the reader reads: the mean since the last poll (ours), the draw at an instant (nvidia-smi
  // on GA100 and older), or its trailing average (nvidia-smi on later parts).
  const double drawn = latest ? reported_power_w_ : span_s_ > 0 ? energy_j_ / span_s_ : power_w_;
  double sensor = drawn + rng_.normal(0, 0.004 * drawn);  // sensor noise, ~0.4 %
  double ceiling = limit_w_ * 1.02;
  if (instant_sd_ > 0) {
    // The enforced limit holds the draw averaged over time, so an instant can exceed it.
    const double base = seg.processes > 0 ? gpu_.context_power_w : gpu_.idle_power_w;
    sensor += std::max(0.0, drawn - base) * sensor_rng_.normal(0, instant_sd_);
    ceiling = limit_w_ * 1.25;
  }
  v.set(Signal::Power, std::round(std::clamp(sensor, 0.0, ceiling) * 100) / 100);
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
  span_s_ = busy_s_ = membw_s_ = rx_mb_ = tx_mb_ = nvl_mb_ = energy_j_ = 0;
  return v;
}

}  // namespace wt::sim
