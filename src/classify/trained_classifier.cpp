#include "classify/trained_classifier.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace wt {
namespace {

// How a feature reads in a sentence: label, scale to the unit shown, unit.
struct Phrase {
  std::string_view feature, label;
  double scale;
  std::string_view unit;
};
constexpr Phrase kPhrases[] = {
    {"util_mean", "mean GPU utilization", 1, "%"},
    {"util_std", "GPU utilization spread (std)", 1, " points"},
    {"util_p10", "10th-percentile GPU utilization", 1, "%"},
    {"util_p50", "median GPU utilization", 1, "%"},
    {"util_p90", "90th-percentile GPU utilization", 1, "%"},
    {"util_busy_frac", "time at >= 80% utilization", 100, "%"},
    {"util_idle_frac", "time at <= 5% utilization", 100, "%"},
    {"util_crossings_per_min", "busy/idle switches", 1, " per minute"},
    {"memutil_mean", "mean memory-controller utilization", 1, "%"},
    {"memutil_std", "memory-controller utilization spread (std)", 1, " points"},
    {"memutil_per_util", "memory-controller per GPU utilization", 1, ""},
    {"power_frac_mean", "mean power", 100, "% of the limit"},
    {"power_frac_std", "power spread (std)", 100, "% of the limit"},
    {"power_frac_p10", "10th-percentile power", 100, "% of the limit"},
    {"power_frac_p90", "90th-percentile power", 100, "% of the limit"},
    {"power_per_util", "power per unit of utilization", 1, ""},
    {"power_above_idle", "power above idle", 100, "% of the idle-to-limit range"},
    {"mem_frac_mean", "memory used", 100, "% of the GPU's memory"},
    {"mem_slope_frac_per_min", "memory growth", 100, "% of the GPU's memory per minute"},
    {"mem_range_frac", "memory-used range", 100, "% of the GPU's memory"},
    {"mem_flat_frac", "readings with unchanged memory", 100, "%"},
    {"util_power_corr", "utilization-power correlation", 1, ""},
    {"util_memutil_corr", "utilization-memory-controller correlation", 1, ""},
    {"util_acf_peak", "utilization periodicity (autocorrelation peak)", 1, ""},
    {"util_acf_period_s", "utilization period", 1, " s"},
    {"power_acf_peak", "power periodicity (autocorrelation peak)", 1, ""},
    {"sm_clock_frac", "SM clock", 100, "% of its maximum"},
    {"sm_clock_cv", "SM clock variation", 100, "%"},
    {"temp_slope_per_min", "temperature trend", 1, " C per minute"},
    {"pcie_log_mbps", "PCIe traffic (log MB/s)", 1, ""},
    {"nvlink_log_mbps", "NVLink traffic (log MB/s)", 1, ""},
    {"process_count", "running processes", 1, ""},
};

std::string describe(std::size_t feature, float value) {
  const std::string_view name = kModelFeatureNames[feature];
  for (const Phrase& p : kPhrases)
    if (p.feature == name) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%.*s %.3g%.*s", static_cast<int>(p.label.size()), p.label.data(),
                    static_cast<double>(value) * p.scale, static_cast<int>(p.unit.size()), p.unit.data());
      return buf;
    }
  return std::string(name);
}

// A GPU's belief over the classes, carried between its windows.
struct BeliefHistory final : WindowHistory {
  explicit BeliefHistory(ClassBelief b) : belief(std::move(b)) {}
  ClassBelief belief;
};

}  // namespace

std::vector<double> temper(const float* probs, std::size_t n, double temperature) {
  std::vector<double> z(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = std::log(std::max(static_cast<double>(probs[i]), 1e-12)) / temperature;
  const double top = *std::max_element(z.begin(), z.end());
  double sum = 0;
  for (double& x : z) sum += (x = std::exp(x - top));
  for (double& x : z) x /= sum;
  return z;
}

TrainedClassifier::TrainedClassifier(ModelBundle model, GpuContextFn context)
    : model_(std::move(model)), context_(std::move(context)) {}

ModelFeatures TrainedClassifier::features_of(const WindowInput& window) const {
  return compute_model_features(window.readings, context_ ? context_(window.gpu) : GpuContext{});
}

std::vector<double> TrainedClassifier::probabilities(const ModelFeatures& row) const {
  const std::vector<float> r(row.begin(), row.end());
  const auto p = model_.probabilities(r);
  return temper(p.data(), p.size(), model_.temperature);
}

Verdict TrainedClassifier::classify(const WindowInput& window) const {
  const ModelFeatures row = features_of(window);
  return decide(window, row, probabilities(row));
}

std::vector<Verdict> TrainedClassifier::classify_all(std::span<const WindowInput> windows) const {
  std::vector<ModelFeatures> rows;
  std::vector<float> x;
  for (const WindowInput& w : windows) {
    rows.push_back(features_of(w));
    x.insert(x.end(), rows.back().begin(), rows.back().end());
  }
  const auto p = model_.probabilities(x);
  const std::size_t k = model_.classes.size();
  std::vector<Verdict> out;
  for (std::size_t i = 0; i < windows.size(); ++i)
    out.push_back(decide(windows[i], rows[i], temper(p.data() + i * k, k, model_.temperature)));
  return out;
}

std::unique_ptr<WindowHistory> TrainedClassifier::new_history() const {
  if (!(model_.window_stay > 0)) return nullptr;
  return std::make_unique<BeliefHistory>(model_.new_belief());
}

Verdict TrainedClassifier::decide(const WindowInput& window, const ModelFeatures& row,
                                  const std::vector<double>& own) const {
  Verdict v;
  v.features = compute_features(window.readings);

  // Features far outside anything seen in training: the model would be guessing.
  const std::vector<std::size_t> outside = model_.out_of_range(row.data());
  const bool unlike_training = outside.size() > model_.max_out_of_range;
  // A guess says nothing of the job: it neither moves the GPU's belief nor is moved by it.
  auto* history = dynamic_cast<BeliefHistory*>(window.history);
  const double at = window.readings.empty() ? 0 : window.readings.back().time_s;
  const std::vector<double> probs = history && !unlike_training ? history->belief.update(own, at) : own;
  const std::size_t best = most_probable(probs);
  if (const auto training = model_.class_index(WorkloadType::Training)) v.training_score = probs[*training];
  char buf[200];
  if (unlike_training) {
    v.type = WorkloadType::Unknown;
    v.confidence = 1.0 - probs[best];
    std::snprintf(buf, sizeof buf, "Unlike the training data: %zu features fall outside the ranges the model was built on:",
                  outside.size());
    v.reasons.push_back(buf);
    for (std::size_t i = 0; i < outside.size() && i < 4; ++i)
      v.reasons.push_back("  " + describe(outside[i], row[outside[i]]) + ".");
    return v;
  }
  v.type = model_.classes[best];
  v.confidence = model_.confidence.apply(probs[best]);
  if (probs[best] < model_.abstain_below) {
    std::snprintf(buf, sizeof buf, "No class is probable enough: the best, %s, has %.0f%% (needs %.0f%%).",
                  std::string(to_string(model_.classes[best])).c_str(), 100 * probs[best], 100 * model_.abstain_below);
    v.type = WorkloadType::Unknown;
    v.reasons.push_back(buf);
  }

  std::snprintf(buf, sizeof buf, "Model probability %.0f%% %s; training score %.2f.", 100 * probs[best],
                std::string(to_string(model_.classes[best])).c_str(), v.training_score.value_or(0));
  v.reasons.push_back(buf);
  if (const std::size_t own_best = most_probable(own); own_best != best) {
    const std::string alone(to_string(model_.classes[own_best])), with(to_string(model_.classes[best]));
    std::snprintf(buf, sizeof buf, "This window alone reads %s (%.0f%%); with this GPU's windows before it, %s.",
                  alone.c_str(), 100 * own[own_best], with.c_str());
    v.reasons.push_back(buf);
  }
  return v;
}

void TrainedClassifier::explain(const WindowInput& window, Verdict& v) const {
  const ModelFeatures row = features_of(window);
  // The model's own reasons: the features that pushed hardest toward the verdict's class (the
  // window's own most probable class when it abstained).
  const auto verdict_class = model_.class_index(v.type);
  const std::size_t best = verdict_class ? *verdict_class : most_probable(probabilities(row));
  const std::vector<float> r(row.begin(), row.end());
  const auto contrib = model_.class_trees[best].contributions(r);
  std::vector<std::size_t> order(kModelFeatureCount);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return contrib[a] > contrib[b]; });
  const std::string cls(to_string(model_.classes[best]));
  char buf[200];
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t i = order[k];
    const float c = contrib[i];
    if (!(c > 0)) break;
    std::snprintf(buf, sizeof buf, "%s: pushes toward %s (weight +%.2f).",
                  std::isnan(row[i]) ? (std::string(kModelFeatureNames[i]) + " missing").c_str() : describe(i, row[i]).c_str(),
                  cls.c_str(), static_cast<double>(c));
    v.reasons.push_back(buf);
  }
}

}  // namespace wt
