#include "classify/classifier.hpp"

#include <stdexcept>

#include "classify/rule_classifier.hpp"
#include "classify/trained_classifier.hpp"
#include "features/gpu_context.hpp"

namespace wt {

std::vector<Verdict> Classifier::classify_all(std::span<const WindowInput> windows) const {
  std::vector<Verdict> out;
  out.reserve(windows.size());
  for (const WindowInput& w : windows) out.push_back(classify(w));
  return out;
}

std::vector<std::string> classifier_names() { return {"xgboost", "rules"}; }

std::unique_ptr<Classifier> make_classifier(std::string_view name, const std::string& model_path) {
  if (name == "rules") {
    if (!model_path.empty()) throw std::invalid_argument("--model applies to the xgboost classifier only");
    return std::make_unique<RuleClassifier>();
  }
  if (name == "xgboost") return std::make_unique<TrainedClassifier>(load_model_bundle(model_path), gpu_context_for);
  throw std::invalid_argument("unknown classifier '" + std::string(name) + "' (available: xgboost, rules)");
}

}  // namespace wt
