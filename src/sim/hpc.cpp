// Scientific HPC: molecular dynamics, FFT, dense FP64 linear algebra, n-body. Steady kernels
// from a flat, small-to-moderate memory footprint set up once, with periodic output to the host.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

struct HpcShape {
  double busy_lo, busy_hi;        // launch gaps: small MD systems leave the GPU idle between steps
  double compute_lo, compute_hi;  // calibrated on the V100 MD and B200 traces (power / limit)
  double membw_lo, membw_hi;
  double mem_lo, mem_hi;      // memory footprint as a share of the GPU's memory
  double block_lo, block_hi;  // seconds of steady compute between host interactions
  double host_lo, host_hi;    // host-side pause (output, next batch)
};

HpcShape shape_of(std::string_view variant) {
  if (variant == "md") return {0.7, 0.99, 0.2, 0.5, 0.05, 0.55, 0.005, 0.3, 1, 60, 0.1, 1.0};
  if (variant == "fft") return {0.9, 0.99, 0.1, 0.35, 0.3, 0.8, 0.01, 0.5, 0.5, 10, 0.02, 0.5};
  if (variant == "gemm-fp64") return {0.97, 1.0, 0.7, 1.0, 0.05, 0.2, 0.02, 0.6, 2, 30, 0.05, 0.5};
  if (variant == "nbody") return {0.93, 1.0, 0.3, 0.6, 0.1, 0.25, 0.005, 0.05, 1, 20, 0.05, 0.5};
  throw std::invalid_argument("unknown hpc variant '" + std::string(variant) + "'");
}

class Hpc final : public QueuedWorkload {
 public:
  Hpc(std::string_view variant, const WorkloadContext& ctx) : s_(shape_of(variant)), gpu_(*ctx.gpu) {
    Rng job(ctx.job_seed);
    busy_ = job.uniform(s_.busy_lo, s_.busy_hi);
    compute_ = job.uniform(s_.compute_lo, s_.compute_hi);
    membw_ = job.uniform(s_.membw_lo, s_.membw_hi);
    mem_ = ctx.gpu->context_mib + ctx.gpu->memory_mib * job.uniform(s_.mem_lo, s_.mem_hi);
    block_ = job.uniform(s_.block_lo, s_.block_hi);
    host_ = job.uniform(s_.host_lo, s_.host_hi);
    // A batch job's trace starts at launch more often than not: reading the input deck, building the
    // system, allocating (pmemd/GROMACS spend 5-60 s there on a large system, the GPU all but idle).
    setup_s_ = job.chance(0.6) ? job.log_uniform(3, 60) : 0;
    // Step-to-step work varies between blocks: neighbour-list rebuilds, PME/constraint steps,
    // thermostat and output frames, and the boost clock settling as the die warms.
    block_sd_ = job.uniform(0.02, 0.12);
  }

 private:
  void plan(Rng& rng) override {
    if (plan_setup(rng, gpu_, mem_)) return;
    push(block_ * rng.jitter(0.05),
         {std::min(1.0, busy_ * rng.jitter(block_sd_ / 2)), compute_ * rng.jitter(block_sd_), membw_, 5, 5, 0}, mem_);
    push(host_ * rng.jitter(0.3), {0.05, 0.1, 0.1, 50, 500, 0}, mem_);
  }

  HpcShape s_;
  const GpuModel& gpu_;
  double busy_, compute_, membw_, mem_, block_, host_, block_sd_;
};

}  // namespace

WorkloadPtr make_hpc(std::string_view variant, const WorkloadContext& ctx) {
  return std::make_unique<Hpc>(variant, ctx);
}

}  // namespace wt::sim
