#include "pipeline/classify_stream.hpp"

#include <algorithm>
#include <tuple>

#include "pipeline/gpu_streams.hpp"

namespace wt {
namespace {

// What classify keeps per GPU besides the stream itself.
struct GpuTally {
  FeatureAccumulator whole;
  std::vector<WindowVerdict> windows;
  std::vector<Verdict> best;  // per WorkloadType, the most confident window's verdict
  ProcessIdsRef processes;
  PodNamesRef pods;

  void add(const Classifier& c, const GpuIdentity& gpu, const Window& w, Verdict v) {
    windows.push_back(
        {w.start_s, w.end_s, w.partial, v.type, v.confidence, v.training_score, v.features.avg_gpu_util_pct});
    const auto t = static_cast<std::size_t>(v.type);
    if (best.size() <= t) best.resize(t + 1);
    if (best[t].reasons.empty() || v.confidence > best[t].confidence) {
      c.explain({w.samples, gpu}, v);  // only the windows whose reasons are shown
      best[t] = std::move(v);
    }
  }
};

}  // namespace

ClassifyResult classify_stream(TelemetrySource& source, const Classifier& classifier, const WindowSpec& window) {
  ClassifyResult result;
  result.source = source.describe();
  result.classifier = std::string(classifier.name());
  result.requested_window = window;

  std::vector<GpuTally> tallies;
  // Verdicts in batches of 64 windows: a trained model predicts them together.
  GpuStreams streams(
      classifier, window,
      [&tallies, &classifier](GpuStream& g, const Window& w, Verdict v) {
        tallies[g.ordinal].add(classifier, g.identity, w, std::move(v));
      },
      64);
  Sample s;
  while (source.next(s)) {
    GpuStream& g = streams.push(s);
    if (g.ordinal == tallies.size()) tallies.emplace_back();
    GpuTally& t = tallies[g.ordinal];
    t.whole.add(s);
    if (s.processes) t.processes = s.processes;
    if (s.pods) t.pods = s.pods;
  }
  streams.finish();

  result.diagnostics = source.diagnostics();
  std::vector<GpuStream*> order = streams.gpus();
  std::stable_sort(order.begin(), order.end(), [](const GpuStream* a, const GpuStream* b) {
    return std::tie(a->identity.host, a->identity.index) < std::tie(b->identity.host, b->identity.index);
  });
  for (GpuStream* g : order) {
    GpuTally& tally = tallies[g->ordinal];
    GpuReport r;
    r.gpu = g->identity;
    r.verdict = summarize_windows(tally.windows, tally.best, tally.whole.result());
    r.windows = std::move(tally.windows);
    r.window = g->windower->spec();
    r.window_widened = g->windower->widened();
    r.sample_count = g->samples;
    r.first_s = g->first_s;
    r.last_s = g->last_s;
    r.processes = std::move(tally.processes);
    r.pods = std::move(tally.pods);
    if (r.windows.empty())
      result.diagnostics.push_back(
          {"GPU " + r.gpu.label(), "only " + std::to_string(r.sample_count) + " samples; at least " +
                                                     std::to_string(window.min_samples) + " are needed for a verdict"});
    result.gpus.push_back(std::move(r));
  }
  return result;
}

}  // namespace wt
