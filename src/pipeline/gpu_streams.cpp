#include "pipeline/gpu_streams.hpp"

namespace wt {

GpuStreams::GpuStreams(const Classifier& classifier, WindowSpec window, OnWindow on_window, std::size_t batch)
    : classifier_(classifier), window_(window), on_window_(std::move(on_window)), batch_(batch) {}

void GpuStreams::closed(GpuStream& g, const Window& w) {
  if (batch_ <= 1) {
    on_window_(g, w, classifier_.classify({w.samples, g.identity, g.history.get()}));
    return;
  }
  held_.push_back({&g, w.start_s, w.end_s, w.partial, {w.samples.begin(), w.samples.end()}});
  if (held_.size() >= batch_) flush();
}

void GpuStreams::flush() {
  std::vector<WindowInput> inputs;
  for (const Held& h : held_) inputs.push_back({h.samples, h.gpu->identity, h.gpu->history.get()});
  std::vector<Verdict> verdicts = classifier_.classify_all(inputs);
  for (std::size_t i = 0; i < held_.size(); ++i) {
    const Held& h = held_[i];
    on_window_(*h.gpu, Window{h.start_s, h.end_s, h.samples, h.partial}, std::move(verdicts[i]));
  }
  held_.clear();
}

GpuStream& GpuStreams::push(const Sample& s) {
  if (s.gpu.get() != last_ref_) {
    auto& slot = by_key_[s.gpu->key()];
    if (!slot) {
      slot = std::make_unique<GpuStream>();
      GpuStream* g = slot.get();
      g->identity = *s.gpu;
      g->ordinal = order_.size();
      g->first_s = s.time_s;
      g->windower = std::make_unique<Windower>(window_, [this, g](const Window& w) { closed(*g, w); });
      g->history = classifier_.new_history();
      order_.push_back(g);
    }
    last_ = slot.get();
    last_ref_ = s.gpu.get();
  }
  ++last_->samples;
  last_->last_s = s.time_s;
  last_->windower->push(s);
  return *last_;
}

void GpuStreams::finish() {
  for (GpuStream* g : order_) g->windower->finish();
  flush();
}

}  // namespace wt
