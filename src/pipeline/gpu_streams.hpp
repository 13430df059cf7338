// The per-GPU streaming engine that `classify` and `watch` share: routes each sample to its
// GPU's windower and hands every closed window's verdict to a callback.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "classify/classifier.hpp"
#include "window/windower.hpp"

namespace wt {

// One GPU's stream so far.
struct GpuStream {
  GpuIdentity identity;
  std::size_t ordinal = 0;  // order of first appearance: an index for callers' per-GPU state
  std::size_t samples = 0;
  double first_s = 0, last_s = 0;
  std::unique_ptr<Windower> windower;
  std::unique_ptr<WindowHistory> history;  // what the classifier carries between its windows
};

class GpuStreams {
 public:
  // Called for each closed window, in the order the windows close; `window.samples` is valid
  // only during the call.
  using OnWindow = std::function<void(GpuStream& gpu, const Window& window, Verdict verdict)>;

  // `batch` > 1 holds up to that many closed windows and classifies them together (far cheaper
  // for a trained model), so verdicts come later than their windows close: for reading a
  // recorded trace, not for watching live.
  GpuStreams(const Classifier& classifier, WindowSpec window, OnWindow on_window, std::size_t batch = 1);

  // Feeds one sample (time order per GPU) and returns the stream it went to.
  GpuStream& push(const Sample& s);
  // End of stream: closes every GPU's open window (see Windower::finish) and hands over every
  // verdict still held.
  void finish();

  // In order of first appearance (GpuStream::ordinal).
  const std::vector<GpuStream*>& gpus() const { return order_; }

 private:
  // A closed window waiting for its verdict, with its own copy of the samples.
  struct Held {
    GpuStream* gpu;
    double start_s, end_s;
    bool partial;
    std::vector<Reading> samples;
  };
  void closed(GpuStream& g, const Window& w);
  void flush();

  const Classifier& classifier_;
  WindowSpec window_;
  OnWindow on_window_;
  std::size_t batch_;
  std::vector<Held> held_;
  std::map<std::string, std::unique_ptr<GpuStream>> by_key_;
  std::vector<GpuStream*> order_;
  const GpuIdentity* last_ref_ = nullptr;  // sources share one identity per GPU: skip the map
  GpuStream* last_ = nullptr;              // lookup while samples keep coming from the same GPU
};

}  // namespace wt
