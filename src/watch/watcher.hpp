// `watch`'s logic, apart from its output: classifies every GPU over sliding windows as samples
// arrive, keeps each GPU's job verdict (hysteresis) and declared-label mismatch state, and
// tells its sinks (audit log, views, alert command) about every window and alert.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/gpu_streams.hpp"
#include "pipeline/job_groups.hpp"
#include "watch/declared_labels.hpp"
#include "watch/job_verdict.hpp"
#include "watch/mismatch_detector.hpp"
#include "watch/process_identity.hpp"

namespace wt::watch {

// The last kSize values of a signal, oldest first; NaN where the poll lacked it.
class Recent {
 public:
  static constexpr std::size_t kSize = 20;
  void push(double v) {
    values_[(start_ + count_) % kSize] = v;
    if (count_ < kSize)
      ++count_;
    else
      start_ = (start_ + 1) % kSize;
  }
  std::size_t size() const { return count_; }
  double operator[](std::size_t i) const { return values_[(start_ + i) % kSize]; }

 private:
  std::array<double, kSize> values_{};
  std::size_t start_ = 0, count_ = 0;
};

// Everything known of one GPU, as views show it.
struct GpuWatch {
  GpuWatch(const GpuIdentity& id, const HysteresisOptions& h, const MismatchOptions& m)
      : gpu(id), job(h), mismatch(m) {}
  GpuIdentity gpu;
  JobVerdict job;
  MismatchDetector mismatch;
  std::optional<WorkloadType> declared;
  std::string declared_by;        // the mapping key(s) that declared it ("" when none)
  std::string declared_conflict;  // why it has no declaration although keys matched (see DeclaredLookup)
  std::string alert_declared_by;  // declared_by when the current alert was raised
  ProcessIdsRef processes;        // as its source last listed them
  PodNamesRef pods;               // as its source last named them (dcgm-exporter's pod label)
  DeclaredValuesRef declared_values;  // as its source last read them (--declared-label)
  Recent util, power;
  std::optional<double> power_limit_w;
  double last_sample_s = 0;
  std::size_t windows = 0;
  // The job it was named part of (`--job NAME=GPUS`), "" for none. Its job verdict and mismatch
  // are then fed the job's pooled window verdict (see Watcher), not this GPU's own windows.
  std::string job_group;
  std::optional<WindowVerdict> last_window;  // its own, as it closed
};

class WatchSink {
 public:
  virtual ~WatchSink() = default;
  // A window closed; `job_changed`: the job verdict changed with it. `now_s`: the wall clock
  // (UTC) when it was seen, as opposed to the telemetry's clock of the window.
  virtual void on_window(const GpuWatch& gpu, const Window& window, const Verdict& verdict, bool job_changed,
                         double now_s) = 0;
  virtual void on_mismatch(const GpuWatch& gpu, const MismatchEvent& event, double now_s) = 0;
};

struct WatchOptions {
  WindowSpec window;
  HysteresisOptions hysteresis;
  MismatchOptions mismatch;
  std::vector<JobSpec> jobs;  // checked with check_job_specs
};

class Watcher {
 public:
  // The GPU's declaration, given its identity and what runs on it.
  using DeclaredFn = std::function<DeclaredLookup(const GpuIdentity&, const GpuOccupancy&)>;
  using ClockFn = std::function<double()>;  // seconds since 1970, UTC
  // The job a GPU is part of, given what its DeclaredFn is given ("" for none); see join_jobs_by.
  using JobGroupFn = std::function<std::string(const GpuIdentity&, const GpuOccupancy&)>;

  Watcher(const Classifier& classifier, WatchOptions options, DeclaredFn declared, std::vector<WatchSink*> sinks,
          ClockFn clock = system_clock_s);
  static double system_clock_s();

  // Groups GPUs into jobs by what runs on them (`--job-by pod`) instead of options.jobs: asked
  // again at each of a GPU's windows, as its processes come and go. Call before the first push.
  void join_jobs_by(JobGroupFn fn) { job_group_of_ = std::move(fn); }

  void push(const Sample& s);
  // End of stream or shutdown: closes every GPU's open (partial) window.
  void finish() { streams_.finish(); }

  // In order of first appearance.
  const std::vector<GpuWatch>& gpus() const { return gpus_; }
  // Every GPU seen so far has had at least one window (what --once waits for).
  bool every_gpu_classified() const;

 private:
  void on_window(GpuStream& g, const Window& w, Verdict v);
  void declare(GpuWatch& w);
  // The window verdict of w's job group as of `window`: the latest window of each member GPU
  // that is still fresh, pooled (summarize_job); the confidence is the mean of the pooled
  // windows that agree with the class, as a single window's would be.
  std::pair<WorkloadType, double> job_group_verdict(const GpuWatch& w, const Window& window) const;

  WatchOptions options_;
  DeclaredFn declared_;
  JobGroupFn job_group_of_;
  std::vector<WatchSink*> sinks_;
  ClockFn clock_;
  std::vector<GpuWatch> gpus_;
  GpuStreams streams_;
};

}  // namespace wt::watch
