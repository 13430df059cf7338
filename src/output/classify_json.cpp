#include "output/classify_json.hpp"

#include <algorithm>
#include <cmath>

#include "core/time_format.hpp"

namespace wt {
namespace {
using nlohmann::json;

// Confidence with 4 decimals, as the seed tool printed it.
double round4(double x) { return std::round(x * 10000.0) / 10000.0; }
double round3(double x) { return std::round(x * 1000.0) / 1000.0; }
}  // namespace

json features_json(const WindowFeatures& f) {
  json j = json::object();
  for (const auto& [name, value] : f.named()) j[std::string(name)] = value ? json(round4(*value)) : json(nullptr);
  return j;
}

json diagnostics_json(const Diagnostics& d) {
  json errors = json::array();
  for (const auto& x : d)
    errors.push_back({{"where", x.where}, {"message", x.message}, {"severity", x.is_error ? "error" : "note"}});
  return errors;
}

json seed_verdict_json(const GpuReport& g) {
  return {
      {"workload_type", to_string(g.verdict.type)},
      {"confidence", round4(g.verdict.confidence)},
      {"gpu_index", g.gpu.index},
      {"window_seconds", round3(g.last_s - g.first_s)},
      {"sample_count", g.sample_count},
      {"reasons", g.verdict.reasons},
      {"features", features_json(g.verdict.features)},
  };
}

json classify_result_json(const ClassifyResult& r) {
  json gpus = json::array();
  for (const GpuReport& g : r.gpus) {
    json windows = json::array();
    for (const WindowVerdict& w : g.windows)
      windows.push_back({{"start", format_iso_time(w.start_s)},
                         {"end", format_iso_time(w.end_s)},
                         {"workload_type", to_string(w.type)},
                         {"confidence", round4(w.confidence)},
                         {"training_score", w.training_score ? json(round4(*w.training_score)) : json(nullptr)},
                         {"partial", w.partial}});
    gpus.push_back({
        {"gpu_index", g.gpu.index},
        {"uuid", g.gpu.uuid},
        {"name", g.gpu.name},
        {"workload_type", to_string(g.verdict.type)},
        {"confidence", round4(g.verdict.confidence)},
        {"training_score", g.verdict.training_score ? json(round4(*g.verdict.training_score)) : json(nullptr)},
        {"reasons", g.verdict.reasons},
        {"features", features_json(g.verdict.features)},
        {"sample_count", g.sample_count},
        {"start", format_iso_time(g.first_s)},
        {"end", format_iso_time(g.last_s)},
        {"window_seconds", round3(g.window.length_s)},
        {"stride_seconds", round3(g.window.stride_s)},
        {"window_widened", g.window_widened},
        {"windows", std::move(windows)},
    });
    if (!g.gpu.host.empty()) gpus.back()["host"] = g.gpu.host;
  }
  json out = {
      {"source", r.source},
      {"classifier", r.classifier},
      {"window_seconds", round3(r.requested_window.length_s)},
      {"stride_seconds", round3(r.requested_window.stride_s)},
      {"gpus", std::move(gpus)},
      {"errors", diagnostics_json(r.diagnostics)},
  };
  if (!r.jobs.empty()) {
    json jobs = json::array();
    for (const JobReport& j : r.jobs) {
      json by_class = json::object();
      for (std::size_t k = 0; k < kWorkloadTypeCount; ++k)
        if (j.gpu_verdicts[k] > 0) by_class[std::string(to_string(static_cast<WorkloadType>(k)))] = j.gpu_verdicts[k];
      std::vector<int> indices;
      std::vector<std::string> hosts;
      for (const JobGpu& g : j.gpus) {
        indices.push_back(g.index);
        hosts.push_back(g.host);
      }
      json job = {{"job", j.name},
                  {"gpu_indices", std::move(indices)},
                  {"workload_type", to_string(j.verdict.type)},
                  {"confidence", round4(j.verdict.confidence)},
                  {"training_score", j.verdict.training_score ? json(round4(*j.verdict.training_score)) : json(nullptr)},
                  {"reasons", j.verdict.reasons},
                  {"gpu_verdicts", std::move(by_class)}};
      // Where the source names the GPUs' nodes: each index's host, in the same order.
      if (std::any_of(hosts.begin(), hosts.end(), [](const std::string& h) { return !h.empty(); }))
        job["gpu_hosts"] = std::move(hosts);
      jobs.push_back(std::move(job));
    }
    out["jobs"] = std::move(jobs);
  }
  return out;
}

}  // namespace wt
