// A workload that plans a few segments at a time (an iteration, a batch, a frame) and hands
// them out one by one: most families are easiest to write that way.
#pragma once

#include <deque>

#include "sim/workload.hpp"

namespace wt::sim {

class QueuedWorkload : public Workload {
 public:
  Segment next(Rng& rng) final {
    while (queue_.empty()) plan(rng);
    Segment s = queue_.front();
    queue_.pop_front();
    return s;
  }

 protected:
  // Appends at least one segment.
  virtual void plan(Rng& rng) = 0;
  void push(double seconds, Activity a, double mem_mib, int processes = 1) {
    if (seconds > 0) queue_.push_back(Segment{seconds, a, mem_mib, processes});
  }
  void push(const Segment& s) {
    if (s.duration_s > 0) queue_.push_back(s);
  }

 private:
  std::deque<Segment> queue_;
};

}  // namespace wt::sim
