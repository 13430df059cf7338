// The one interface every classifier implements. Classifiers see features, never sources.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classify/verdict.hpp"

namespace wt {

// What a classifier carries from one window of a GPU to the next (the trained one: its belief
// over the classes). Callers keep one per GPU, from Classifier::new_history, and hand it over
// with each of that GPU's windows in time order; they never look inside.
class WindowHistory {
 public:
  virtual ~WindowHistory() = default;
};

// What a classifier sees of one window: the readings and which GPU made them (the model
// name tells a trained classifier the GPU's power limit when telemetry lacks it), and that
// GPU's history, or null to classify the window alone.
struct WindowInput {
  std::span<const Reading> readings;
  const GpuIdentity& gpu;
  WindowHistory* history = nullptr;
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
  // A fresh history for one GPU's windows; null for a classifier that judges each window alone.
  virtual std::unique_ptr<WindowHistory> new_history() const { return nullptr; }
};

// Names accepted by --classifier; the first is the default.
std::vector<std::string> classifier_names();
// Throws std::invalid_argument for an unknown name, InputError for an unusable model file.
// `model_path` (xgboost only): a model file instead of the one built into the binary.
std::unique_ptr<Classifier> make_classifier(std::string_view name, const std::string& model_path = "");

}  // namespace wt
