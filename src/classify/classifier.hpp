// The one interface every classifier implements. Classifiers see features, never sources.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "classify/verdict.hpp"

namespace wt {

class Classifier {
 public:
  virtual ~Classifier() = default;
  virtual std::string_view name() const = 0;
  virtual Verdict classify(const WindowFeatures& features) const = 0;
};

// Names accepted by --classifier.
std::vector<std::string> classifier_names();
// Throws std::invalid_argument for an unknown name.
std::unique_ptr<Classifier> make_classifier(std::string_view name);

}  // namespace wt
