// classify_trace: per-GPU verdicts and window timelines of a recorded trace, or of several nodes'
// traces as one fleet, as `workloadtruth classify --replay FILE... --json` prints them. Reads the
// files, writes nothing.
#include "classify/classifier.hpp"
#include "mcp/job_argument.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/tools.hpp"
#include "output/classify_json.hpp"
#include "pipeline/classify_stream.hpp"
#include "pipeline/job_groups.hpp"
#include "pipeline/open_source.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  return {{"type", "object"},
          {"properties",
           {{"trace_file",
             {{"type", "string"},
              {"minLength", 1},
              {"description",
               "Path of the recorded trace: nvidia-smi --query-gpu CSV, nvidia-smi dmon output (-o DT), dcgmi dmon "
               "output, WorkloadTruth "
               "JSONL, rocm-smi output (--csv, --json or its text) or amd-smi metric --csv/--json. NODE=PATH names "
               "the node its GPUs are on. Give this or trace_files"}}},
            {"trace_files",
             {{"type", "array"},
              {"items", {{"type", "string"}, {"minLength", 1}}},
              {"minItems", 1},
              {"description",
               "Several nodes' traces read as one fleet, merged in time: each file's GPUs are named after its name "
               "without directory and extension (node7.csv: node7/0), or NODE=PATH; jobs may then span nodes "
               "(\"ddp=node7/0-7,node8/0-7\"). Give this or trace_file"}}},
            {"format",
             {{"type", "string"},
              {"enum", {"auto", "csv", "dmon", "dcgmi-dmon", "jsonl", "rocm-smi", "amd-smi"}},
              {"default", "auto"},
              {"description", "Trace format (default: detected)"}}},
            {"columns",
             {{"type", "array"},
              {"items", {{"type", "string"}}},
              {"description", "For CSV written with noheader: the --query-gpu field list"}}},
            {"snapshot_interval_seconds",
             {{"type", "number"},
              {"exclusiveMinimum", 0},
              {"maximum", 3600},
              {"description",
               "For rocm-smi, amd-smi, nvidia-smi dmon or dcgmi dmon output that records no time: the seconds "
               "between its snapshots (dmon's -d; dcgmi's -d / 1000)"}}},
            {"gpu_model",
             {{"type", "string"},
              {"minLength", 1},
              {"description",
               "The model of GPUs the file does not name (nvidia-smi dmon logs), as nvidia-smi names it, e.g. "
               "NVIDIA H100 80GB HBM3, so power is set against that card's limit"}}},
            {"window_seconds", {{"type", "number"}, {"minimum", 0.1}, {"maximum", 86400}, {"default", 30}}},
            {"stride_seconds",
             {{"type", "number"},
              {"minimum", 0.1},
              {"maximum", 86400},
              {"default", 15},
              {"description", "Seconds between window starts; at most window_seconds"}}},
            {"classifier",
             {{"type", "string"},
              {"enum", {"xgboost", "rules"}},
              {"default", "xgboost"},
              {"description", "xgboost: the trained classifier; rules: the seed tool's rules"}}},
            {"jobs", jobs_argument_schema()}}},
          {"additionalProperties", false}};
}

// The schema cannot say "one of the two" in a way every client accepts at its top level.
std::vector<std::string> trace_files(const json& a) {
  if (a.contains("trace_file") == a.contains("trace_files"))
    throw ToolError("give trace_file (one trace) or trace_files (several nodes' traces as one fleet): one of the two");
  if (a.contains("trace_file")) return {a["trace_file"].get<std::string>()};
  return a["trace_files"].get<std::vector<std::string>>();
}

json run(ClassifierCache& classifiers, const json& a) {
  SourceSpec spec;
  spec.backend = "replay";
  spec.replay_files = trace_files(a);
  spec.input_format = a.value("format", "auto");
  spec.columns = a.value("columns", std::vector<std::string>{});
  if (a.contains("snapshot_interval_seconds")) {
    spec.interval_s = a["snapshot_interval_seconds"].get<double>();
    spec.interval_given = true;
  }
  spec.gpu_model = a.value("gpu_model", "");
  WindowSpec window;
  window.length_s = a.value("window_seconds", window.length_s);
  window.stride_s = a.value("stride_seconds", window.stride_s);
  if (window.stride_s > window.length_s)
    throw ToolError("stride_seconds must not exceed window_seconds (samples between windows would be ignored)");
  const std::vector<JobSpec> jobs = jobs_argument(a);
  const Classifier& classifier = classifiers.get(a.value("classifier", "xgboost"));
  const auto source = open_source(spec);
  ClassifyResult result = classify_stream(*source, classifier, window);
  if (result.gpus.empty()) {
    std::string why = source->describe() + ": no samples";
    if (!result.diagnostics.empty()) why += " (" + result.diagnostics.front().text() + ")";
    throw ToolError(why);
  }
  group_jobs(result, jobs);
  return classify_result_json(result);  // lines it could not read, and job GPUs not found, are listed in "errors"
}

}  // namespace

Tool classify_trace_tool(std::shared_ptr<ClassifierCache> classifiers) {
  return {"classify_trace",
          "Classify a recorded GPU trace",
          "Reads a recorded telemetry trace (or several nodes' traces as one fleet) and tells, for each GPU in it, what it was doing (TRAINING, INFERENCE, "
          "IDLE, HPC, MINING, GRAPHICS or UNKNOWN), with the confidence, the reasons and the verdict of every window; "
          "given jobs (GPUs that run one job), also one verdict per job from all its GPUs' windows. Lines it cannot read are listed in errors as FILE:LINE; the other GPUs are still classified.",
          input_schema(),
          classify_result_schema(),
          {{"readOnlyHint", true}, {"openWorldHint", false}},
          [classifiers](const json& a) { return run(*classifiers, a); }};
}

}  // namespace wt::mcp
