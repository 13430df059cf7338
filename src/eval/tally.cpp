#include "eval/tally.hpp"

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
  for (std::size_t i = 0; i < kTypeCount; ++i) r += n[i][i];
  return r;
}

std::size_t Confusion::called(WorkloadType predicted) const {
  std::size_t c = 0;
  for (const auto& row : n) c += row[static_cast<std::size_t>(predicted)];
  return c;
}

nlohmann::json Confusion::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t t = 0; t < kTypeCount; ++t) {
    nlohmann::json row = nlohmann::json::object();
    std::size_t sum = 0;
    for (std::size_t p = 0; p < kTypeCount; ++p)
      if (n[t][p]) row[std::string(to_string(static_cast<WorkloadType>(p)))] = n[t][p], sum += n[t][p];
    if (sum) j[std::string(to_string(static_cast<WorkloadType>(t)))] = row;
  }
  return j;
}

Confusion& Confusion::operator+=(const Confusion& o) {
  for (std::size_t t = 0; t < kTypeCount; ++t)
    for (std::size_t p = 0; p < kTypeCount; ++p) n[t][p] += o.n[t][p];
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

Tally& Tally::operator+=(const Tally& o) {
  windows += o.windows;
  jobs += o.jobs;
  for (std::size_t b = 0; b < 10; ++b) {
    calibration.count[b] += o.calibration.count[b];
    calibration.right[b] += o.calibration.right[b];
    calibration.confidence_sum[b] += o.calibration.confidence_sum[b];
  }
  return *this;
}

WorkloadType window_truth(WorkloadType job_label, const WindowVerdict& w) {
  return w.mean_util_pct && *w.mean_util_pct < kIdleWindowMaxUtilPct ? WorkloadType::Idle : job_label;
}

}  // namespace wt
