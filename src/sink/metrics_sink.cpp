#include "sink/metrics_sink.hpp"

#include <algorithm>

namespace wt {

void MetricsSink::on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool,
                            double) {
  const std::lock_guard lock(mutex_);
  auto it = std::find_if(gpus_.begin(), gpus_.end(), [&](const GpuMetrics& g) {
    return g.index == gpu.gpu.index && g.uuid == gpu.gpu.uuid && g.host == gpu.gpu.host;
  });
  if (it == gpus_.end()) {
    gpus_.push_back({});
    it = gpus_.end() - 1;
    it->index = gpu.gpu.index;
    it->uuid = gpu.gpu.uuid;
    it->name = gpu.gpu.name;
    it->host = gpu.gpu.host;
  }
  it->job_group = gpu.job_group;  // --job-by: a GPU's job follows the pods on it
  it->job = gpu.job.type();
  it->job_confidence = gpu.job.confidence();
  it->training_score = verdict.training_score;
  it->declared = gpu.declared;
  it->mismatch = gpu.mismatch.alerting();
  ++it->windows[static_cast<std::size_t>(verdict.type)];
  it->last_window_end_s = window.end_s;
}

std::string MetricsSink::render() const {
  const std::lock_guard lock(mutex_);
  return metrics_text(gpus_, WT_VERSION);
}

}  // namespace wt
