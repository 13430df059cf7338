#include "watch/watcher.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

namespace wt::watch {

double Watcher::system_clock_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Watcher::Watcher(const Classifier& classifier, WatchOptions options, DeclaredFn declared, std::vector<WatchSink*> sinks,
                 ClockFn clock)
    : options_(options),
      declared_(std::move(declared)),
      sinks_(std::move(sinks)),
      clock_(std::move(clock)),
      streams_(classifier, options.window, [this, &classifier](GpuStream& g, const Window& w, Verdict v) {
        classifier.explain({w.samples, g.identity}, v);  // every window is logged with its reasons
        on_window(g, w, std::move(v));
      }) {}

void Watcher::push(const Sample& s) {
  GpuStream& g = streams_.push(s);
  const bool first = g.ordinal == gpus_.size();
  if (first) {
    gpus_.emplace_back(g.identity, options_.hysteresis, options_.mismatch);
    for (const JobSpec& job : options_.jobs)
      if (job_has(job, g.identity))
        gpus_.back().job_group = job.name;
  }
  GpuWatch& w = gpus_[g.ordinal];
  if (w.processes != s.processes) w.processes = s.processes;
  if (w.pods != s.pods) w.pods = s.pods;
  if (w.declared_values != s.declared) w.declared_values = s.declared;
  if (first) declare(w);
  constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
  w.util.push(s.values.get(Signal::GpuUtil).value_or(kMissing));
  w.power.push(s.values.get(Signal::Power).value_or(kMissing));
  if (auto limit = s.values.get(Signal::PowerLimit)) w.power_limit_w = limit;
  w.last_sample_s = s.time_s;
}

void Watcher::on_window(GpuStream& g, const Window& window, Verdict v) {
  // push() made the GpuWatch: a window closes only on a GPU's later samples or at finish().
  GpuWatch& w = gpus_[g.ordinal];
  declare(w);  // the mapping, or the processes on the GPU, may have changed since the last window
  ++w.windows;
  w.last_window = WindowVerdict{window.start_s, window.end_s, window.partial, v.type, v.confidence, v.training_score, {}};
  const auto [type, confidence] =
      w.job_group.empty() ? std::pair(v.type, v.confidence) : job_group_verdict(w, window);
  const bool changed = w.job.update(type, confidence, window.start_s);
  auto event = w.mismatch.update(w.declared, type, confidence, window.start_s, window.end_s);
  if (event && event->kind == MismatchEvent::Kind::Raised) w.alert_declared_by = w.declared_by;
  if (event) {
    event->declared_by = w.alert_declared_by;
    event->job_group = w.job_group;
  }
  const double now = clock_();
  for (WatchSink* sink : sinks_) sink->on_window(w, window, v, changed, now);
  if (event)
    for (WatchSink* sink : sinks_) sink->on_mismatch(w, *event, now);
}

std::pair<WorkloadType, double> Watcher::job_group_verdict(const GpuWatch& w, const Window& window) const {
  // A member whose last window ended more than a window and a stride before this one has
  // stopped reporting (a lost GPU): its old verdict says nothing of the job now.
  const double fresh_after = window.end_s - options_.window.length_s - options_.window.stride_s;
  std::vector<WindowVerdict> latest;
  for (const GpuWatch& m : gpus_)
    if (m.job_group == w.job_group && m.last_window && m.last_window->end_s >= fresh_after)
      latest.push_back(*m.last_window);
  const Verdict pooled = summarize_job({&latest});
  double sum = 0;
  std::size_t n = 0;
  for (const WindowVerdict& l : latest)
    if (l.type == pooled.type) sum += l.confidence, ++n;
  return {pooled.type, n ? sum / static_cast<double>(n) : 0.0};
}

void Watcher::declare(GpuWatch& w) {
  GpuOccupancy on;
  if (w.processes) on.pids = *w.processes;
  if (w.pods) on.pods = *w.pods;
  if (w.declared_values) on.declared = *w.declared_values;
  if (job_group_of_) w.job_group = job_group_of_(w.gpu, on);
  const DeclaredLookup d = declared_(w.gpu, on);
  w.declared = d.declaration ? std::optional(d.declaration->type) : std::nullopt;
  w.declared_by = d.declaration ? d.declaration->key : "";
  w.declared_conflict = d.conflict;
}

bool Watcher::every_gpu_classified() const {
  return !gpus_.empty() && std::all_of(gpus_.begin(), gpus_.end(), [](const GpuWatch& g) { return g.windows > 0; });
}

}  // namespace wt::watch
