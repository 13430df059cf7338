#include "core/json_parse.hpp"

#include <gtest/gtest.h>

#include <string>

namespace wt {
namespace {

TEST(JsonParse, ReadsDocumentsAndSaysWhyNot) {
  EXPECT_EQ(parse_json(R"({"a":[1,2,{"b":null}]})"), nlohmann::json::parse(R"({"a":[1,2,{"b":null}]})"));
  std::string why;
  EXPECT_TRUE(parse_json("{not json", &why).is_discarded());
  EXPECT_NE(why.find("parse error"), std::string::npos) << why;
  EXPECT_TRUE(parse_json("").is_discarded());
}

// Copying, comparing or printing a value recurses once per level: a document nesting deeper
// than the bound is refused at parsing, wherever the depth is.
TEST(JsonParse, RefusesDeepNesting) {
  std::string why;
  EXPECT_TRUE(parse_json(std::string(200000, '[') + std::string(200000, ']'), &why).is_discarded());
  EXPECT_EQ(why, "nests deeper than 64 levels");
  const std::string sixty_four = std::string(64, '[') + std::string(64, ']');
  EXPECT_FALSE(parse_json(sixty_four).is_discarded());
  EXPECT_TRUE(parse_json("{\"a\":" + std::string(65, '[') + std::string(65, ']') + "}").is_discarded());
  EXPECT_TRUE(parse_json(std::string(9, '[') + std::string(9, ']'), nullptr, {8}).is_discarded());
}

// UBJSON lets an array of nulls claim any count without spending a byte on each.
TEST(JsonParse, RefusesMoreValuesThanTheBound) {
  static constexpr char kNulls[] = "[$Z#l\x7f\xff\xff\xff";
  const std::string nulls(kNulls, sizeof kNulls - 1);
  std::string why;
  EXPECT_TRUE(parse_json(nulls, &why, {64, nulls.size(), true}).is_discarded());
  EXPECT_EQ(why, "more than 9 values");
  EXPECT_EQ(parse_json(std::string("[$Z#i\x03", 6), nullptr, {64, 6, true}), nlohmann::json::array({nullptr, nullptr, nullptr}));
}

}  // namespace
}  // namespace wt
