// A workload that plans a few segments at a time (an iteration, a batch, a frame) and hands
// them out one by one: most families are easiest to write that way.
#pragma once

#include <algorithm>
#include <deque>
#include <utility>

#include "sim/workload.hpp"

namespace wt::sim {

class QueuedWorkload : public Workload {
 public:
  Segment next(Rng& rng) final {
    while (queue_.empty()) plan(rng);
    Segment s = queue_.front();
    queue_.pop_front();
    return s;
  }

 protected:
  // Appends at least one segment.
  virtual void plan(Rng& rng) = 0;
  void push(double seconds, Activity a, double mem_mib, int processes = 1) {
    if (seconds > 0) queue_.push_back(Segment{seconds, a, mem_mib, processes});
  }
  void push(const Segment& s) {
    if (s.duration_s > 0) queue_.push_back(s);
  }
  // What every job does before its first real kernel: the process creates its context (util 0,
  // context memory), then reads its inputs (weights, a molecular system, a scene) from disk and
  // copies them to the device in a few steps, with a few small initialisation kernels (util 0-15 %);
  // memory rises to `mem_mib`. `seconds` is the whole set-up.
  void push_setup(Rng& rng, const GpuModel& gpu, double seconds, double mem_mib) {
    const double start = seconds * rng.uniform(0.1, 0.4);
    push(start, {}, gpu.context_mib);
    const int steps = rng.integer(3, 8);
    const double each = (seconds - start) / steps;
    for (int i = 1; i <= steps; ++i)
      push(each * rng.jitter(0.2), {rng.uniform(0, 0.15), 0.1, 0.1, std::min(gpu.pcie_gbps * 400, 6000.0), 0, 0},
           gpu.context_mib + (mem_mib - gpu.context_mib) * i / steps);
  }

  // A family that starts with a set-up phase sets setup_s_ in its constructor and begins plan()
  // with `if (plan_setup(rng, gpu, mem)) return;`: the first call plans the set-up, later ones nothing.
  bool plan_setup(Rng& rng, const GpuModel& gpu, double mem_mib) {
    if (setup_s_ <= 0) return false;
    push_setup(rng, gpu, std::exchange(setup_s_, 0.0), mem_mib);
    return true;
  }
  double setup_s_ = 0;

 private:
  std::deque<Segment> queue_;
};

}  // namespace wt::sim
