// Cryptocurrency mining: the same kernel forever. Memory-hard hashing (Ethash-style) streams a
// multi-GB dataset (DAG) at full bandwidth; KawPoW-style mixes in more compute. Miners tune for
// hashes per watt: a lowered power limit and locked clocks are the norm. Memory flat, no host traffic.
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

class Miner final : public QueuedWorkload {
 public:
  Miner(std::string_view variant, const WorkloadContext& ctx) : gpu_(*ctx.gpu) {
    Rng job(ctx.job_seed);
    if (variant == "ethash") {
      compute_ = job.uniform(0.3, 0.5);
      membw_ = job.uniform(0.9, 1.0);
    } else if (variant == "kawpow") {
      compute_ = job.uniform(0.6, 0.9);
      membw_ = job.uniform(0.7, 0.9);
    } else {
      throw std::invalid_argument("unknown mining variant '" + std::string(variant) + "'");
    }
    mem_ = ctx.gpu->context_mib + job.uniform(4500, 6500);  // the DAG of a current epoch, ~5-6 GB
    limit_ = job.chance(0.7) ? job.uniform(0.55, 0.85) : 1.0;
    clock_ = job.chance(0.5) ? job.uniform(0.6, 0.9) : 1.0;
    // Rigs run for months, so a trace rarely sees the start: the miner's context, then the DAG
    // computed on the GPU (busy, memory growing to the DAG size) before hashing begins.
    dag_s_ = job.chance(0.2) ? job.uniform(10, 40) : 0;
  }
  double power_limit_fraction() const override { return limit_; }
  double clock_cap_fraction() const override { return clock_; }

 private:
  void plan(Rng& rng) override {
    if (dag_s_ > 0) {
      push(rng.uniform(1, 5), {}, gpu_.context_mib);
      for (int i = 1; i <= 4; ++i)
        push(dag_s_ / 4, {1.0, 0.5, 0.6, 0, 0, 0}, gpu_.context_mib + (mem_ - gpu_.context_mib) * i / 4);
      dag_s_ = 0;
      return;
    }
    // A new job from the pool every few seconds changes nothing on the GPU but a few microseconds.
    push(rng.uniform(2, 20), {1.0, compute_ * rng.jitter(0.01), membw_, 0.1, 0.1, 0}, mem_);
  }

  const GpuModel& gpu_;
  double compute_, membw_, mem_, limit_, clock_, dag_s_;
};

}  // namespace

WorkloadPtr make_mining(std::string_view variant, const WorkloadContext& ctx) {
  return std::make_unique<Miner>(variant, ctx);
}

}  // namespace wt::sim
