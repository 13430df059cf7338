// Public specifications of the GPU models the simulator knows, and lookup by the name
// nvidia-smi / rocm-smi prints (so features can normalise power by a GPU's limit).
#pragma once

#include <string_view>
#include <vector>

namespace wt::sim {

struct GpuModel {
  std::string_view name;     // exactly as nvidia-smi --query-gpu=name (or rocm-smi) prints it
  std::string_view vendor;   // "NVIDIA" or "AMD"
  double memory_mib;         // memory.total as the driver reports it
  double power_limit_w;      // default board power limit (TDP/TBP)
  double idle_power_w;       // no process, clocks parked
  double context_power_w;    // a process holds a context, no kernel running (clocks raised)
  double max_sm_clock_mhz;   // boost clock
  double ctx_sm_clock_mhz;   // SM clock while a context is held and nothing runs
  double idle_sm_clock_mhz;  // parked clock with no process
  double mem_clock_mhz;      // memory clock as nvidia-smi reports it
  double nvlink_gbps;        // total GPU-to-GPU bandwidth (GB/s, both directions), 0 = none
  double pcie_gbps;          // host link bandwidth per direction (GB/s)
  double context_mib;        // memory a bare CUDA/HIP context takes
  double idle_mib;           // memory.used with no process
  // power.draw is the draw at an instant, not an average over a second: NVML's
  // nvmlDeviceGetPowerUsage documents this for GA100 and older parts (V100, A100). Such a reading
  // catches whichever kernel runs at the poll, so it scatters from poll to poll (see GpuPhysics).
  bool instant_power;
};

const std::vector<GpuModel>& gpu_models();

// Matches exact names and the variants drivers print ("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB",
// "Tesla V100-SXM2-32GB-LS", "NVIDIA A100" with the SKU unknown, "AMD Instinct MI300X"); nullptr when
// the name names no known model.
const GpuModel* find_gpu_model(std::string_view name);

}  // namespace wt::sim
