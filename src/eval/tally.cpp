#include "eval/tally.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "train/dataset.hpp"

namespace wt {

std::size_t Confusion::total() const {
  std::size_t t = 0;
  for (const auto& row : n)
    for (std::size_t x : row) t += x;
  return t;
}

std::size_t Confusion::right() const {
  std::size_t r = 0;
  for (std::size_t i = 0; i < kWorkloadTypeCount; ++i) r += n[i][i];
  return r;
}

std::size_t Confusion::called(WorkloadType predicted) const {
  std::size_t c = 0;
  for (const auto& row : n) c += row[static_cast<std::size_t>(predicted)];
  return c;
}

nlohmann::json Confusion::active_called_training() const {
  const auto training = static_cast<std::size_t>(WorkloadType::Training);
  std::size_t called = 0, count = 0;
  for (std::size_t truth = 0; truth < kWorkloadTypeCount; ++truth) {
    if (truth == training || truth == static_cast<std::size_t>(WorkloadType::Idle)) continue;
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) count += n[truth][p];
    called += n[truth][training];
  }
  return {{"share", count ? static_cast<double>(called) / static_cast<double>(count) : 0.0},
          {"called", called},
          {"count", count}};
}

nlohmann::json Confusion::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t t = 0; t < kWorkloadTypeCount; ++t) {
    nlohmann::json row = nlohmann::json::object();
    std::size_t sum = 0;
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p)
      if (n[t][p]) row[std::string(to_string(static_cast<WorkloadType>(p)))] = n[t][p], sum += n[t][p];
    if (sum) j[std::string(to_string(static_cast<WorkloadType>(t)))] = row;
  }
  return j;
}

Confusion& Confusion::operator+=(const Confusion& o) {
  for (std::size_t t = 0; t < kWorkloadTypeCount; ++t)
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) n[t][p] += o.n[t][p];
  return *this;
}

void Calibration::add(double confidence, bool correct) {
  const auto bin = std::min<std::size_t>(9, static_cast<std::size_t>(confidence * 10));
  ++count[bin];
  right[bin] += correct;
  confidence_sum[bin] += confidence;
}

nlohmann::json Calibration::to_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t b = 0; b < 10; ++b) {
    if (!count[b]) continue;
    const double c = static_cast<double>(count[b]);
    rows.push_back({{"bin", {b / 10.0, (b + 1) / 10.0}},
                    {"windows", count[b]},
                    {"mean_confidence", confidence_sum[b] / c},
                    {"accuracy", static_cast<double>(right[b]) / c}});
  }
  return rows;
}

namespace {

// Shares of the other, clean-training and disguised-training windows scoring at least `threshold`.
// `rate`: the share of other windows the threshold was chosen to let through (null: a fixed bar).
nlohmann::json operating_point(const std::vector<std::pair<float, ScoreCurve::Truth>>& points, const std::string& rule,
                               float threshold, const nlohmann::json& rate) {
  std::array<std::size_t, 3> n{}, above{};
  for (const auto& [score, truth] : points) {
    ++n[static_cast<std::size_t>(truth)];
    above[static_cast<std::size_t>(truth)] += score >= threshold;
  }
  const auto share = [](std::size_t a, std::size_t b) -> nlohmann::json {
    return b ? nlohmann::json(static_cast<double>(a) / static_cast<double>(b)) : nlohmann::json(nullptr);
  };
  return {{"rule", rule},
          {"target_false_positive_rate", rate},
          {"threshold", threshold},
          {"false_positive_rate", share(above[0], n[0])},
          {"detection", share(above[1] + above[2], n[1] + n[2])},
          {"detection_clean", share(above[1], n[1])},
          {"detection_disguised", share(above[2], n[2])}};
}

}  // namespace

nlohmann::json ScoreCurve::to_json() const {
  std::vector<float> other;
  std::size_t clean = 0, disguised = 0;
  for (const auto& [score, truth] : points) {
    if (truth == Truth::Other) other.push_back(score);
    clean += truth == Truth::Training;
    disguised += truth == Truth::Disguised;
  }
  nlohmann::json j{{"windows", {{"other", other.size()}, {"training", clean}, {"disguised_training", disguised}}}};
  if (other.empty() || clean + disguised == 0) {
    j["roc_auc"] = nullptr;
    j["operating_points"] = nlohmann::json::array();
    return j;
  }
  // ROC AUC as the Mann-Whitney statistic: the chance that a training window outscores another
  // window, ties counting half (average ranks over tied scores).
  std::vector<std::pair<float, bool>> ranked;
  for (const auto& [score, truth] : points) ranked.emplace_back(score, truth != Truth::Other);
  std::sort(ranked.begin(), ranked.end());
  double positive_rank_sum = 0;
  for (std::size_t i = 0; i < ranked.size();) {
    std::size_t k = i;
    while (k < ranked.size() && ranked[k].first == ranked[i].first) ++k;
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(k)) / 2;
    for (std::size_t m = i; m < k; ++m) positive_rank_sum += ranked[m].second ? mean_rank : 0;
    i = k;
  }
  const double np = static_cast<double>(clean + disguised), nn = static_cast<double>(other.size());
  j["roc_auc"] = (positive_rank_sum - np * (np + 1) / 2) / (np * nn);
  // The lowest threshold that lets at most `rate` of the other windows through: just above the
  // score of the first other window that must stay out.
  std::sort(other.begin(), other.end(), std::greater<>());
  const auto threshold_for = [&](double rate) {
    const auto allowed = static_cast<std::size_t>(rate * nn);
    return allowed >= other.size() ? 0.0f : std::nextafter(other[allowed], 2.0f);
  };
  j["operating_points"] = {operating_point(points, "the verdict's bar", 0.5f, nullptr),
                           operating_point(points, "at most 1 % of the others", threshold_for(0.01), 0.01),
                           operating_point(points, "at most 5 % of the others", threshold_for(0.05), 0.05)};
  return j;
}

Tally& Tally::operator+=(const Tally& o) {
  windows += o.windows;
  jobs += o.jobs;
  runs += o.runs;
  for (std::size_t b = 0; b < 10; ++b) {
    calibration.count[b] += o.calibration.count[b];
    calibration.right[b] += o.calibration.right[b];
    calibration.confidence_sum[b] += o.calibration.confidence_sum[b];
  }
  calibration.abstained += o.calibration.abstained;
  training_score.points.insert(training_score.points.end(), o.training_score.points.begin(),
                               o.training_score.points.end());
  return *this;
}

WorkloadType window_truth(WorkloadType job_label, const WindowVerdict& w) {
  return w.mean_util_pct && *w.mean_util_pct < kIdleWindowMaxUtilPct ? WorkloadType::Idle : job_label;
}

}  // namespace wt
