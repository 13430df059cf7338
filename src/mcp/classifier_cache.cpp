#include "mcp/classifier_cache.hpp"

namespace wt::mcp {

const Classifier& ClassifierCache::get(std::string_view name) {
  const std::lock_guard lock(mutex_);
  auto it = made_.find(name);
  if (it == made_.end()) it = made_.emplace(std::string(name), make_classifier(name)).first;
  return *it->second;
}

}  // namespace wt::mcp
