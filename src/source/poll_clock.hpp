// Timing of a live source's polls: when to poll next, and the wall-clock stamp of a poll.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <thread>

namespace wt {

class PollClock {
 public:
  explicit PollClock(double interval_s) : interval_s_(std::max(interval_s, 0.0)) {}

  // Returns when the next poll is due. The first is immediate. Later ones are due an interval
  // after the previous due time, so sleep overshoot does not accumulate into drift; after a
  // stall longer than an interval (a hung driver call, a suspended process) the schedule
  // restarts from now instead of bursting to catch up. Returns the poll's start on the steady
  // clock (seconds), for sources that time other work by it.
  double wait() {
    if (polls_ > 0) {
      if (const double left = next_s_ - steady_s(); left > 0)
        std::this_thread::sleep_for(std::chrono::duration<double>(left));
    }
    const double start = steady_s();
    next_s_ = (polls_ == 0 || start - next_s_ > interval_s_) ? start + interval_s_ : next_s_ + interval_s_;
    ++polls_;
    return start;
  }

  // Polls started so far.
  std::size_t polls() const { return polls_; }

  // Wall clock to the millisecond, the precision nvidia-smi logs and the trace format keep.
  static double wall_clock_s() {
    const double s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    return std::round(s * 1000) / 1000;
  }

  // The steady clock in seconds: for intervals and deadlines that a wall-clock step must not move.
  static double steady_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

 private:
  double interval_s_;
  double next_s_ = 0;
  std::size_t polls_ = 0;
};

}  // namespace wt
