// The classifiers an MCP server's tool calls share. Loading and checking the trained model
// takes longer (about 70 ms) than classifying a short trace, so each is made once, at its first
// call, and kept for the server's life; an agent polling a GPU every few seconds pays it once.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "classify/classifier.hpp"

namespace wt::mcp {

class ClassifierCache {
 public:
  // The classifier of that name (make_classifier's names), made on first use. Throws as
  // make_classifier does; a failure is not kept, so a later call tries again.
  const Classifier& get(std::string_view name);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Classifier>, std::less<>> made_;
};

}  // namespace wt::mcp
