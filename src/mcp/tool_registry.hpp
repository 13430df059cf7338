// The tools an MCP server offers: each with its schemas and the function that runs it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace wt::mcp {

// A tool that cannot do what it was asked (no GPU, unreadable file, no audit log configured):
// the client sees a result with isError and this message, which a model can act on.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;   // {"type": "object", ...}: arguments are checked against it
  nlohmann::json output_schema;  // what structuredContent holds
  nlohmann::json annotations;    // hints: readOnlyHint, openWorldHint, ...
  // Takes the checked arguments, returns the structured result; throws ToolError (or any
  // std::exception) when it fails.
  std::function<nlohmann::json(const nlohmann::json& arguments)> run;
};

class ToolRegistry {
 public:
  void add(Tool tool);
  const std::vector<Tool>& tools() const { return tools_; }
  // The `tools` array of a tools/list result.
  nlohmann::json list_json() const;
  // A tools/call result: {content: [text], structuredContent} or {content: [text], isError: true}.
  // Throws RpcError kInvalidParams for an unknown tool or arguments that break its input schema.
  nlohmann::json call(const std::string& name, const nlohmann::json& arguments) const;

 private:
  std::vector<Tool> tools_;
};

}  // namespace wt::mcp
