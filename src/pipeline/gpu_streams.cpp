#include "pipeline/gpu_streams.hpp"

namespace wt {

GpuStreams::GpuStreams(const Classifier& classifier, WindowSpec window, OnWindow on_window)
    : classifier_(classifier), window_(window), on_window_(std::move(on_window)) {}

GpuStream& GpuStreams::push(const Sample& s) {
  if (s.gpu.get() != last_ref_) {
    auto& slot = by_key_[s.gpu->key()];
    if (!slot) {
      slot = std::make_unique<GpuStream>();
      GpuStream* g = slot.get();
      g->identity = *s.gpu;
      g->ordinal = order_.size();
      g->first_s = s.time_s;
      g->windower = std::make_unique<Windower>(window_, [this, g](const Window& w) {
        on_window_(*g, w, classifier_.classify({w.samples, g->identity}));
      });
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
}

}  // namespace wt
