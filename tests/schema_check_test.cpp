#include "mcp/schema_check.hpp"

#include <gtest/gtest.h>

namespace wt::mcp {
namespace {
using nlohmann::json;

const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1},
    "samples": {"type": "integer", "minimum": 1, "maximum": 10},
    "rate": {"type": "number", "exclusiveMinimum": 0},
    "mode": {"type": "string", "enum": ["a", "b"]},
    "flag": {"type": "boolean"},
    "columns": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}
  },
  "required": ["path"],
  "additionalProperties": false
})");

std::string violation(const std::string& args) { return schema_violation(kSchema, json::parse(args)).value_or(""); }

TEST(SchemaCheck, AcceptsWhatFits) {
  EXPECT_EQ(violation(R"({"path":"x"})"), "");
  EXPECT_EQ(violation(R"({"path":"x","samples":10,"rate":0.5,"mode":"b","flag":true,"columns":["a"]})"), "");
  EXPECT_EQ(violation(R"({"path":"x","samples":3.0,"rate":2})"), "");  // 3.0 is an integer, 2 a number
}

TEST(SchemaCheck, NamesTheFirstArgumentThatBreaksIt) {
  EXPECT_EQ(violation(R"({})"), "arguments.path: is required");
  EXPECT_EQ(violation(R"({"path":7})"), "arguments.path: must be a string");
  EXPECT_EQ(violation(R"({"path":""})"), "arguments.path: must have at least 1 characters");
  EXPECT_EQ(violation(R"({"path":"x","samples":"3"})"), "arguments.samples: must be an integer");
  EXPECT_EQ(violation(R"({"path":"x","samples":2.5})"), "arguments.samples: must be an integer");
  EXPECT_EQ(violation(R"({"path":"x","samples":0})"), "arguments.samples: must be at least 1");
  EXPECT_EQ(violation(R"({"path":"x","samples":11})"), "arguments.samples: must be at most 10");
  EXPECT_EQ(violation(R"({"path":"x","rate":null})"), "arguments.rate: must be a number");
  EXPECT_EQ(violation(R"({"path":"x","columns":[]})"), "arguments.columns: must have at least 1 items");
  EXPECT_EQ(violation(R"({"path":"x","columns":["a","b","c"]})"), "arguments.columns: must have at most 2 items");
  EXPECT_EQ(violation(R"({"path":"x","rate":0})"), "arguments.rate: must be more than 0");
  EXPECT_EQ(violation(R"({"path":"x","flag":"true"})"), "arguments.flag: must be a boolean");
  EXPECT_EQ(violation(R"({"path":"x","mode":"c"})"), R"(arguments.mode: must be one of ["a","b"])");
  EXPECT_EQ(violation(R"({"path":"x","columns":["a",1]})"), "arguments.columns[1]: must be a string");
  EXPECT_EQ(violation(R"({"path":"x","colums":[]})"),
            "arguments.colums: is not a known argument (known: columns, flag, mode, path, rate, samples)");
  EXPECT_EQ(violation(R"([])"), "arguments: must be an object");
}

TEST(SchemaCheckExtra, OtherPropertiesMeetTheAdditionalPropertiesSchema) {
  const json schema = json::parse(R"({"type":"object","additionalProperties":{"type":["number","null"]}})");
  EXPECT_FALSE(schema_violation(schema, json::parse(R"({"a":1.5,"b":null})")).has_value());
  EXPECT_EQ(schema_violation(schema, json::parse(R"({"a":"x"})")).value_or(""),
            R"(arguments.a: must be one of the types ["number","null"])");
}

}  // namespace
}  // namespace wt::mcp
