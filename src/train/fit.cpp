#include "train/fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace wt {

const std::vector<WorkloadType>& model_classes() {
  static const std::vector<WorkloadType> classes{WorkloadType::Training, WorkloadType::Inference, WorkloadType::Idle,
                                                 WorkloadType::Hpc,      WorkloadType::Mining,    WorkloadType::Graphics};
  return classes;
}

void to_matrix(const std::vector<LabelledWindow>& rows, std::vector<float>& x, std::vector<float>& y,
               std::vector<float>* weights) {
  const auto& classes = model_classes();
  for (const auto& r : rows) {
    const auto c = std::find(classes.begin(), classes.end(), r.label);
    if (c == classes.end()) continue;
    x.insert(x.end(), r.x.begin(), r.x.end());
    y.push_back(static_cast<float>(c - classes.begin()));
    if (weights) weights->push_back(r.weight);
  }
}

double fit_temperature(const ModelBundle& model, const std::vector<LabelledWindow>& calibration) {
  std::vector<float> x, y;
  to_matrix(calibration, x, y);
  if (y.empty()) return 1.0;
  const auto p = model.probabilities(x);
  const auto k = model.classes.size();
  auto nll = [&](double t) {
    double sum = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const auto q = temper(p.data() + i * k, k, t);
      sum -= std::log(std::max(q[static_cast<std::size_t>(y[i])], 1e-12));
    }
    return sum;
  };
  // NLL is unimodal in the temperature: a log-spaced scan, then a finer one around the best.
  double best = 1.0, best_nll = nll(1.0);
  for (double t = 0.25; t <= 8.0; t *= 1.1)
    if (const double v = nll(t); v < best_nll) best_nll = v, best = t;
  for (double t = best / 1.1; t <= best * 1.1; t *= 1.01)
    if (const double v = nll(t); v < best_nll) best_nll = v, best = t;
  return best;
}

std::vector<std::vector<double>> verdict_probabilities(const ModelBundle& model, const std::vector<LabelledWindow>& rows) {
  std::vector<float> x;
  for (const auto& r : rows) x.insert(x.end(), r.x.begin(), r.x.end());
  const auto p = model.probabilities(x);
  const auto k = model.classes.size();
  std::map<std::uint64_t, ClassBelief> beliefs;
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!model.class_index(rows[i].label)) {
      out.emplace_back();
      continue;
    }
    out.push_back(temper(p.data() + i * k, k, model.temperature));
    if (model.window_stay > 0 && model.out_of_range(rows[i].x.data()).size() <= model.max_out_of_range) {
      ClassBelief& belief = beliefs.try_emplace(rows[i].sequence, model.new_belief()).first->second;
      out.back() = belief.update(out.back(), rows[i].time_s);
    }
  }
  return out;
}

ConfidenceMap fit_confidence_map(const ModelBundle& model, const std::vector<LabelledWindow>& calibration) {
  const auto probs = verdict_probabilities(model, calibration);
  std::vector<std::pair<double, bool>> top;
  for (std::size_t i = 0; i < calibration.size(); ++i) {
    const auto& q = probs[i];
    if (q.empty()) continue;
    const std::size_t best = most_probable(q);
    top.emplace_back(q[best], model.classes[best] == calibration[i].label);
  }
  return ConfidenceMap::fit(std::move(top));
}

ModelBundle fit_model(const std::vector<LabelledWindow>& train, const std::vector<LabelledWindow>& calibration,
                      const XgbParams& params) {
  std::vector<float> x, y, row_weight;
  to_matrix(train, x, y, &row_weight);
  // Balance the classes: each contributes the same total weight, however many (weighted) windows it has.
  std::vector<double> count(model_classes().size(), 0);
  double total = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    count[static_cast<std::size_t>(y[i])] += row_weight[i];
    total += row_weight[i];
  }
  std::vector<float> w;
  for (std::size_t i = 0; i < y.size(); ++i)
    w.push_back(row_weight[i] *
                static_cast<float>(total / (static_cast<double>(count.size()) * count[static_cast<std::size_t>(y[i])])));

  XgbParams p = params;
  p.num_class = static_cast<int>(model_classes().size());
  ModelBundle b;
  b.class_trees = XgbModel::train(x, kModelFeatureCount, y, w, p).split_by_class();
  b.classes = model_classes();
  for (std::size_t f = 0; f < kModelFeatureCount; ++f) {
    std::vector<float> v;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (const float e = x[i * kModelFeatureCount + f]; !std::isnan(e)) v.push_back(e);
    if (v.empty()) {
      b.low[f] = -std::numeric_limits<float>::max();  // JSON has no infinity
      b.high[f] = std::numeric_limits<float>::max();
      continue;
    }
    std::sort(v.begin(), v.end());
    b.low[f] = v[static_cast<std::size_t>(0.005 * static_cast<double>(v.size() - 1))];
    b.high[f] = v[static_cast<std::size_t>(0.995 * static_cast<double>(v.size() - 1))];
  }
  b.temperature = fit_temperature(b, calibration);
  b.window_stay = kWindowStay;
  b.window_stay_step_s = kWindowStayStepS;
  b.confidence = fit_confidence_map(b, calibration);
  return b;
}

}  // namespace wt
