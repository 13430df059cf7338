// The trained classifier (`--classifier xgboost`): model features -> XGBoost -> calibrated
// probabilities, with reasons taken from the model's own per-feature contributions, and
// UNKNOWN when the window is unlike the training data or no class is probable enough.
#pragma once

#include <functional>

#include "classify/classifier.hpp"
#include "classify/model_bundle.hpp"

namespace wt {

using GpuContextFn = std::function<GpuContext(const GpuIdentity&)>;

class TrainedClassifier final : public Classifier {
 public:
  TrainedClassifier(ModelBundle model, GpuContextFn context);
  std::string_view name() const override { return "xgboost"; }
  Verdict classify(const WindowInput& window) const override;
  std::vector<Verdict> classify_all(std::span<const WindowInput> windows) const override;
  // The features that pushed hardest toward the verdict's class (TreeSHAP), in words.
  void explain(const WindowInput& window, Verdict& verdict) const override;
  // Null when the model classifies each window alone (window_stay 0).
  std::unique_ptr<WindowHistory> new_history() const override;

  // A feature row's own class probabilities (tempered), in model class order: the window alone.
  std::vector<double> probabilities(const ModelFeatures& row) const;
  const ModelBundle& model() const { return model_; }

 private:
  ModelFeatures features_of(const WindowInput& window) const;
  // The verdict on a window, given its feature row and its own probabilities (tempered), which
  // the window's history weighs with the windows before it.
  Verdict decide(const WindowInput& window, const ModelFeatures& row, const std::vector<double>& own) const;

  ModelBundle model_;
  GpuContextFn context_;
};

// Softmax of log(p) / temperature: temperature scaling applied to probabilities.
std::vector<double> temper(const float* probs, std::size_t n, double temperature);

}  // namespace wt
