// Idle: nothing running (bare), a process holding only a context, a model loaded with no traffic.
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

class Idle final : public QueuedWorkload {
 public:
  Idle(std::string_view variant, const WorkloadContext& ctx) {
    Rng job(ctx.job_seed);
    const GpuModel& g = *ctx.gpu;
    if (variant == "bare") {
      mem_ = g.idle_mib;
      processes_ = 0;
    } else if (variant == "context") {
      mem_ = g.context_mib;
    } else if (variant == "model-loaded") {
      mem_ = g.context_mib + g.memory_mib * job.uniform(0.05, 0.9);
      probe_every_s_ = job.uniform(5, 60);  // a health check or keep-alive kernel now and then
    } else {
      throw std::invalid_argument("unknown idle variant '" + std::string(variant) + "'");
    }
  }

 private:
  void plan(Rng& rng) override {
    if (probe_every_s_ <= 0) return push(10, {}, mem_, processes_);
    push(probe_every_s_ * rng.jitter(0.2), {}, mem_, processes_);
    push(rng.uniform(0.02, 0.2), {0.5, 0.3, 0.2, 1, 1, 0}, mem_, processes_);
  }

  double mem_ = 0, probe_every_s_ = 0;
  int processes_ = 1;
};

}  // namespace

WorkloadPtr make_idle(std::string_view variant, const WorkloadContext& ctx) {
  return std::make_unique<Idle>(variant, ctx);
}

}  // namespace wt::sim
