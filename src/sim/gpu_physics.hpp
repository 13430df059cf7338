// The physical response of one GPU to workload activity, shared by every workload family:
// activity -> what nvidia-smi would read (utilization, power, clocks, temperature, links).
#pragma once

#include "core/signal.hpp"
#include "sim/gpu_models.hpp"
#include "sim/reader.hpp"
#include "sim/rng.hpp"
#include "sim/workload.hpp"

namespace wt::sim {

struct PhysicsParams {
  double power_limit_fraction = 1.0;  // enforced limit / default limit (nvidia-smi -pl)
  double clock_cap_fraction = 1.0;    // locked SM clock / boost clock (nvidia-smi -lgc)
  double ambient_c = 30;              // inlet temperature
  Reader reader = Reader::IntervalMean;
};

class GpuPhysics {
 public:
  GpuPhysics(const GpuModel& gpu, PhysicsParams params, Rng rng);

  // A new segment takes effect: the draw and clock it asks for.
  void begin(const Segment& seg);
  // Advances `dt` seconds during which `seg` (the last one begun) is in effect.
  void advance(const Segment& seg, double dt);
  // What a poller reads now, as params.reader reads it; link rates averaged since the previous
  // read. Resets the averages. `seg` is the segment in effect.
  SignalValues read(const Segment& seg);

  double power_limit_w() const { return limit_w_; }

 private:
  // Feeds `dt` seconds of `a` into the driver's utilization samples (Reader::LatestSample).
  void sample_utilization(const Activity& a, double dt);

  const GpuModel& gpu_;
  PhysicsParams params_;
  Rng rng_;
  Rng boost_rng_;  // its own stream, so the boost clock's noise leaves every other reading as it was
  Rng sensor_rng_;         // likewise for the sensors' own draws below
  double instant_sd_ = 0;  // scatter of an instant power reading, relative to the dynamic draw; 0 on parts that average
  double util_period_s_;   // the driver's utilization sample period
  double period_s_ = 0, period_busy_s_ = 0, period_membw_s_ = 0;  // the sample period under way
  double util_sample_ = 0, memutil_sample_ = 0;                    // the last sample taken (fractions)
  double limit_w_;
  double power_w_, temp_c_, sm_clock_mhz_;
  double reported_power_w_;  // the draw as nvmlDeviceGetPowerUsage gives it (Reader::LatestSample)
  double energy_j_ = 0;      // since the last read (Reader::IntervalMean)
  double span_s_ = 0, busy_s_ = 0, membw_s_ = 0, rx_mb_ = 0, tx_mb_ = 0, nvl_mb_ = 0;
  double target_power_w_ = 0, target_clock_mhz_ = 0;  // of the segment in effect
  bool boosting_ = false;                              // busy below the power cap
};

}  // namespace wt::sim
