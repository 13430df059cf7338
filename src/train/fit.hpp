// Fits a ModelBundle: trees on the training rows, then the feature ranges (for abstaining)
// and the temperature and confidence map (for calibrated probabilities and confidences) on rows
// the trees never saw.
#pragma once

#include <vector>

#include "classify/model_bundle.hpp"
#include "train/dataset.hpp"

namespace wt {

// The classes the trained classifier tells apart, in model order. UNKNOWN is not a class:
// it is what the classifier answers when it abstains.
const std::vector<WorkloadType>& model_classes();

// Rows as XGBoost wants them: row-major features and class ids (classes not in
// model_classes() are dropped), and each kept row's weight where `weights` is given.
void to_matrix(const std::vector<LabelledWindow>& rows, std::vector<float>& x, std::vector<float>& y,
               std::vector<float>* weights = nullptr);

ModelBundle fit_model(const std::vector<LabelledWindow>& train, const std::vector<LabelledWindow>& calibration,
                      const XgbParams& params);

// Temperature minimising the negative log-likelihood of the calibration rows.
double fit_temperature(const ModelBundle& model, const std::vector<LabelledWindow>& calibration);

// Per row, the class probabilities a verdict is taken from: the model's, tempered, then weighed
// along each GPU's windows (rows of one `sequence`, in order) by the model's ClassBelief, as
// TrainedClassifier does. Rows whose label is not a model class get an empty vector.
std::vector<std::vector<double>> verdict_probabilities(const ModelBundle& model, const std::vector<LabelledWindow>& rows);

// The share of calibration rows whose most probable class (verdict_probabilities) is right, as
// a monotone function of that class's probability.
ConfidenceMap fit_confidence_map(const ModelBundle& model, const std::vector<LabelledWindow>& calibration);

// What the belief filter stays put with per window in the models `train` fits (the probability
// that a GPU's job keeps its class from one window to the next).
inline constexpr double kWindowStay = 0.95;
// ... per this many seconds: the stride of `train`'s windows, at which kWindowStay was chosen.
inline constexpr double kWindowStayStepS = 15;

}  // namespace wt
