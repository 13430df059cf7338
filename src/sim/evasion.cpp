// Evasion families: training run so that its telemetry looks like something else. Each is a
// generator: it changes how the training job runs (sleeps it inserts, limits it sets, what it
// allocates, what it runs beside), and the shared GPU physics responds as it would on a real GPU.
// docs/simulator.md says for each what it changes and why it might fool a classifier.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

constexpr double kTwoPi = 6.283185307179586;

bool busy(const Segment& s) { return s.activity.busy > 0.5; }

// Cuts another workload's segments to any length, keeping the rest for later.
class Slicer {
 public:
  explicit Slicer(WorkloadPtr w) : w_(std::move(w)) {}
  Segment take(Rng& rng, double max_s) {
    if (left_ <= 0) {
      cur_ = w_->next(rng);
      left_ = cur_.duration_s;
    }
    Segment s = cur_;
    s.duration_s = std::min(left_, max_s);
    left_ -= s.duration_s;
    last_mem_ = s.mem_used_mib;
    return s;
  }
  double last_mem() const { return last_mem_; }
  Workload& workload() { return *w_; }

 private:
  WorkloadPtr w_;
  Segment cur_;
  double left_ = 0, last_mem_ = 0;
};

// Base of the evasions: owns the training job (and whatever runs beside it) and keeps the clock.
class Evasion : public QueuedWorkload {
 protected:
  explicit Evasion(const WorkloadContext& ctx) : ctx_(ctx), job_(ctx.job_seed ^ 0xe7a51000ULL) {}
  void emit(Segment s, double extra_mem = 0, int extra_procs = 0) {
    s.mem_used_mib = std::min(ctx_.gpu->memory_mib * 0.98, s.mem_used_mib + extra_mem);
    s.processes += extra_procs;
    t_ += s.duration_s;
    push(s);
  }
  void idle(double seconds, double mem) { emit(gap(seconds, mem, 1)); }
  // Runs `w` for `seconds` of wall time, with another job's memory still resident.
  void run_for(Slicer& w, Rng& rng, double seconds, double extra_mem = 0, int extra_procs = 0) {
    for (double left = seconds; left > 1e-9;) {
      Segment s = w.take(rng, left);
      left -= s.duration_s;
      emit(s, extra_mem, extra_procs);
    }
  }
  TrainingParams training_params(std::string_view variant) { return draw_training_params(variant, ctx_, job_); }

  WorkloadContext ctx_;
  Rng job_;  // evasion parameters, shared by every rank
  double t_ = 0;
};

// A training loop whose busy segments are each followed by a sleep the subclass chooses.
class SleepAfterSteps : public Evasion {
 protected:
  SleepAfterSteps(const WorkloadContext& ctx, std::string_view variant) : Evasion(ctx) {
    p_ = training_params(variant);
  }
  void start() { train_ = make_training_loop(p_, ctx_); }
  void plan(Rng& rng) override {
    Segment s = train_->next(rng);
    emit(s);
    if (busy(s)) {
      const double sleep = sleep_after(s, rng);
      if (sleep > 0) idle(sleep, s.mem_used_mib);
    }
  }
  virtual double sleep_after(const Segment& s, Rng& rng) = 0;
  TrainingParams p_;
  WorkloadPtr train_;
};

// 1. Duty cycle swept slowly up and down (a sine of period 20-120 s) by sleeping after kernels.
class UtilModulation final : public SleepAfterSteps {
 public:
  UtilModulation(const WorkloadContext& ctx, std::string_view v) : SleepAfterSteps(ctx, v) {
    period_ = job_.uniform(20, 120);
    depth_ = job_.uniform(0.2, 0.45);
    start();
  }
  double sleep_after(const Segment& s, Rng&) override {
    const double duty = std::clamp(0.55 + depth_ * std::sin(kTwoPi * t_ / period_), 0.1, 1.0);
    return s.duration_s * (1 - duty) / duty;
  }
  double period_, depth_;
};

// 2. Sustained low utilization: small batches and a fixed sleep share.
class LowUtil final : public SleepAfterSteps {
 public:
  LowUtil(const WorkloadContext& ctx, std::string_view v) : SleepAfterSteps(ctx, v) {
    p_.compute *= 0.6;
    p_.iter_s *= 0.5;
    duty_ = job_.uniform(0.12, 0.35);
    start();
  }
  double sleep_after(const Segment& s, Rng& rng) override {
    return s.duration_s * (1 - duty_) / duty_ * rng.jitter(0.1);
  }
  double duty_;
};

// 3. A PID controller sleeps just enough to hold the 1 s utilization at a target, as a
// throttling wrapper around the training step would.
class PidTarget final : public SleepAfterSteps {
 public:
  PidTarget(const WorkloadContext& ctx, std::string_view v) : SleepAfterSteps(ctx, v) {
    target_ = job_.uniform(0.25, 0.55);
    start();
  }
  double sleep_after(const Segment& s, Rng&) override {
    // Measured utilization: exponential average of busy time with a 1 s horizon.
    const double a = std::exp(-s.duration_s / 1.0);
    measured_ = measured_ * a + s.activity.busy * (1 - a);
    const double err = measured_ - target_;
    integral_ = std::clamp(integral_ + err * s.duration_s, -2.0, 2.0);
    const double deriv = (err - last_err_) / std::max(s.duration_s, 1e-3);
    last_err_ = err;
    const double sleep = std::max(0.0, 1.5 * err + 0.8 * integral_ + 0.05 * deriv) * s.duration_s * 4;
    measured_ *= std::exp(-sleep / 1.0);  // the sleep lowers the measured utilization
    return sleep;
  }
  double target_, measured_ = 0, integral_ = 0, last_err_ = 0;
};

// 12. Stochastic timing: random sleeps and jittered steps break the iteration period.
class StochasticTiming final : public SleepAfterSteps {
 public:
  StochasticTiming(const WorkloadContext& ctx, std::string_view v) : SleepAfterSteps(ctx, v) {
    mean_ = job_.uniform(0.2, 1.5);
    start();
  }
  double sleep_after(const Segment& s, Rng& rng) override { return rng.exponential(mean_ * s.duration_s); }
  double mean_;
};

// Evasions that are a training loop with changed parameters or limits.
class Configured final : public Evasion {
 public:
  Configured(const WorkloadContext& ctx, std::string_view evasion, std::string_view variant) : Evasion(ctx) {
    TrainingParams p = training_params(variant);
    const GpuModel& g = *ctx.gpu;
    if (evasion == "power-cap") {  // 4. nvidia-smi -pl to near the minimum and -lgc to a low clock
      limit_ = job_.uniform(0.3, 0.5);
      clock_ = job_.uniform(0.45, 0.75);
    } else if (evasion == "minimal-memory") {  // 5. tiny micro-batches, activation checkpointing
      p.plateau_mib = std::max(1500.0, g.memory_mib * job_.uniform(0.015, 0.06));
      p.weights_mib = p.plateau_mib * 0.5;
      p.compute *= 0.6;
      p.iter_s *= 1.3;                       // recomputation
    } else if (evasion == "mem-prealloc") {  // 6. reserve the plateau at start: no ramp to see
      p.from_launch = true;
      p.preallocate = true;
      p.plateau_mib = g.memory_mib * job_.uniform(0.85, 0.95);
    } else if (evasion == "grad-accumulation") {  // 11. many micro-batches per (rare) optimizer step
      p.accum_steps = job_.integer(4, 64);
      p.iter_s *= p.accum_steps * 0.4;
      p.compute *= 0.7;
      p.optimizer_frac /= p.accum_steps;
      p.plateau_mib *= 0.6;
    } else if (evasion == "mimic-mining") {  // 13. one flat kernel stream, capped power, fixed memory
      p.launch_busy = 1.0;
      p.stall_prob = 0;
      p.eval_every_s = p.ckpt_every_s = 1e12;
      p.optimizer_frac = 0.01;
      p.membw = job_.uniform(0.85, 1.0);
      p.compute = job_.uniform(0.3, 0.5);
      p.preallocate = true;
      p.plateau_mib = ctx.gpu->context_mib + job_.uniform(4500, 6500);
      limit_ = job_.uniform(0.55, 0.8);
    } else {
      throw std::invalid_argument("unknown evasion '" + std::string(evasion) + "'");
    }
    train_ = make_training_loop(p, ctx);
  }
  double power_limit_fraction() const override { return limit_; }
  double clock_cap_fraction() const override { return clock_; }

 private:
  void plan(Rng& rng) override { emit(train_->next(rng)); }
  WorkloadPtr train_;
  double limit_ = 1.0, clock_ = 1.0;
};

// Evasions that alternate training with other work or with idle time, in chunks.
class Alternating final : public Evasion {
 public:
  Alternating(const WorkloadContext& ctx, std::string_view evasion, std::string_view variant)
      : Evasion(ctx), kind_(evasion) {
    TrainingParams p = training_params(variant);
    WorkloadContext other = ctx;
    other.job_seed = ctx.job_seed * 0x9e3779b97f4a7c15ULL + 17;
    if (kind_ == "mimic-fft" || kind_ == "mimic-inference")
      p.plateau_mib = std::min(p.plateau_mib, ctx.gpu->memory_mib * 0.2);
    if (kind_ == "mimic-inference") {
      p.preallocate = true;  // a KV-cache-sized reservation, flat like vLLM's
      p.plateau_mib = ctx.gpu->memory_mib * job_.uniform(0.85, 0.95);
      p.iter_s = job_.uniform(0.05, 0.3);
    }
    train_ = std::make_unique<Slicer>(make_training_loop(p, ctx));
    if (kind_ == "interleave-inference" || kind_ == "dilution" || kind_ == "online-serving")
      other_ = std::make_unique<Slicer>(make_inference(job_.chance(0.5) ? "online-poisson" : "online-bursty", other));
    else if (kind_ == "interleave-nonml")
      other_ = std::make_unique<Slicer>(make_hpc(job_.chance(0.5) ? "fft" : "gemm-fp64", other));
    else if (kind_ != "idle-padding" && kind_ != "window-boundary" && kind_ != "mimic-fft" &&
             kind_ != "mimic-inference")
      throw std::invalid_argument("unknown evasion '" + kind_ + "'");
    train_s_ = job_.uniform(5, 60);
    other_s_ = job_.uniform(5, 60);
    ratio_ = job_.integer(2, 10);
    idle_frac_ = job_.uniform(0, 0.95);
    burst_s_ = job_.uniform(6, 14);
    cycle_s_ = job_.chance(0.5) ? 30 : 60;
    rate_ = job_.log_uniform(0.2, 3);
  }

 private:
  void plan(Rng& rng) override {
    const double other_mem = other_ ? other_->last_mem() : 0;
    if (kind_ == "interleave-inference" || kind_ == "interleave-nonml") {  // 7, 8: time-sliced with other work
      run_for(*train_, rng, train_s_ * rng.jitter(0.3), other_mem, 1);
      run_for(*other_, rng, other_s_ * rng.jitter(0.3), train_->last_mem(), 1);
    } else if (kind_ == "dilution") {  // 9: N x inference for every second of training
      const double chunk = rng.uniform(1, 5);
      run_for(*train_, rng, chunk, other_mem, 1);
      run_for(*other_, rng, chunk * ratio_, train_->last_mem(), 1);
    } else if (kind_ == "online-serving") {  // 17: serve, and now and then learn from the traffic
      run_for(*other_, rng, rng.uniform(2, 20), train_->last_mem(), 1);
      run_for(*train_, rng, rng.uniform(0.3, 3), other_mem, 1);
    } else if (kind_ == "idle-padding") {  // 10: long idle stretches, 0-95 % of the time
      const double on = train_s_ * rng.jitter(0.3);
      run_for(*train_, rng, on);
      idle(on * idle_frac_ / (1 - idle_frac_), train_->last_mem());
    } else if (kind_ == "window-boundary") {  // 16: bursts centred on 15 s window-stride boundaries
      const double centre = std::ceil((t_ + burst_s_ / 2 + 1e-6) / cycle_s_) * cycle_s_;
      const double start = centre - burst_s_ / 2;
      if (start > t_) idle(start - t_, std::max(train_->last_mem(), ctx_.gpu->context_mib));
      run_for(*train_, rng, burst_s_);
    } else if (kind_ == "mimic-fft") {  // 14: short benchmark-like blocks with host pauses
      run_for(*train_, rng, rng.uniform(0.5, 10));
      idle(rng.uniform(0.02, 0.5), train_->last_mem());
    } else {  // 15. mimic-inference: a few steps per "request", Poisson gaps between
      run_for(*train_, rng, rng.uniform(0.05, 1.5));
      idle(rng.exponential(1 / rate_), train_->last_mem());
    }
  }

  std::string kind_;
  std::unique_ptr<Slicer> train_, other_;
  double train_s_, other_s_, idle_frac_, burst_s_, cycle_s_, rate_;
  int ratio_;
};

}  // namespace

const std::vector<EvasionInfo>& evasion_infos() {
  static const std::vector<EvasionInfo> infos{
      {"util-modulation", "pretrain", 1},
      {"low-util", "finetune", 1},
      {"pid-target", "finetune", 1},
      {"power-cap", "pretrain", 1},
      {"minimal-memory", "finetune", 1},
      {"mem-prealloc", "pretrain", 1},
      {"interleave-inference", "finetune", 1},
      {"interleave-nonml", "pretrain", 1},
      {"dilution", "lora", 1},
      {"idle-padding", "pretrain", 1},
      {"grad-accumulation", "pretrain", 1},
      {"stochastic-timing", "finetune", 1},
      {"mimic-mining", "finetune", 1},
      {"mimic-fft", "finetune", 1},
      {"mimic-inference", "lora", 1},
      {"window-boundary", "pretrain", 1},
      {"online-serving", "online", 1},
      {"ddp-staggered", "ddp", 4},
  };
  return infos;
}

WorkloadPtr make_evasion(std::string_view evasion, std::string_view variant, const WorkloadContext& ctx) {
  if (evasion == "util-modulation") return std::make_unique<UtilModulation>(ctx, variant);
  if (evasion == "low-util") return std::make_unique<LowUtil>(ctx, variant);
  if (evasion == "pid-target") return std::make_unique<PidTarget>(ctx, variant);
  if (evasion == "stochastic-timing") return std::make_unique<StochasticTiming>(ctx, variant);
  if (evasion == "power-cap" || evasion == "minimal-memory" || evasion == "mem-prealloc" ||
      evasion == "grad-accumulation" || evasion == "mimic-mining")
    return std::make_unique<Configured>(ctx, evasion, variant);
  if (evasion == "ddp-staggered") {  // 18. ranks out of step, collectives spread thin over the iteration
    Rng job(ctx.job_seed);
    TrainingParams p = draw_training_params("ddp", ctx, job);
    p.comm_throughout = true;
    p.nvlink_mbps *= 0.5;
    p.comm_tail_frac = 0;
    p.rank_offset_s = p.iter_s * ctx.rank / std::max(1, ctx.ranks);
    return make_training_loop(p, ctx);
  }
  return std::make_unique<Alternating>(ctx, evasion, variant);
}

}  // namespace wt::sim
