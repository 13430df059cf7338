// Maps the model's top probability to the share of windows that were right at that probability
// on held-out calibration windows. Temperature scaling alone (one parameter) left the
// 0.7-0.9 range some ten points over-confident; this monotone map puts each reported
// confidence at the accuracy observed there.
#pragma once

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace wt {

class ConfidenceMap {
 public:
  ConfidenceMap() = default;  // the identity: confidence = probability
  // `points`: (probability, accuracy) pairs, probabilities increasing, accuracies in [0, 1] and
  // non-decreasing. Throws std::invalid_argument otherwise.
  explicit ConfidenceMap(std::vector<std::pair<double, double>> points);

  // Fits the map by isotonic regression (pool adjacent violators) of right-or-wrong on the
  // probability, over at most `bins` equal-count bins (mean probability, share right) so that the
  // map stays small and each point rests on many windows.
  static ConfidenceMap fit(std::vector<std::pair<double, bool>> probability_right, std::size_t bins = 100);

  // Linear between the points, flat beyond the first and the last.
  double apply(double probability) const;
  bool identity() const { return points_.empty(); }
  const std::vector<std::pair<double, double>>& points() const { return points_; }

  nlohmann::json to_json() const;  // [[probability, accuracy], ...]
  static ConfidenceMap from_json(const nlohmann::json& j);

 private:
  std::vector<std::pair<double, double>> points_;
};

}  // namespace wt
