// A GPU's belief over the model's classes, carried from one window to the next. A job seldom
// changes class between two windows 15 s apart, and one window can read like another class (a
// training run's evaluation pass, a serving lull), so each window's probabilities are weighed
// with what the windows before it said: a forward filter over a chain of classes that stays
// put with probability `stay` per step of time. Causal, so `watch` and `classify` agree.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace wt {

// The index of the most probable class (the first of equals).
std::size_t most_probable(const std::vector<double>& probs);

class ClassBelief {
 public:
  // `stay` in [0, 1) (the caller's to check): 0 classifies every window alone. The class stays
  // with probability `stay` per `step_s` seconds between the windows the belief is updated
  // with, and at least one step from one such window to the next (0: one step per window, so
  // time plays no part). A window whose most probable class is `pass_through` (IDLE: a pause
  // says nothing of what the job does when it runs) is left as it is and leaves the belief as
  // it was, but its time counts: after an hour idle the job is likely another one.
  explicit ClassBelief(double stay, std::optional<std::size_t> pass_through = std::nullopt, double step_s = 0)
      : stay_(stay), step_s_(step_s), pass_through_(pass_through) {}

  // Folds in one window's class probabilities (summing to 1, the same class order every call),
  // at `time_s` (the window's last reading: nondecreasing from call to call), and returns the
  // belief after it.
  std::vector<double> update(const std::vector<double>& probs, double time_s = 0);

 private:
  double stay_, step_s_;
  std::optional<std::size_t> pass_through_;
  std::vector<double> belief_;  // empty until the first window that is not passed through
  double belief_time_s_ = 0;    // the time of the window belief_ was last updated with
};

}  // namespace wt
