// Checks tool arguments against the tools' own input schemas: the JSON Schema subset they use
// (type, properties, required, additionalProperties: false, enum, minimum, maximum, minLength,
// items, minItems, maxItems).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace wt::mcp {

// The first way `value` breaks `schema`, as "arguments.samples: must be an integer"; nullopt when it fits.
std::optional<std::string> schema_violation(const nlohmann::json& schema, const nlohmann::json& value,
                                            const std::string& path = "arguments");

}  // namespace wt::mcp
