// A trained model as WorkloadTruth ships it: the XGBoost trees plus what is needed to use
// them honestly — the feature and class order, the range of every feature seen in training
// (to abstain on windows unlike anything the model knows), the calibration, and provenance.
#pragma once

#include <array>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "classify/class_belief.hpp"
#include "classify/confidence_map.hpp"
#include "classify/verdict.hpp"
#include "classify/xgboost_model.hpp"
#include "features/model_features.hpp"

namespace wt {

inline constexpr std::string_view kModelFormatName = "workloadtruth-model";
// 2: the trees of each class as a model of its own (1: one multi-class model).
inline constexpr int kModelFormatVersion = 2;

struct ModelBundle {
  // One model per class, in `classes` order, whose output is that class's margin: the
  // multi-class model's trees split by class (XgbModel::split_by_class), so that explaining a
  // verdict runs TreeSHAP on the winning class's trees alone.
  std::vector<XgbModel> class_trees;
  std::vector<WorkloadType> classes;  // class id -> type
  // Per feature, the 0.5th and 99.5th percentiles over the training windows.
  std::array<float, kModelFeatureCount> low{}, high{};
  double temperature = 1.0;   // probabilities = softmax(margin / temperature), fitted on held-out data
  ConfidenceMap confidence;   // top probability -> reported confidence, fitted on the same windows
  double abstain_below = 0.5; // a top probability below this is UNKNOWN
  std::size_t max_out_of_range = 3;  // more features outside the training range than this: UNKNOWN
  // A GPU's windows go through a ClassBelief that stays put with this probability per window;
  // 0 (model files from before 2026-12-06) classifies each window alone. The temperature is
  // fitted before it, the confidence map and abstain_below apply after it.
  double window_stay = 0;
  // ... or rather per this many seconds between windows (at least one step a window), so that
  // a GPU idle for an hour starts its next job afresh; 0 (files from before 2026-12-07): per
  // window, whatever the time between.
  double window_stay_step_s = 0;
  nlohmann::json provenance;  // data, seeds, parameters, date, metrics

  // The position of `type` in `classes`; nullopt for a class the model does not know (UNKNOWN).
  std::optional<std::size_t> class_index(WorkloadType type) const;
  // The belief a GPU's windows start from (IDLE windows pass through it).
  ClassBelief new_belief() const;
  // The features of a row (kModelFeatureCount values) that fall well outside the training
  // range; more than max_out_of_range of them and the model would be guessing.
  std::vector<std::size_t> out_of_range(const float* row) const;

  // Class probabilities (softmax of the class margins, before the temperature): n x classes
  // for n rows of kModelFeatureCount features; one prediction per class for all of them.
  std::vector<float> probabilities(const std::vector<float>& rows) const;

  std::string to_json() const;
  // Throws InputError naming `origin` when the text is not a model this build can use.
  static ModelBundle from_json(std::string_view text, const std::string& origin);
};

// The model compiled into the binary (models/workloadtruth.model.json at build time), read in
// place: no copy is made.
std::string_view embedded_model_json();

// The model in `path`, or the built-in one when `path` is empty. Throws InputError.
ModelBundle load_model_bundle(const std::string& path);

}  // namespace wt
