// The GPUs a log names by a bare index (dmon's gpu column, dcgmi's "GPU N", rocm-smi's cardN),
// each given one identity when first seen, with what its reader tracks of it (`State`).
#pragma once

#include <cstddef>
#include <deque>

#include "core/sample.hpp"

namespace wt {

template <class State>
class GpusByIndex {
 public:
  // A file naming more is not one node's log, and each row's search among them stays short.
  static constexpr std::size_t kMaxGpus = 4096;

  struct Gpu {
    GpuRef ref;
    State state;
  };
  // The GPU of `index`; when new, its identity is `make()` and its state `initial`. nullptr when
  // it is new and the file already names kMaxGpus (the caller reports it). The pointer stays valid.
  template <class Make>
  Gpu* find_or_add(int index, Make make, State initial) {
    for (Gpu& g : gpus_)
      if (g.ref->index == index) return &g;
    if (gpus_.size() >= kMaxGpus) return nullptr;
    return &gpus_.emplace_back(Gpu{make(), initial});
  }
  bool empty() const { return gpus_.empty(); }

 private:
  std::deque<Gpu> gpus_;
};

// An identity that knows only its index.
inline GpuRef gpu_of_index(int index) {
  auto id = std::make_shared<GpuIdentity>();
  id->index = index;
  return id;
}

}  // namespace wt
