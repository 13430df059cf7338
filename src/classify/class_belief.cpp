#include "classify/class_belief.hpp"

#include <algorithm>

namespace wt {

std::size_t most_probable(const std::vector<double>& probs) {
  return static_cast<std::size_t>(std::max_element(probs.begin(), probs.end()) - probs.begin());
}

std::vector<double> ClassBelief::update(const std::vector<double>& probs) {
  if (pass_through_ && most_probable(probs) == *pass_through_) return probs;
  if (belief_.size() != probs.size()) {
    belief_ = probs;  // the first window: nothing before it to weigh
    return belief_;
  }
  // Prior for this window: stay in a class, or move to any class alike. Every class keeps at
  // least (1 - stay) / K of it, so the sum below is never 0 and a clear change is followed.
  const double move = (1 - stay_) / static_cast<double>(probs.size());
  double sum = 0;
  for (std::size_t k = 0; k < probs.size(); ++k) sum += belief_[k] = probs[k] * (stay_ * belief_[k] + move);
  for (double& b : belief_) b /= sum;
  return belief_;
}

}  // namespace wt
