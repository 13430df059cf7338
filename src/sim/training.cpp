// Training: iterations of forward/backward and an optimizer step, data-loader stalls, evaluation
// phases, checkpoint pauses; memory that ramps while the model loads and the caching allocator
// warms up, then stays flat; multi-GPU data and tensor parallelism with collective traffic.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

class TrainingLoop final : public QueuedWorkload {
 public:
  TrainingLoop(const TrainingParams& p, const WorkloadContext& ctx) : p_(p), gpu_(*ctx.gpu) {
    mem_ = p.from_launch && !p.preallocate ? gpu_.context_mib : p.plateau_mib;
    // A trace that joins a running job sees it at some point of its eval/checkpoint schedule.
    Rng phase(ctx.job_seed ^ 0x5bd1e995ULL);
    since_eval_ = p.from_launch ? 0 : phase.uniform(0, p.eval_every_s);
    since_ckpt_ = p.from_launch ? 0 : phase.uniform(0, p.ckpt_every_s);
  }

 private:
  void plan(Rng& rng) override {
    if (!started_) {
      started_ = true;
      if (p_.rank_offset_s > 0) push(p_.rank_offset_s, {}, mem_);
      if (p_.from_launch) plan_launch(rng);
      return;
    }
    if (since_ckpt_ >= p_.ckpt_every_s) return plan_checkpoint(rng);
    if (since_eval_ >= p_.eval_every_s) return plan_eval(rng);
    if (rng.chance(p_.stall_prob)) {  // the data loader could not keep up
      const double d = p_.iter_s * rng.uniform(0.3, 3.0);
      push(d, {0, 0, 0, p_.pcie_rx_mbps * 2, 0, 0}, mem_);
      count(d);
    }
    plan_iteration(rng);
  }

  void count(double d) {
    since_eval_ += d;
    since_ckpt_ += d;
  }

  // Process start, then weights copied to the device in a few steps.
  void plan_launch(Rng& rng) {
    push(rng.uniform(2, 20), {}, p_.preallocate ? mem_ : gpu_.context_mib);
    const int steps = rng.integer(3, 8);
    const double each = rng.uniform(0.5, 2.5);
    for (int i = 1; i <= steps; ++i) {
      if (!p_.preallocate) mem_ = gpu_.context_mib + p_.weights_mib * i / steps;
      push(each, {0.05, 0.1, 0.2, std::min(gpu_.pcie_gbps * 700, 8000.0), 0, 0}, mem_);
    }
    warmup_iters_ = p_.preallocate ? 0 : rng.integer(1, 4);
  }

  void plan_iteration(Rng& rng) {
    // The caching allocator grows over the first iterations (activations, gradients, optimizer state).
    if (warmup_iters_ > 0) {
      mem_ += (p_.plateau_mib - mem_) / warmup_iters_;
      --warmup_iters_;
    }
    const double iter = p_.iter_s * rng.jitter(0.02);
    const double micro = iter * (1 - p_.optimizer_frac) / p_.accum_steps;
    const double rx = p_.pcie_rx_mbps;
    const double nvl_fwd = p_.comm_throughout ? p_.nvlink_mbps : 0;
    for (int m = 0; m < p_.accum_steps; ++m) {
      // Forward a third, backward two thirds; DDP all-reduces gradient buckets during the last micro-batch's backward.
      const bool sync = m + 1 == p_.accum_steps;
      push(micro / 3, {p_.launch_busy, p_.compute * 0.9, p_.membw, rx, 0, nvl_fwd}, mem_);
      push(micro * 2 / 3,
           {p_.launch_busy, p_.compute, p_.membw, rx, 0, sync || p_.comm_throughout ? p_.nvlink_mbps : 0}, mem_);
    }
    double total = iter * (1 - p_.optimizer_frac);
    if (p_.comm_tail_frac > 0) {  // communication the backward pass could not hide: NCCL kernels keep util up
      push(iter * p_.comm_tail_frac, {0.95, 0.08, 0.3, 0, 0, p_.nvlink_mbps * 1.5}, mem_);
      total += iter * p_.comm_tail_frac;
    }
    // The optimizer step streams weights, gradients and moments once: memory-bound, as busy as the step.
    push(iter * p_.optimizer_frac, {p_.launch_busy, 0.25, std::min(0.85, 0.25 + p_.membw), 0, 0, 0}, mem_);
    total += iter * p_.optimizer_frac;
    count(total);
  }

  void plan_eval(Rng& rng) {
    since_eval_ = 0;
    const double d = p_.eval_s * rng.jitter(0.2);
    // Forward passes only, no optimizer; the evaluation batch may need a little more memory.
    mem_ = std::min(gpu_.memory_mib * 0.98, mem_ + p_.plateau_mib * rng.uniform(0, 0.03));
    push(d, {p_.launch_busy * 0.92, p_.compute * 0.6, p_.membw * 0.8, p_.pcie_rx_mbps * 1.5, 0, 0}, mem_);
    count(d);
  }

  void plan_checkpoint(Rng& rng) {
    since_ckpt_ = 0;
    const double d = p_.ckpt_s * rng.jitter(0.2);
    // State copied to host memory, then written out while the GPU waits.
    push(d * 0.3, {0.04, 0.05, 0.3, 0, std::min(gpu_.pcie_gbps * 600, 12000.0), 0}, mem_);
    push(d * 0.7, {}, mem_);
    count(d);
  }

  TrainingParams p_;
  const GpuModel& gpu_;
  bool started_ = false;
  double mem_;
  int warmup_iters_ = 0;
  double since_eval_ = 0, since_ckpt_ = 0;
};

}  // namespace

TrainingParams draw_training_params(std::string_view variant, const WorkloadContext& ctx, Rng& job) {
  const GpuModel& g = *ctx.gpu;
  TrainingParams p;
  p.from_launch = job.chance(0.4);
  // Back-to-back kernels (CUDA graphs, async loaders) read as 100 %; launch gaps leave a few % idle.
  p.launch_busy = job.uniform(0.93, 1.0);
  p.stall_prob = job.uniform(0, 0.05);
  p.pcie_rx_mbps = job.log_uniform(20, 800);
  p.eval_every_s = job.uniform(120, 1200);
  p.eval_s = job.uniform(5, 30);
  p.ckpt_every_s = job.uniform(120, 1800);
  p.ckpt_s = job.uniform(3, 30);
  if (variant == "pretrain" || variant == "ddp" || variant == "tp") {
    p.iter_s = job.log_uniform(0.3, 3);
    p.compute = job.uniform(0.3, 1.0);
    p.membw = job.uniform(0.15, 0.7);
    p.optimizer_frac = job.uniform(0.05, 0.15);
    p.plateau_mib = g.memory_mib * job.uniform(0.55, 0.95);
    p.weights_mib = p.plateau_mib * job.uniform(0.1, 0.3);
  } else if (variant == "finetune") {
    // Includes small models whose many small kernels keep utilization near 100 % at a fraction of the
    // power limit, as in the real H100 traces (99 % busy at ~25 % of 700 W).
    p.iter_s = job.log_uniform(0.1, 1.5);
    p.compute = job.uniform(0.08, 0.8);
    p.membw = job.uniform(0.03, 0.5);
    p.optimizer_frac = job.uniform(0.04, 0.12);
    p.plateau_mib = g.memory_mib * job.uniform(0.15, 0.9);
    p.weights_mib = p.plateau_mib * job.uniform(0.15, 0.4);
    p.eval_every_s = job.uniform(60, 600);
  } else if (variant == "lora") {
    p.iter_s = job.log_uniform(0.1, 1.0);
    p.compute = job.uniform(0.08, 0.6);
    p.membw = job.uniform(0.03, 0.5);
    p.optimizer_frac = job.uniform(0.01, 0.04);  // only the adapters are updated
    p.plateau_mib = g.memory_mib * job.uniform(0.15, 0.6);
    p.weights_mib = p.plateau_mib * job.uniform(0.5, 0.8);  // frozen base weights dominate
  } else if (variant == "online") {
    // Online learning: small updates as data arrives; the data-loader waits are the arrivals.
    p.iter_s = job.log_uniform(0.05, 0.4);
    p.compute = job.uniform(0.15, 0.6);
    p.membw = job.uniform(0.2, 0.5);
    p.optimizer_frac = job.uniform(0.05, 0.15);
    p.stall_prob = job.uniform(0.2, 0.6);
    p.plateau_mib = g.memory_mib * job.uniform(0.1, 0.4);
    p.weights_mib = p.plateau_mib * job.uniform(0.3, 0.6);
  } else {
    throw std::invalid_argument("unknown training variant '" + std::string(variant) + "'");
  }
  // Small models, or small per-GPU batches, on big GPUs: GEMMs too small to fill the SMs, so the
  // board draws a fraction of its limit while util reads ~100 % (a 125M-parameter GPT on an H100
  // draws ~25 % of 700 W); weights, gradients and optimizer state take a few GB of a large memory;
  // and where kernels are shorter than the host's launch latency the GPU waits on Python between
  // them, so util sits at a steady 40-90 % (BERT/GPT-2 fine-tunes on a B200).
  if (variant != "online" && job.chance(0.4)) {
    p.compute = job.uniform(0.03, 0.2);
    p.membw = job.uniform(0.02, 0.2);
    p.plateau_mib = std::min(g.memory_mib * 0.9, g.context_mib + job.log_uniform(1500, 45000));
    p.weights_mib = (p.plateau_mib - g.context_mib) * job.uniform(0.1, 0.4);
    if (job.chance(0.2)) p.launch_busy = job.uniform(0.4, 0.9);
  }
  if ((variant == "ddp" || variant == "tp") && ctx.ranks > 1) {
    const double link_mbps = g.nvlink_gbps * 1000 / 2;  // one direction
    if (variant == "ddp") {
      // Ring all-reduce moves ~2x the gradient bytes per iteration during backward (gradients ~ weights).
      const double bwd_s = p.iter_s * (1 - p.optimizer_frac) * 2 / 3;
      p.nvlink_mbps = std::min(0.8 * link_mbps, 2 * p.weights_mib * 1.048576 / bwd_s);
      p.comm_tail_frac = job.uniform(0.02, 0.1);
    } else {
      p.comm_throughout = true;
      p.nvlink_mbps = link_mbps * job.uniform(0.3, 0.7);  // activations exchanged every layer
      p.compute *= job.uniform(0.7, 0.9);                 // smaller GEMMs per GPU
    }
  }
  return p;
}

WorkloadPtr make_training_loop(const TrainingParams& p, const WorkloadContext& ctx) {
  return std::make_unique<TrainingLoop>(p, ctx);
}

WorkloadPtr make_training(std::string_view variant, const WorkloadContext& ctx) {
  Rng job(ctx.job_seed);
  return make_training_loop(draw_training_params(variant, ctx, job), ctx);
}

}  // namespace wt::sim
