// Keeps what `watch --metrics-listen` exposes, per GPU, as windows close; the HTTP server's
// thread reads it through render() while the watch loop writes it, hence the lock.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "output/metrics_text.hpp"
#include "watch/watcher.hpp"

namespace wt {

class MetricsSink final : public watch::WatchSink {
 public:
  void on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool job_changed,
                 double now_s) override;
  // The alert's state is read from the GPU at its next window's on_window, which comes first.
  void on_mismatch(const watch::GpuWatch&, const watch::MismatchEvent&, double) override {}

  // The exposition text of the state now.
  std::string render() const;

 private:
  mutable std::mutex mutex_;
  std::vector<GpuMetrics> gpus_;  // in the order they were first seen
};

}  // namespace wt
