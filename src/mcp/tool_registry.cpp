#include "mcp/tool_registry.hpp"

#include <new>

#include "core/diagnostic.hpp"
#include "mcp/json_rpc.hpp"
#include "mcp/schema_check.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json error_result(const std::string& message) {
  return {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}
}  // namespace

void ToolRegistry::add(Tool tool) { tools_.push_back(std::move(tool)); }

json ToolRegistry::list_json() const {
  json list = json::array();
  for (const Tool& t : tools_)
    list.push_back({{"name", t.name},
                    {"title", t.title},
                    {"description", t.description},
                    {"inputSchema", t.input_schema},
                    {"outputSchema", t.output_schema},
                    {"annotations", t.annotations}});
  return list;
}

json ToolRegistry::call(const std::string& name, const json& arguments) const {
  const Tool* tool = nullptr;
  for (const Tool& t : tools_)
    if (t.name == name) tool = &t;
  if (!tool) throw RpcError(rpc_code::kInvalidParams, "Unknown tool: " + name);
  if (auto bad = schema_violation(tool->input_schema, arguments))
    throw RpcError(rpc_code::kInvalidParams, "Invalid arguments for tool " + name + ": " + *bad);
  // Whatever goes wrong inside a tool is the tool's failure, reported to the model, never a crash.
  try {
    json structured = tool->run(arguments);
    const std::string text =
        structured.dump(-1, ' ', false, json::error_handler_t::replace);  // a path may not be UTF-8
    return {{"content", json::array({{{"type", "text"}, {"text", text}}})},
            {"structuredContent", std::move(structured)}};
  } catch (const ToolError& e) {
    return error_result(e.what());
  } catch (const InputError& e) {
    return error_result(e.what());
  } catch (const NoTelemetryError& e) {
    return error_result(std::string("no telemetry: ") + e.what());
  } catch (const std::invalid_argument& e) {
    return error_result(e.what());
  } catch (const std::bad_alloc&) {
    return error_result("out of memory");
  } catch (const std::exception& e) {
    return error_result(std::string("internal error: ") + e.what());
  }
}

}  // namespace wt::mcp
