// Synthetic inputs for the benchmarks, made in memory so that runs are repeatable.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/sample.hpp"

namespace wt::bench {

// nvidia-smi CSV (full --query-gpu column set, units in values) for `gpus` GPUs polled every
// 100 ms, until at least `bytes` of text. `header` prepends the header line.
std::string make_nvidia_smi_csv(std::size_t bytes, int gpus, bool header = true, std::size_t first_poll = 0);

// One GPU's samples at 10 Hz with training-like values.
std::vector<Sample> make_samples(std::size_t n);

}  // namespace wt::bench
