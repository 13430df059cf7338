#include "source/multi_source.hpp"

namespace wt {

MultiSource::MultiSource(std::vector<Part> parts) {
  for (Part& p : parts) states_.push_back({std::move(p), std::nullopt, false, 0, {}});
}

std::string MultiSource::describe() const {
  constexpr std::size_t kNamed = 3;  // a fleet's hundred logs would make a header of paths
  std::string text;
  for (std::size_t i = 0; i < states_.size() && i < kNamed; ++i)
    text += (i == 0 ? "" : "+") + states_[i].part.source->describe();
  if (states_.size() > kNamed) text += "+" + std::to_string(states_.size() - kNamed) + " more";
  return text;
}

// Takes the part's next sample (if it has none waiting) and copies its new diagnostics into ours.
void MultiSource::refill(State& s) {
  if (!s.ended && !s.pending) {
    Sample sample;
    if (s.part.source->next(sample)) {
      if (s.part.index_offset != 0 || (!s.part.host.empty() && sample.gpu->host.empty())) {
        GpuRef& ours = s.renamed[sample.gpu.get()];
        if (!ours) {
          auto id = std::make_shared<GpuIdentity>(*sample.gpu);
          id->index += s.part.index_offset;
          if (id->host.empty()) id->host = s.part.host;
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
