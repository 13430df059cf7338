// Inference: online serving (Poisson, bursty or diurnal arrivals, continuous batching, prefill
// then decode), offline batch generation, and embedding.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

enum class Arrivals { Poisson, Bursty, Diurnal };

// An LLM server with continuous batching, simulated in steps of `tick` seconds: each step admits
// the requests that arrived (their prefill: compute-bound, short), then decodes one token per
// step_s for every running request (memory-bound: weights and KV cache are read each step, so the
// GPU is busy most of the time at well under its power limit).
class LlmServer final : public QueuedWorkload {
 public:
  LlmServer(Arrivals arrivals, const WorkloadContext& ctx) : arrivals_(arrivals), gpu_(*ctx.gpu) {
    Rng job(ctx.job_seed);
    rate_ = job.log_uniform(0.05, 20);
    step_s_ = job.uniform(0.012, 0.06);
    prefill_s_per_req_ = job.uniform(0.01, 0.15);
    out_tokens_mean_ = job.log_uniform(30, 600);
    max_batch_ = job.integer(8, 256);
    decode_compute_ = job.uniform(0.15, 0.4);
    decode_membw_ = job.uniform(0.5, 0.95);
    // From a 1B model in 8-bit to a 70B one in 16-bit on this GPU's share: the footprint is set by
    // the model, not by the GPU, so a small model on a big GPU fills a few % of it.
    weights_mib_ = std::min(gpu_.memory_mib * 0.6, job.log_uniform(1000, 80000));
    // vLLM/TensorRT-LLM reserve the KV cache up front (flat memory); plain frameworks grow with the batch.
    preallocated_ = job.chance(0.5);
    flat_mib_ = preallocated_ ? gpu_.memory_mib * job.uniform(0.85, 0.95) : gpu_.context_mib + weights_mib_;
    kv_mib_per_req_ = job.log_uniform(20, 800);
    burst_high_ = job.uniform(3, 8);
    burst_mean_s_ = job.uniform(10, 90);
    diurnal_period_s_ = job.uniform(600, 86400);
    diurnal_phase_ = job.uniform(0, 6.283185307179586);
    setup_s_ = job.chance(0.4) ? job.log_uniform(3, 90) : 0;  // the server starts: weights loaded, cache reserved
  }

 private:
  double rate_now(Rng& rng) {
    switch (arrivals_) {
      case Arrivals::Poisson:
        return rate_;
      case Arrivals::Bursty:  // two-state Markov-modulated Poisson process
        if ((burst_left_s_ -= tick_) <= 0) {
          in_burst_ = !in_burst_;
          burst_left_s_ = rng.exponential(in_burst_ ? burst_mean_s_ / 3 : burst_mean_s_);
        }
        return in_burst_ ? rate_ * burst_high_ : rate_ * 0.1;
      case Arrivals::Diurnal:
        return rate_ * (1 + 0.8 * std::sin(6.283185307179586 * t_ / diurnal_period_s_ + diurnal_phase_));
    }
    return rate_;
  }

  void plan(Rng& rng) override {
    if (plan_setup(rng, gpu_, mem())) return;
    const double rate = rate_now(rng);
    int admitted = 0;
    if (running_.empty()) {  // idle until the next arrival, at most a few seconds at a time
      const double wait = std::min(rng.exponential(1.0 / std::max(rate, 1e-3)), 5.0);
      push(wait, {}, mem());
      t_ += wait;
      if (wait >= 5.0) return;
      running_.push_back(out_tokens(rng));
      admitted = 1;
    }
    // Arrivals during this tick join the batch (continuous batching); each needs a prefill.
    for (double a = rng.exponential(1.0 / std::max(rate, 1e-3)); a < tick_;
         a += rng.exponential(1.0 / std::max(rate, 1e-3)))
      if (static_cast<int>(running_.size()) < max_batch_) {
        running_.push_back(out_tokens(rng));
        ++admitted;
      }
    const double prefill = std::min(tick_ * 0.8, admitted * prefill_s_per_req_ * rng.jitter(0.2));
    if (prefill > 0) push(prefill, {0.98, 0.85, 0.4, 20.0 * admitted, 0, 0}, mem());
    // Decode the rest of the tick: one token per running request per step.
    const double batch = static_cast<double>(running_.size());
    const double step = step_s_ * (1 + 0.004 * batch);
    const double decode = tick_ - prefill;
    const int steps = static_cast<int>(decode / step);
    const double load = std::min(1.0, 0.6 + batch / 64);  // small batches leave launch gaps between steps
    push(decode, {0.97 * load, decode_compute_ * (0.7 + 0.3 * load), decode_membw_ * load, 0, 2.0 * batch, 0}, mem());
    for (auto& left : running_) left -= steps;
    std::erase_if(running_, [](double left) { return left <= 0; });
    t_ += tick_;
  }

  double out_tokens(Rng& rng) { return std::max(1.0, rng.exponential(out_tokens_mean_)); }
  double mem() const {
    if (preallocated_) return flat_mib_;
    return std::min(gpu_.memory_mib * 0.97, flat_mib_ + kv_mib_per_req_ * static_cast<double>(running_.size()));
  }

  Arrivals arrivals_;
  const GpuModel& gpu_;
  double tick_ = 0.2;
  double rate_, step_s_, prefill_s_per_req_, out_tokens_mean_;
  int max_batch_;
  double decode_compute_, decode_membw_, weights_mib_, flat_mib_, kv_mib_per_req_;
  bool preallocated_;
  double burst_high_, burst_mean_s_, diurnal_period_s_, diurnal_phase_;
  bool in_burst_ = false;
  double burst_left_s_ = 0, t_ = 0;
  std::vector<double> running_;  // tokens left per running request
};

// Offline generation (HF `generate` over a dataset): batch after batch, each a prefill and a
// decode of fixed length, with host-side tokenization between. Decode reads every weight once per
// token: memory-bound at small batches, so the GPU is busy at a power set by HBM traffic more than
// by FLOPs, and the draw swings from token to token (attention over a growing KV cache, sampling on
// the host). Large batches and long prompts make it compute-bound: the A100 generate traces in
// ../shared/real-traces run at 97-100 % of the power limit, and step up batch by batch as a
// benchmark sweeps its input length (load levels below). With the model split layer-wise over
// several GPUs (accelerate's device_map="auto"), each GPU runs its layers in turn: once a forward
// pass is slow enough for the poll to see it (falcon-40b over 3 A100s: ~0.9 s per pass), each GPU
// bursts for its slot of the pass (there, to the limit for a third of it) and idles for the rest,
// the GPUs one slot apart.
class BatchGeneration final : public QueuedWorkload {
 public:
  explicit BatchGeneration(const WorkloadContext& ctx)
      : gpu_(*ctx.gpu), timing_(ctx.job_seed ^ 0x9e37ULL), rank_(ctx.rank) {
    Rng job(ctx.job_seed);
    decode_s_ = job.log_uniform(2, 40);
    prefill_s_ = job.uniform(0.05, 0.8);
    host_s_ = job.uniform(0.05, 1.5);
    decode_busy_ = job.uniform(0.6, 1.25);  // above 1: kernels queue back to back, utilization pins at 100 %
    decode_compute_ = job.uniform(0.2, 0.95);
    decode_membw_ = job.uniform(0.3, 0.8);
    token_sd_ = job.uniform(0.05, 0.25);
    pass_s_ = job.log_uniform(0.02, 1.5);
    sweep_ = job.chance(0.35);
    level_ = sweep_ ? job.uniform(0.2, 0.6) : 1.0;
    const double model_mib = job.log_uniform(2000, 100000);  // 1B-50B parameters in 16-bit
    span_ = ctx.ranks > 1 ? job.integer(2, ctx.ranks) : 1;
    Rng split(ctx.job_seed ^ (0x51ULL + static_cast<std::uint64_t>(ctx.rank)));
    share_ = ctx.rank < span_ ? std::min(1.0, split.uniform(0.7, 1.3) / span_) : 0;
    mem_ = gpu_.context_mib + std::min(gpu_.memory_mib * 0.9, model_mib / span_ * job.uniform(1.1, 1.6));
    setup_s_ = job.chance(0.6) ? job.log_uniform(3, 90) : 0;  // from_pretrained: weights read and copied
  }

 private:
  void plan(Rng& rng) override {
    if (share_ <= 0) return push(10, {}, gpu_.idle_mib, 0);
    if (plan_setup(rng, gpu_, mem_)) return;
    // A sweep raises the batch's input length (so its load) batch by batch, then starts over;
    // a dataset's batches differ a little. Drawn from timing_: every GPU of a split model agrees.
    const double level = sweep_ ? level_ : timing_.uniform(0.8, 1.0);
    if (sweep_ && (level_ += timing_.uniform(0.05, 0.2)) > 1.0) level_ = timing_.uniform(0.2, 0.6);
    push(host_s_ * timing_.jitter(0.3), {0.02, 0.1, 0.05, 100, 20, 0}, mem_);
    const double prefill = prefill_s_ * timing_.jitter(0.2) * (0.5 + level);
    const double d = decode_s_ * timing_.jitter(0.25);
    if (span_ > 1 && pass_s_ / span_ >= 0.1) {
      take_turns(rng, prefill, 0.9 * level, 0.45);
      take_turns(rng, d, decode_compute_ * level, decode_membw_);
      return;
    }
    push(prefill, {0.99 * share_, 0.9 * level, 0.45, 0, 0, 0}, mem_);
    // Decode in runs of a few tokens; memory traffic rises as the KV cache grows.
    const int runs = std::max(1, static_cast<int>(d / 0.25));
    const double busy = decode_busy_ * (0.55 + 0.45 * level);
    for (int i = 0; i < runs; ++i) {
      const double grown = static_cast<double>(i) / runs;
      push(d / runs,
           {std::min(1.0, busy * share_ * rng.jitter(token_sd_ / 2)),
            decode_compute_ * level * (1 - 0.2 * grown) * rng.jitter(token_sd_), decode_membw_ * (0.85 + 0.3 * grown), 0,
            5, 0},
           mem_);
    }
  }

  // `seconds` of forward passes through a split model: this GPU busy for its slot of each pass.
  void take_turns(Rng& rng, double seconds, double compute, double membw) {
    const double slot = pass_s_ / span_;
    const Activity waiting{0.01, 0.05, 0.05, 0, 0, 0};
    for (double t = 0; t < seconds; t += pass_s_) {
      push(slot * rank_, waiting, mem_);
      push(slot, {0.99, compute * rng.jitter(token_sd_), membw, 0, 0, 2}, mem_);  // hands its activations on
      push(slot * (span_ - 1 - rank_), waiting, mem_);
    }
  }

  const GpuModel& gpu_;
  Rng timing_;  // shared by the ranks of a split model: they wait on the same host, token for token
  int rank_, span_;
  bool sweep_;
  double decode_s_, prefill_s_, host_s_, decode_busy_, decode_compute_, decode_membw_, token_sd_, pass_s_, level_,
      share_, mem_;
};

// Embedding service: encoder forward passes on batches of requests, no decode phase.
class Embedding final : public QueuedWorkload {
 public:
  explicit Embedding(const WorkloadContext& ctx) : gpu_(*ctx.gpu) {
    Rng job(ctx.job_seed);
    rate_ = job.log_uniform(0.5, 50);  // batches per second
    batch_s_ = job.uniform(0.005, 0.08);
    compute_ = job.uniform(0.5, 0.9);
    // Encoders and vision models are small (ResNet-50: 100 MB, BERT-large: 1.3 GB) plus batch activations.
    mem_ = gpu_.context_mib + std::min(gpu_.memory_mib * 0.5, job.log_uniform(300, 12000));
    setup_s_ = job.chance(0.5) ? job.log_uniform(2, 30) : 0;
  }

 private:
  void plan(Rng& rng) override {
    if (plan_setup(rng, gpu_, mem_)) return;
    // One segment per ~0.25 s: the batches that arrived in it, as a busy share.
    const double span = 0.25;
    double busy = 0;
    for (double a = rng.exponential(1 / rate_); a < span; a += rng.exponential(1 / rate_)) busy += batch_s_;
    busy = std::min(busy / span, 1.0);
    push(span, {busy, compute_, 0.35, 50 * busy, 10 * busy, 0}, mem_);
  }

  const GpuModel& gpu_;
  double rate_, batch_s_, compute_, mem_;
};

}  // namespace

WorkloadPtr make_inference(std::string_view variant, const WorkloadContext& ctx) {
  if (variant == "online-poisson") return std::make_unique<LlmServer>(Arrivals::Poisson, ctx);
  if (variant == "online-bursty") return std::make_unique<LlmServer>(Arrivals::Bursty, ctx);
  if (variant == "online-diurnal") return std::make_unique<LlmServer>(Arrivals::Diurnal, ctx);
  if (variant == "offline-batch" || variant == "offline-split") return std::make_unique<BatchGeneration>(ctx);
  if (variant == "embedding") return std::make_unique<Embedding>(ctx);
  throw std::invalid_argument("unknown inference variant '" + std::string(variant) + "'");
}

}  // namespace wt::sim
