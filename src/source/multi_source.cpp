#include "source/multi_source.hpp"

namespace wt {

MultiSource::MultiSource(std::vector<Part> parts) {
  for (Part& p : parts) states_.push_back({std::move(p), std::nullopt, false, 0, {}});
}

std::string MultiSource::describe() const {
  std::string text;
  for (const State& s : states_) text += (text.empty() ? "" : "+") + s.part.source->describe();
  return text;
}

// Takes the part's next sample (if it has none waiting) and copies its new diagnostics into ours.
void MultiSource::refill(State& s) {
  if (!s.ended && !s.pending) {
    Sample sample;
    if (s.part.source->next(sample)) {
      if (s.part.index_offset != 0) {
        GpuRef& ours = s.renamed[sample.gpu.get()];
        if (!ours) {
          auto id = std::make_shared<GpuIdentity>(*sample.gpu);
          id->index += s.part.index_offset;
          ours = std::move(id);
        }
        sample.gpu = ours;
      }
      s.pending = std::move(sample);
    } else {
      s.ended = true;
    }
  }
  const Diagnostics d = s.part.source->diagnostics();
  for (std::size_t i = s.diagnostics_seen; i < d.size(); ++i) report(d[i]);
  s.diagnostics_seen = d.size();
}

bool MultiSource::next(Sample& out) {
  State* oldest = nullptr;
  for (State& s : states_) {
    refill(s);
    if (s.pending && (oldest == nullptr || s.pending->time_s < oldest->pending->time_s)) oldest = &s;
  }
  if (oldest == nullptr) return false;
  out = std::move(*oldest->pending);
  oldest->pending.reset();
  return true;
}

}  // namespace wt
