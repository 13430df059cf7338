#include "output/metrics_text.hpp"

#include <cstdio>

namespace wt {
namespace {

// A label value with the three characters the format escapes.
std::string escaped(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string gpu_labels(const GpuMetrics& g) {
  return "gpu=\"" + std::to_string(g.index) + "\",uuid=\"" + escaped(g.uuid) + "\",name=\"" + escaped(g.name) + "\"" +
         (g.host.empty() ? "" : ",host=\"" + escaped(g.host) + "\"") +
         (g.job_group.empty() ? "" : ",job_group=\"" + escaped(g.job_group) + "\"");
}

std::string class_labels(const GpuMetrics& g, WorkloadType t) {
  return gpu_labels(g) + ",class=\"" + std::string(to_string(t)) + "\"";
}

WorkloadType type_at(std::size_t i) { return static_cast<WorkloadType>(i); }

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void sample(std::string& out, std::string_view name, const std::string& labels, double value) {
  out.append(name).append("{").append(labels).append("} ").append(number(value)).append("\n");
}

}  // namespace

std::string metrics_text(std::span<const GpuMetrics> gpus, std::string_view version) {
  std::string out;
  family(out, "workloadtruth_build_info", "gauge", "WorkloadTruth's version (always 1)");
  out.append("workloadtruth_build_info{version=\"").append(escaped(version)).append("\"} 1\n");

  family(out, "workloadtruth_job_verdict", "gauge",
         "1 for the class of the GPU's job verdict (after hysteresis; for a GPU of a named job, the job's), 0 for "
         "the others; a signal to investigate, not proof");
  for (const GpuMetrics& g : gpus)
    if (g.job)
      for (std::size_t i = 0; i < kWorkloadTypeCount; ++i)
        sample(out, "workloadtruth_job_verdict", class_labels(g, type_at(i)), type_at(i) == *g.job ? 1 : 0);

  family(out, "workloadtruth_job_confidence", "gauge",
         "Mean confidence of the windows that agree with the job verdict (0..1)");
  for (const GpuMetrics& g : gpus)
    if (g.job) sample(out, "workloadtruth_job_confidence", gpu_labels(g), g.job_confidence);

  family(out, "workloadtruth_training_score", "gauge", "P(TRAINING) of the GPU's last window (0..1)");
  for (const GpuMetrics& g : gpus)
    if (g.training_score) sample(out, "workloadtruth_training_score", gpu_labels(g), *g.training_score);

  family(out, "workloadtruth_windows_total", "counter", "Windows classified, by their verdict");
  for (const GpuMetrics& g : gpus)
    for (std::size_t i = 0; i < kWorkloadTypeCount; ++i)
      sample(out, "workloadtruth_windows_total", class_labels(g, type_at(i)), static_cast<double>(g.windows[i]));

  family(out, "workloadtruth_declared_info", "gauge", "The workload the GPU's owner declared (always 1)");
  for (const GpuMetrics& g : gpus)
    if (g.declared)
      sample(out, "workloadtruth_declared_info", class_labels(g, *g.declared), 1);

  family(out, "workloadtruth_declared_mismatch", "gauge",
         "1 while a mismatch alert stands: the GPU keeps doing other than its declared workload");
  for (const GpuMetrics& g : gpus)
    if (g.declared) sample(out, "workloadtruth_declared_mismatch", gpu_labels(g), g.mismatch ? 1 : 0);

  family(out, "workloadtruth_last_window_end_seconds", "gauge",
         "End of the GPU's last window, on the telemetry's clock (Unix time for live sources)");
  for (const GpuMetrics& g : gpus)
    if (g.job) sample(out, "workloadtruth_last_window_end_seconds", gpu_labels(g), g.last_window_end_s);
  return out;
}

}  // namespace wt
