#include "classify/classifier.hpp"

#include <stdexcept>

#include "classify/rule_classifier.hpp"

namespace wt {

std::vector<std::string> classifier_names() { return {"rules"}; }

std::unique_ptr<Classifier> make_classifier(std::string_view name) {
  if (name == "rules") return std::make_unique<RuleClassifier>();
  throw std::invalid_argument("unknown classifier '" + std::string(name) + "' (available: rules)");
}

}  // namespace wt
