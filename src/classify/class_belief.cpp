#include "classify/class_belief.hpp"

#include <algorithm>
#include <cmath>

namespace wt {

std::size_t most_probable(const std::vector<double>& probs) {
  return static_cast<std::size_t>(std::max_element(probs.begin(), probs.end()) - probs.begin());
}

std::vector<double> ClassBelief::update(const std::vector<double>& probs, double time_s) {
  if (pass_through_ && most_probable(probs) == *pass_through_) return probs;
  const double since = time_s - belief_time_s_;
  belief_time_s_ = time_s;
  if (belief_.size() != probs.size()) {
    belief_ = probs;  // the first window: nothing before it to weigh
    return belief_;
  }
  // Prior for this window: stay in a class over the time since the last window (a step at
  // least), or move to any class alike. Every class keeps at least (1 - stay) / K of it, so the
  // sum below is never 0 and a clear change is followed.
  const double steps = step_s_ > 0 && since > step_s_ ? since / step_s_ : 1.0;
  const double stay = std::pow(stay_, steps);
  const double move = (1 - stay) / static_cast<double>(probs.size());
  double sum = 0;
  for (std::size_t k = 0; k < probs.size(); ++k) sum += belief_[k] = probs[k] * (stay * belief_[k] + move);
  for (double& b : belief_) b /= sum;
  return belief_;
}

}  // namespace wt
