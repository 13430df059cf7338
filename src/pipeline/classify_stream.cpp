#include "pipeline/classify_stream.hpp"

#include <algorithm>
#include <map>
#include <memory>

namespace wt {
namespace {

// Everything the pipeline keeps per GPU while the stream flows.
struct GpuState {
  GpuState(GpuIdentity id, const WindowSpec& spec, const Classifier& classifier)
      : identity(std::move(id)), windower(spec, [this, &classifier](const Window& w) { on_window(w, classifier); }) {}

  void on_window(const Window& w, const Classifier& classifier) {
    Verdict v = classifier.classify({w.samples, identity});
    windows.push_back(
        {w.start_s, w.end_s, w.partial, v.type, v.confidence, v.training_score, v.features.avg_gpu_util_pct});
    const auto t = static_cast<std::size_t>(v.type);
    if (best.size() <= t) best.resize(t + 1);
    if (best[t].reasons.empty() || v.confidence > best[t].confidence) best[t] = std::move(v);
  }

  GpuIdentity identity;
  Windower windower;
  FeatureAccumulator whole;
  std::vector<WindowVerdict> windows;
  std::vector<Verdict> best;  // per WorkloadType, the most confident window's verdict
  std::size_t samples = 0;
  double first_s = 0, last_s = 0;
};

}  // namespace

ClassifyResult classify_stream(TelemetrySource& source, const Classifier& classifier, const WindowSpec& window) {
  ClassifyResult result;
  result.source = source.describe();
  result.classifier = std::string(classifier.name());
  result.requested_window = window;

  std::map<std::string, std::unique_ptr<GpuState>> gpus;
  std::vector<GpuState*> order;
  Sample s;
  const GpuIdentity* last_ref = nullptr;  // sources share one identity per GPU: skip the map
  GpuState* g = nullptr;                  // lookup while samples keep coming from the same GPU
  while (source.next(s)) {
    if (s.gpu.get() != last_ref) {
      auto& slot = gpus[s.gpu->key()];
      if (!slot) {
        slot = std::make_unique<GpuState>(*s.gpu, window, classifier);
        slot->first_s = s.time_s;
        order.push_back(slot.get());
      }
      g = slot.get();
      last_ref = s.gpu.get();
    }
    ++g->samples;
    g->last_s = s.time_s;
    g->whole.add(s);
    g->windower.push(s);
  }

  result.diagnostics = source.diagnostics();
  std::stable_sort(order.begin(), order.end(),
                   [](const GpuState* a, const GpuState* b) { return a->identity.index < b->identity.index; });
  for (GpuState* state : order) {
    state->windower.finish();
    GpuReport r;
    r.gpu = state->identity;
    r.verdict = summarize_windows(state->windows, state->best, state->whole.result());
    r.windows = std::move(state->windows);
    r.window = state->windower.spec();
    r.window_widened = state->windower.widened();
    r.sample_count = state->samples;
    r.first_s = state->first_s;
    r.last_s = state->last_s;
    if (r.windows.empty())
      result.diagnostics.push_back({"GPU " + std::to_string(r.gpu.index),
                                    "only " + std::to_string(r.sample_count) + " samples; at least " +
                                        std::to_string(window.min_samples) + " are needed for a verdict"});
    result.gpus.push_back(std::move(r));
  }
  return result;
}

}  // namespace wt
