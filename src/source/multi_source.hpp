// Several sources read as one: a host with both NVIDIA and AMD GPUs, or several nodes' recorded
// logs (each part's GPUs then named after its node).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "source/telemetry_source.hpp"

namespace wt {

class MultiSource final : public TelemetrySource {
 public:
  struct Part {
    std::unique_ptr<TelemetrySource> source;
    // Added to the GPU indices of this part, so GPUs of different vendors (each numbered from
    // 0 by its own library) get distinct indices: the second part starts after the first's GPUs.
    int index_offset = 0;
    // Set: the node this part's GPUs are in, for those whose source names none (one node's
    // nvidia-smi log among others'), so that GPU 0 of each is told apart as NODE/0.
    std::string host = {};
  };

  explicit MultiSource(std::vector<Part> parts);
  // Samples of all parts, oldest first (ties: in part order); ends when every part has.
  bool next(Sample& out) override;
  // The parts' descriptions joined with '+': "nvml+amd" (the first three, then how many more).
  std::string describe() const override;

 private:
  struct State {
    Part part;
    std::optional<Sample> pending;
    bool ended = false;
    std::size_t diagnostics_seen = 0;
    std::unordered_map<const GpuIdentity*, GpuRef> renamed;  // the part's identity -> ours
  };
  void refill(State& s);

  std::vector<State> states_;
};

}  // namespace wt
