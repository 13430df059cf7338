#include "source/polled_source.hpp"

namespace wt {

std::size_t PolledSource::poll_now() {
  pending_.clear();
  pending_pos_ = 0;
  const double start_s = clock_.wait();
  ended_ = !poll(start_s, pending_);
  return pending_.size();
}

bool PolledSource::next(Sample& out) {
  while (pending_pos_ == pending_.size()) {
    if (ended_ || (samples_ > 0 && clock_.polls() >= samples_)) return false;
    poll_now();
  }
  out = pending_[pending_pos_++];
  return true;
}

}  // namespace wt
