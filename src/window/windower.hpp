// Cuts one GPU's sample stream into sliding windows defined in seconds, so that results do
// not depend on the sampling rate.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "core/sample.hpp"

namespace wt {

struct WindowSpec {
  double length_s = 30;
  double stride_s = 15;
  // Features such as a standard deviation or a slope need a few points; a window with fewer
  // samples is skipped (a gap), and a window too short for the sampling rate is widened.
  std::size_t min_samples = 3;
};

struct Window {
  double start_s;
  double end_s;  // exclusive for full windows; the last sample's time for a partial one
  std::span<const Reading> samples;
  bool partial;  // shorter than the window length (short trace, or the end of the stream)
};

class Windower {
 public:
  using Emit = std::function<void(const Window&)>;

  // `emit` is called for each window as it closes; the window's span is valid only during the call.
  Windower(WindowSpec spec, Emit emit);

  // Samples must come in time order (ties allowed).
  void push(const Reading& sample);
  // End of stream: emits what is left worth a verdict (see windower.cpp).
  void finish();

  // The geometry in force: the requested one, or wider when samples are sparse.
  const WindowSpec& spec() const { return spec_; }
  bool widened() const { return widened_; }
  std::size_t windows_emitted() const { return emitted_; }
  std::size_t gaps() const { return gaps_; }

 private:
  void fix_geometry(double incoming_s);
  void close_windows_before(double time_s);
  std::size_t count_before(double end_s) const;

  WindowSpec spec_;
  Emit emit_;
  bool geometry_fixed_ = false;
  bool widened_ = false;
  double next_start_ = 0;
  std::vector<Reading> buffer_;  // readings from next_start_ on, from index head_
  std::size_t head_ = 0;
  std::size_t emitted_ = 0;
  std::size_t gaps_ = 0;
};

}  // namespace wt
