// What a simulated workload does to a GPU, as a sequence of segments of constant activity.
// A workload is a state machine: each call returns the next segment. Segments are short where
// the workload changes fast (a prefill, an optimizer step) and long where it is steady, so the
// cost of a trace grows with its structure, not with a fixed fine time step.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/gpu_models.hpp"
#include "sim/rng.hpp"

namespace wt::sim {

struct Activity {
  double busy = 0;     // fraction of the segment some kernel ran (what NVML utilization.gpu measures)
  double compute = 0;  // while busy: fraction of peak dynamic power the kernels draw (SM/tensor intensity)
  double membw = 0;    // while busy: fraction of peak device-memory bandwidth (utilization.memory)
  double pcie_rx_mbps = 0, pcie_tx_mbps = 0;  // host -> device, device -> host
  double nvlink_mbps = 0;                     // GPU-to-GPU traffic, each direction
};

struct Segment {
  double duration_s = 1;
  Activity activity;
  double mem_used_mib = 0;  // memory.used during the segment (allocations happen at its start)
  int processes = 0;        // compute processes holding a context
};

// What every workload of a scenario is built from.
struct WorkloadContext {
  const GpuModel* gpu;
  int rank = 0;                // this GPU's position in a multi-GPU job
  int ranks = 1;               // GPUs in the job
  std::uint64_t job_seed = 0;  // the same for every rank: parameters ranks must agree on come from it
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual Segment next(Rng& rng) = 0;
  // Power limit the owner set (nvidia-smi -pl), as a fraction of the default; clock cap likewise.
  virtual double power_limit_fraction() const { return 1.0; }
  virtual double clock_cap_fraction() const { return 1.0; }
};

using WorkloadPtr = std::unique_ptr<Workload>;

// Activity of an idle gap: nothing running, context (and memory) held.
inline Segment gap(double seconds, double mem_mib, int processes) {
  return Segment{seconds, Activity{}, mem_mib, processes};
}

}  // namespace wt::sim
