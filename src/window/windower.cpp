#include "window/windower.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wt {

Windower::Windower(WindowSpec spec, Emit emit) : spec_(spec), emit_(std::move(emit)) {
  if (!(spec_.length_s > 0) || !(spec_.stride_s > 0) || spec_.min_samples < 1)
    throw std::invalid_argument("window length and stride must be positive");
}

std::size_t Windower::count_before(double end_s) const {
  const auto first = buffer_.begin() + static_cast<std::ptrdiff_t>(head_);
  const auto it = std::partition_point(first, buffer_.end(), [&](const Reading& r) { return r.time_s < end_s; });
  return static_cast<std::size_t>(it - first);
}

// Decided once, when the first window would close: if it holds fewer than min_samples, the
// samples are too sparse for the requested length (a 60 s log with 30 s windows), so the
// window grows to min_samples sampling intervals and the stride keeps its ratio.
void Windower::fix_geometry(double incoming_s) {
  geometry_fixed_ = true;
  std::vector<double> gaps;
  for (std::size_t i = head_ + 1; i < buffer_.size(); ++i) gaps.push_back(buffer_[i].time_s - buffer_[i - 1].time_s);
  if (!buffer_.empty()) gaps.push_back(incoming_s - buffer_.back().time_s);
  if (gaps.empty()) return;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  const double interval = gaps[gaps.size() / 2];
  const double needed = interval * static_cast<double>(spec_.min_samples);
  if (count_before(next_start_ + spec_.length_s) < spec_.min_samples && needed > spec_.length_s) {
    spec_.stride_s *= needed / spec_.length_s;
    spec_.length_s = needed;
    widened_ = true;
  }
}

void Windower::close_windows_before(double time_s) {
  while (next_start_ + spec_.length_s <= time_s) {
    const double end = next_start_ + spec_.length_s;
    const std::size_t n = count_before(end);
    if (n >= spec_.min_samples) {
      emit_(Window{next_start_, end, {buffer_.data() + head_, n}, false});
      ++emitted_;
    } else {
      ++gaps_;
    }
    const double next = next_start_ + spec_.stride_s;
    if (!(next > next_start_)) {  // times so large the stride is below their precision: restart
      buffer_.clear();
      head_ = 0;
      next_start_ = time_s;
      return;
    }
    next_start_ = next;
    while (head_ < buffer_.size() && buffer_[head_].time_s < next_start_) ++head_;
    if (head_ == buffer_.size()) {
      // Nothing buffered: jump over a long silence in one step instead of window by window.
      const double behind = time_s - spec_.length_s - next_start_;
      if (behind >= 0) next_start_ += (std::floor(behind / spec_.stride_s) + 1) * spec_.stride_s;
    }
  }
  if (head_ >= 256 && head_ * 2 >= buffer_.size()) {  // compact often: a small buffer stays in cache
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void Windower::push(const Reading& sample) {
  if (buffer_.empty() && emitted_ == 0 && gaps_ == 0) next_start_ = sample.time_s;
  if (!geometry_fixed_ && sample.time_s >= next_start_ + spec_.length_s) fix_geometry(sample.time_s);
  if (geometry_fixed_) close_windows_before(sample.time_s);
  buffer_.push_back(sample);
}

// A stream shorter than one window still gets one (partial) window, so that a 20 s trace has
// a verdict. In a longer stream, the window that was still open gets a verdict when its
// samples span at least half a window; a shorter tail is left out.
void Windower::finish() {
  const std::size_t n = buffer_.size() - head_;
  if (n >= spec_.min_samples) {
    const double first = buffer_[head_].time_s;
    const double last = buffer_.back().time_s;
    if (emitted_ == 0 || last - next_start_ >= spec_.length_s / 2) {
      emit_(Window{emitted_ == 0 ? first : next_start_, last, {buffer_.data() + head_, n}, true});
      ++emitted_;
    }
  }
  buffer_.clear();
  head_ = 0;
}

}  // namespace wt
