// Graphics: offline rendering (path tracing frame after frame), real-time rendering at a frame
// rate, and video encode/decode on the fixed-function engines (NVENC/NVDEC), which NVML does not
// count in utilization.gpu: only the colour-conversion and scaling kernels around them show.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/families.hpp"
#include "sim/queued_workload.hpp"

namespace wt::sim {

namespace {

class Graphics final : public QueuedWorkload {
 public:
  Graphics(std::string_view variant, const WorkloadContext& ctx) : variant_(variant), gpu_(*ctx.gpu) {
    Rng job(ctx.job_seed);
    const GpuModel& g = *ctx.gpu;
    if (variant == "render") {
      frame_s_ = job.log_uniform(5, 120);
      compute_ = job.uniform(0.6, 0.95);
      membw_ = job.uniform(0.2, 0.5);
      mem_ = g.context_mib + g.memory_mib * job.uniform(0.05, 0.6);  // scene, textures, BVH
    } else if (variant == "realtime") {
      frame_s_ = 1.0 / (job.chance(0.5) ? 60 : 30);
      compute_ = job.uniform(0.4, 0.8);
      membw_ = job.uniform(0.3, 0.6);
      busy_ = job.uniform(0.4, 0.95);
      mem_ = g.context_mib + g.memory_mib * job.uniform(0.1, 0.5);
    } else if (variant == "video-encode" || variant == "video-decode") {
      busy_ = job.uniform(0.05, 0.3);
      compute_ = job.uniform(0.1, 0.3);
      membw_ = job.uniform(0.1, 0.3);
      stream_mbps_ = job.log_uniform(5, 300);
      mem_ = g.context_mib + job.uniform(300, 2500);
    } else {
      throw std::invalid_argument("unknown graphics variant '" + std::string(variant) + "'");
    }
    // Loading a scene or level (geometry, textures) or opening a stream before the first frame.
    setup_s_ = job.chance(0.3) ? job.log_uniform(1, 60) : 0;
  }

 private:
  void plan(Rng& rng) override {
    if (plan_setup(rng, gpu_, mem_)) return;
    if (variant_ == "render") {
      // Scene sync and BVH build on the CPU, upload, then the GPU traces samples until the frame is done.
      push(frame_s_ * rng.uniform(0.02, 0.1), {0.05, 0.1, 0.1, 2000, 0, 0}, mem_);
      push(frame_s_ * rng.jitter(0.15), {0.99, compute_, membw_, 0, 0, 0}, mem_);
      push(0.3, {0.1, 0.1, 0.2, 0, 300, 0}, mem_);  // the finished frame to the host
      return;
    }
    if (variant_ == "realtime") {
      // Scene complexity wanders as the camera moves; vsync caps the frame rate.
      phase_ += rng.normal(0, 0.05);
      const double b = std::clamp(busy_ * (1 + 0.3 * std::sin(phase_)), 0.05, 1.0);
      push(1.0, {b, compute_, membw_, 200, 0, 0}, mem_);
      return;
    }
    // Video: steady per-frame kernels; raw frames cross PCIe one way (decode: out; encode: in).
    const bool enc = variant_ == "video-encode";
    const double raw = stream_mbps_ * 20;
    push(rng.uniform(1, 5),
         {busy_ * rng.jitter(0.1), compute_, membw_, enc ? raw : stream_mbps_ / 8, enc ? stream_mbps_ / 8 : raw, 0},
         mem_);
  }

  std::string variant_;
  const GpuModel& gpu_;
  double frame_s_ = 0, compute_ = 0, membw_ = 0, busy_ = 0, mem_ = 0, stream_mbps_ = 0, phase_ = 0;
};

}  // namespace

WorkloadPtr make_graphics(std::string_view variant, const WorkloadContext& ctx) {
  return std::make_unique<Graphics>(variant, ctx);
}

}  // namespace wt::sim
