// The workload families: one factory per family group, each building the workload of one GPU
// for a variant, with parameters drawn from the job's seed (docs/simulator.md gives the ranges).
#pragma once

#include <string_view>
#include <vector>

#include "sim/workload.hpp"

namespace wt::sim {

// Training loop parameters, exposed so evasions can build disguised training from them.
struct TrainingParams {
  double iter_s = 1;     // one forward/backward/optimizer iteration
  double compute = 0.8;  // forward/backward intensity (small models run many small kernels: low)
  double membw = 0.5;
  double optimizer_frac = 0.1;  // share of the iteration the optimizer step takes (memory-bound)
  double launch_busy = 0.98;    // kernel-time share inside an iteration (launch gaps, host sync)
  double stall_prob = 0.03;     // chance an iteration waits on the data loader
  double eval_every_s = 300, eval_s = 15;
  double ckpt_every_s = 600, ckpt_s = 8;
  double plateau_mib = 30000;  // caching-allocator plateau (weights, gradients, optimizer, activations)
  double weights_mib = 8000;   // what loading the model allocates before the first step
  bool from_launch = false;    // the trace starts when the job starts (loading, allocation ramp)
  double pcie_rx_mbps = 200;   // input batches to the device
  int accum_steps = 1;         // micro-batches per optimizer step
  // Multi-GPU.
  double nvlink_mbps = 0;        // collective traffic during backward (DDP all-reduce) or throughout (TP)
  double comm_tail_frac = 0;     // exposed communication after backward, as a share of the iteration
  double rank_offset_s = 0;      // this rank starts its iterations this much later
  bool comm_throughout = false;  // collectives during forward and backward (tensor parallel, staggered DDP)
  bool preallocate = false;      // the whole plateau is reserved at start: no allocation ramp
};

TrainingParams draw_training_params(std::string_view variant, const WorkloadContext& ctx, Rng& job);
WorkloadPtr make_training_loop(const TrainingParams& p, const WorkloadContext& ctx);
WorkloadPtr make_training(std::string_view variant, const WorkloadContext& ctx);
WorkloadPtr make_inference(std::string_view variant, const WorkloadContext& ctx);
WorkloadPtr make_idle(std::string_view variant, const WorkloadContext& ctx);
WorkloadPtr make_hpc(std::string_view variant, const WorkloadContext& ctx);
WorkloadPtr make_mining(std::string_view variant, const WorkloadContext& ctx);
WorkloadPtr make_graphics(std::string_view variant, const WorkloadContext& ctx);
// Disguised training (labelled TRAINING). `variant` is the training it disguises.
WorkloadPtr make_evasion(std::string_view evasion, std::string_view variant, const WorkloadContext& ctx);

struct EvasionInfo {
  std::string_view name;
  std::string_view base_variant;  // the training variant it disguises
  int gpus;                       // > 1 for multi-GPU evasions
};
const std::vector<EvasionInfo>& evasion_infos();

}  // namespace wt::sim
