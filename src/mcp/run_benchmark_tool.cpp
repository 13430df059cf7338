// run_benchmark: the seed rules and the trained classifier scored side by side on simulator
// test traces, as `workloadtruth benchmark --json` prints it. Small by default so a call takes seconds.
#include <algorithm>

#include "eval/benchmark.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/tools.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
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
            {"protocol",
             {{"type", "string"},
              {"enum", {"standard", "loso"}},
              {"default", "standard"},
              {"description",
               "standard, or loso: retrain leaving one evasion family / GPU model out (minutes, not seconds)"}}}}},
          {"additionalProperties", false}};
}

json run(const json& a) {
  BenchmarkOptions o;
  o.trials = a.value("trials", std::size_t{1});
  o.duration_s = a.value("duration_seconds", 120.0);
  if (a.contains("interval_seconds")) o.interval_s = a.at("interval_seconds").get<double>();
  o.window.length_s = a.value("window_seconds", o.window.length_s);
  o.window.stride_s = std::min(o.window.stride_s, o.window.length_s);
  o.protocol = a.value("protocol", "standard");
  return run_benchmark(o, ProgressFn());
}

}  // namespace

Tool run_benchmark_tool() {
  return {"run_benchmark",
          "Benchmark the classifiers",
          "Scores the seed tool's rules and the trained classifier on simulator test traces whose seeds were never "
          "trained on: accuracy per class, detection of 18 families of disguised training, false training calls, "
          "calibration and confusion. Synthetic figures only; they say nothing of real traces.",
          input_schema(),
          benchmark_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          run};
}

}  // namespace wt::mcp
