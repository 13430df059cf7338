#include "mcp/schema_check.hpp"

#include <algorithm>
#include <cmath>

namespace wt::mcp {
namespace {
using nlohmann::json;

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  // JSON Schema: an integer is a number with no fractional part, so 3.0 is one.
  if (type == "integer")
    return v.is_number_integer() || (v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>());
  if (type == "number") return v.is_number();
  return false;
}

std::string known_names(const json& properties) {
  std::string names;
  for (auto it = properties.begin(); it != properties.end(); ++it) names += (names.empty() ? "" : ", ") + it.key();
  return names;
}

std::string article(const std::string& type) {
  return type == "array" || type == "object" || type == "integer" ? "an " : "a ";
}
}  // namespace

std::optional<std::string> schema_violation(const json& schema, const json& value, const std::string& path) {
  if (schema.contains("type")) {
    const json& type = schema["type"];
    if (type.is_string() && !has_type(value, type.get<std::string>()))
      return path + ": must be " + article(type.get<std::string>()) + type.get<std::string>();
    if (type.is_array() &&
        std::none_of(type.begin(), type.end(), [&](const json& t) { return has_type(value, t.get<std::string>()); }))
      return path + ": must be one of the types " + type.dump();
  }
  if (schema.contains("enum")) {
    bool found = false;
    for (const json& e : schema["enum"]) found = found || e == value;
    if (!found) return path + ": must be one of " + schema["enum"].dump();
  }
  if (value.is_number()) {
    const double x = value.get<double>();
    if (schema.contains("minimum") && x < schema["minimum"].get<double>())
      return path + ": must be at least " + schema["minimum"].dump();
    if (schema.contains("exclusiveMinimum") && x <= schema["exclusiveMinimum"].get<double>())
      return path + ": must be more than " + schema["exclusiveMinimum"].dump();
    if (schema.contains("maximum") && x > schema["maximum"].get<double>())
      return path + ": must be at most " + schema["maximum"].dump();
  }
  if (value.is_string() && schema.contains("minLength") &&
      value.get<std::string>().size() < schema["minLength"].get<std::size_t>())
    return path + ": must have at least " + schema["minLength"].dump() + " characters";
  if (value.is_array() && schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>())
    return path + ": must have at least " + schema["minItems"].dump() + " items";
  if (value.is_array() && schema.contains("maxItems") && value.size() > schema["maxItems"].get<std::size_t>())
    return path + ": must have at most " + schema["maxItems"].dump() + " items";
  if (value.is_array() && schema.contains("items"))
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto bad = schema_violation(schema["items"], value[i], path + "[" + std::to_string(i) + "]")) return bad;
  if (value.is_object()) {
    const json properties = schema.value("properties", json::object());
    for (const json& name : schema.value("required", json::array()))
      if (!value.contains(name.get<std::string>())) return path + "." + name.get<std::string>() + ": is required";
    for (const auto& [name, v] : value.items()) {
      if (properties.contains(name)) {
        if (auto bad = schema_violation(properties[name], v, path + "." + name)) return bad;
      } else if (schema.contains("additionalProperties")) {
        const json& extra = schema["additionalProperties"];  // false, or the schema every other property meets
        if (extra == false)
          return path + "." + name + ": is not a known argument (known: " + known_names(properties) + ")";
        if (extra.is_object())
          if (auto bad = schema_violation(extra, v, path + "." + name)) return bad;
      }
    }
  }
  return std::nullopt;
}

}  // namespace wt::mcp
