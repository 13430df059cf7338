#include "mcp/classifier_cache.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace wt::mcp {
namespace {

TEST(ClassifierCache, MakesEachClassifierOnceAndKeepsIt) {
  ClassifierCache cache;
  const Classifier& trained = cache.get("xgboost");
  const Classifier& rules = cache.get("rules");
  EXPECT_EQ(trained.name(), "xgboost");
  EXPECT_EQ(rules.name(), "rules");
  EXPECT_EQ(&cache.get("xgboost"), &trained);
  EXPECT_EQ(&cache.get("rules"), &rules);
}

TEST(ClassifierCache, AnUnknownNameThrowsEveryTimeAndIsNotKept) {
  ClassifierCache cache;
  EXPECT_THROW(cache.get("oracle"), std::invalid_argument);
  EXPECT_THROW(cache.get("oracle"), std::invalid_argument);
  EXPECT_EQ(cache.get("rules").name(), "rules");
}

}  // namespace
}  // namespace wt::mcp
