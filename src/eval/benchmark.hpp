// `workloadtruth benchmark`: the seed rules and the trained classifier side by side on the
// same traces — simulated test traces (seeds never trained on), optionally labelled real
// traces — and the held-out protocols. Synthetic and real results stay separate.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "window/windower.hpp"

namespace wt {

struct BenchmarkOptions {
  std::size_t trials = 10;   // test traces per simulator scenario
  double duration_s = 300;   // per trace
  WindowSpec window;
  std::uint64_t seed = 1;
  // Polling interval of the simulated test traces; unset: drawn per trace, as training draws it.
  std::optional<double> interval_s;
  // Signals the simulated test traces keep (an index into recorded_signal_sets()); unset: drawn
  // per trace, as training draws them.
  std::optional<std::size_t> signal_set;
  std::string protocol = "standard";  // "loso": leave one evasion family / GPU model / real source out;
                                      // "loso-real": only the real sources
  std::vector<std::string> real_dirs;
  std::string model_path;             // trained classifier; "" = the built-in model
  std::size_t train_traces = 100;     // traces per scenario when loso retrains
  unsigned jobs = 0;                  // held-out folds retrained side by side; 0: one per core
  float real_weight = 1;              // held-out real folds: each training real window counts this many times
};

// Called as work progresses: (done, total, what).
using ProgressFn = std::function<void(std::size_t, std::size_t, const std::string&)>;

nlohmann::json run_benchmark(const BenchmarkOptions& o, const ProgressFn& progress);

}  // namespace wt
