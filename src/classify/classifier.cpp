#include "classify/classifier.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "classify/rule_classifier.hpp"
#include "classify/trained_classifier.hpp"
#include "core/diagnostic.hpp"
#include "features/gpu_context.hpp"

namespace wt {

std::vector<std::string> classifier_names() { return {"xgboost", "rules"}; }

std::unique_ptr<Classifier> make_classifier(std::string_view name, const std::string& model_path) {
  if (name == "rules") {
    if (!model_path.empty()) throw std::invalid_argument("--model applies to the xgboost classifier only");
    return std::make_unique<RuleClassifier>();
  }
  if (name == "xgboost") {
    if (model_path.empty())
      return std::make_unique<TrainedClassifier>(ModelBundle::from_json(embedded_model_json(), "built-in model"),
                                                 gpu_context_for);
    std::ifstream in(model_path, std::ios::binary);
    if (!in) throw InputError(model_path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return std::make_unique<TrainedClassifier>(ModelBundle::from_json(text.str(), model_path), gpu_context_for);
  }
  throw std::invalid_argument("unknown classifier '" + std::string(name) + "' (available: xgboost, rules)");
}

}  // namespace wt
