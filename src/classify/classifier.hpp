// The one interface every classifier implements. Classifiers see features, never sources.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classify/verdict.hpp"

namespace wt {

// What a classifier sees of one window: the readings and which GPU made them (the model
// name tells a trained classifier the GPU's power limit when telemetry lacks it).
struct WindowInput {
  std::span<const Reading> readings;
  const GpuIdentity& gpu;
};

class Classifier {
 public:
  virtual ~Classifier() = default;
  virtual std::string_view name() const = 0;
  virtual Verdict classify(const WindowInput& window) const = 0;
  // classify() of each window, in order; a trained model predicts them together, which costs
  // far less than one at a time.
  virtual std::vector<Verdict> classify_all(std::span<const WindowInput> windows) const;
  // Adds the reasons that are costly to give (a trained model's per-feature contributions) to
  // a verdict classify() made of the same window. Callers explain the windows they show.
  virtual void explain(const WindowInput& /*window*/, Verdict& /*verdict*/) const {}
};

// Names accepted by --classifier; the first is the default.
std::vector<std::string> classifier_names();
// Throws std::invalid_argument for an unknown name, InputError for an unusable model file.
// `model_path` (xgboost only): a model file instead of the one built into the binary.
std::unique_ptr<Classifier> make_classifier(std::string_view name, const std::string& model_path = "");

}  // namespace wt
