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
  // `explain`: compute per-feature contributions for the reasons (costly; bulk evaluation
  // turns it off).
  TrainedClassifier(ModelBundle model, GpuContextFn context, bool explain = true);
  std::string_view name() const override { return "xgboost"; }
  Verdict classify(const WindowInput& window) const override;

  // Calibrated class probabilities of a feature row, in model class order.
  std::vector<double> probabilities(const ModelFeatures& row) const;
  const ModelBundle& model() const { return model_; }

 private:
  ModelBundle model_;
  GpuContextFn context_;
  bool explain_;
};

// Softmax of log(p) / temperature: temperature scaling applied to probabilities.
std::vector<double> temper(const float* probs, std::size_t n, double temperature);

}  // namespace wt
