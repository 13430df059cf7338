#include "classify/confidence_map.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wt {

ConfidenceMap::ConfidenceMap(std::vector<std::pair<double, double>> points) : points_(std::move(points)) {
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const auto [p, q] = points_[i];
    if (!(p >= 0 && p <= 1 && q >= 0 && q <= 1)) throw std::invalid_argument("confidence map: a value outside [0, 1]");
    if (i > 0 && (!(p > points_[i - 1].first) || q < points_[i - 1].second))
      throw std::invalid_argument("confidence map: probabilities must increase and accuracies not decrease");
  }
}

ConfidenceMap ConfidenceMap::fit(std::vector<std::pair<double, bool>> probability_right, std::size_t bins) {
  if (probability_right.empty() || bins == 0) return {};
  std::sort(probability_right.begin(), probability_right.end());
  // Equal-count bins, then pool adjacent violators: a bin right at least as often as the next (or
  // at the same mean probability) is merged with it, weighted by windows, until the accuracies
  // increase.
  struct Block {
    double p_sum = 0, right = 0, n = 0;
    double p() const { return p_sum / n; }
    double acc() const { return right / n; }
  };
  std::vector<Block> blocks;
  const std::size_t n = probability_right.size();
  for (std::size_t b = 0; b < bins; ++b) {
    const std::size_t lo = b * n / bins, hi = (b + 1) * n / bins;
    if (lo == hi) continue;
    Block block;
    for (std::size_t i = lo; i < hi; ++i) {
      block.p_sum += probability_right[i].first;
      block.right += probability_right[i].second ? 1 : 0;
      block.n += 1;
    }
    blocks.push_back(block);
    while (blocks.size() > 1 && (blocks[blocks.size() - 2].acc() >= blocks.back().acc() ||
                                 blocks[blocks.size() - 2].p() >= blocks.back().p())) {
      const Block last = blocks.back();
      blocks.pop_back();
      blocks.back().p_sum += last.p_sum, blocks.back().right += last.right, blocks.back().n += last.n;
    }
  }
  std::vector<std::pair<double, double>> points;
  for (const Block& b : blocks) points.emplace_back(b.p(), b.acc());
  return ConfidenceMap(std::move(points));
}

double ConfidenceMap::apply(double probability) const {
  if (points_.empty() || std::isnan(probability)) return probability;
  if (probability <= points_.front().first) return points_.front().second;
  if (probability >= points_.back().first) return points_.back().second;
  const auto hi = std::upper_bound(points_.begin(), points_.end(), probability,
                                   [](double p, const std::pair<double, double>& pt) { return p < pt.first; });
  const auto lo = hi - 1;
  const double t = (probability - lo->first) / (hi->first - lo->first);
  return lo->second + t * (hi->second - lo->second);
}

nlohmann::json ConfidenceMap::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [p, q] : points_) out.push_back({p, q});
  return out;
}

ConfidenceMap ConfidenceMap::from_json(const nlohmann::json& j) {
  return ConfidenceMap(j.get<std::vector<std::pair<double, double>>>());
}

}  // namespace wt
