// run_benchmark: the seed rules and the trained classifier scored side by side on simulator
// test traces (and on labelled real traces in the directories it is given), as
// `workloadtruth benchmark --json` prints it. Small by default so a call takes seconds.
#include <algorithm>

#include "eval/benchmark.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/tools.hpp"
#include "train/sim_dataset.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  std::vector<std::string> signal_keys;
  for (const auto& set : recorded_signal_sets()) signal_keys.emplace_back(set.key);
  return {{"type", "object"},
          {"properties",
           {{"trials",
             {{"type", "integer"},
              {"minimum", 1},
              {"maximum", 100},
              {"default", 1},
              {"description", "Test traces per simulator scenario (the CLI's default is 10)"}}},
            {"window_seconds", {{"type", "number"}, {"minimum", 1}, {"maximum", 3600}, {"default", 30}}},
            {"duration_seconds",
             {{"type", "number"},
              {"minimum", 30},
              {"maximum", 3600},
              {"default", 120},
              {"description", "Seconds per simulated trace (the CLI's default is 300)"}}},
            {"interval_seconds",
             {{"type", "number"},
              {"minimum", 0.05},
              {"maximum", 3600},
              {"description", "Poll the simulated test traces every this many seconds (default: drawn per trace from "
                              "0.1-5 s, as in training)"}}},
            {"signals",
             {{"type", "string"},
              {"enum", signal_keys},
              {"description", "Keep only these signals in the simulated test traces: all (what live NVML reads), smi "
                              "(util, memory, power, temperature, clocks), or three or four of util, memory used, "
                              "memory util and power (default: drawn per trace, as in training)"}}},
            {"protocol",
             {{"type", "string"},
              {"enum", {"standard", "loso", "loso-real"}},
              {"default", "standard"},
              {"description",
               "standard; loso: retrain leaving one evasion family / GPU model / real source out (minutes, not "
               "seconds); loso-real: only the real sources of real_dirs, each held out"}}},
            {"real_dirs",
             {{"type", "array"},
              {"items", {{"type", "string"}, {"minLength", 1}}},
              {"description",
               "Directories of labelled real traces (MANIFEST.csv labels, else <label>__<source>__<run>.csv): "
               "scored per source and label, apart from the synthetic figures; under loso the retrained models "
               "also train on them"}}},
            {"real_weight",
             {{"type", "number"},
              {"exclusiveMinimum", 0},
              {"maximum", 1000},
              {"default", 1},
              {"description",
               "Under loso/loso-real: each real window a retrained model trains on counts as this many simulated "
               "ones (the committed model used 20)"}}}}},
          {"additionalProperties", false}};
}

json run(const json& a) {
  BenchmarkOptions o;
  o.trials = a.value("trials", std::size_t{1});
  o.duration_s = a.value("duration_seconds", 120.0);
  if (a.contains("interval_seconds")) o.interval_s = a.at("interval_seconds").get<double>();
  if (a.contains("signals")) o.signal_set = find_signal_set(a.at("signals").get<std::string>());
  o.window.length_s = a.value("window_seconds", o.window.length_s);
  o.window.stride_s = std::min(o.window.stride_s, o.window.length_s);
  o.protocol = a.value("protocol", "standard");
  o.real_dirs = a.value("real_dirs", std::vector<std::string>{});
  // As the CLI does: an argument the protocol would ignore is refused, not silently dropped.
  if (o.protocol == "loso-real" && o.real_dirs.empty())
    throw ToolError("protocol loso-real holds out real sources: give them in real_dirs");
  if (o.protocol == "loso-real" && (o.interval_s || o.signal_set))
    throw ToolError("interval_seconds and signals shape the simulated test traces, which protocol loso-real does not "
                    "make (it tests on the real sources only)");
  if (a.contains("real_weight")) {
    if (o.protocol == "standard") throw ToolError("real_weight has no effect under protocol standard, which retrains nothing");
    if (o.real_dirs.empty()) throw ToolError("real_weight weighs the real traces of real_dirs: give them");
    o.real_weight = a.at("real_weight").get<float>();
  }
  return run_benchmark(o, ProgressFn());
}

}  // namespace

Tool run_benchmark_tool() {
  return {"run_benchmark",
          "Benchmark the classifiers",
          "Scores the seed tool's rules and the trained classifier on simulator test traces whose seeds were never "
          "trained on: accuracy per class, detection of 18 families of disguised training, false training calls, "
          "calibration and confusion; with real_dirs, also labelled real traces per source and label. Synthetic and "
          "real figures are reported apart, never blended.",
          input_schema(),
          benchmark_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          run};
}

}  // namespace wt::mcp
