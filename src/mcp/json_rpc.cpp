#include "mcp/json_rpc.hpp"

#include "core/json_parse.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

[[noreturn]] void invalid(const std::string& why, const json& id = nullptr) {
  throw RpcError(rpc_code::kInvalidRequest, "Invalid Request: " + why, json{{"id", id}});
}
}  // namespace

Message parse_message(std::string_view line) {
  std::string why;
  json j = parse_json(line, &why);
  if (j.is_discarded()) throw RpcError(rpc_code::kParseError, "Parse error: the message is not valid JSON (" + why + ")");
  if (j.is_array()) invalid("batches are not supported, send one message per line");
  if (!j.is_object()) invalid("a message must be a JSON object");
  const json id = j.contains("id") && valid_id(j["id"]) ? j["id"] : json(nullptr);
  if (j.value("jsonrpc", json()) != "2.0") invalid("\"jsonrpc\" must be \"2.0\"", id);
  if (j.contains("id") && !valid_id(j["id"])) invalid("\"id\" must be a string or an integer", id);

  Message m;
  m.id = id;
  if (!j.contains("method")) {
    if (j.contains("id") && (j.contains("result") || j.contains("error"))) {
      m.kind = Message::Kind::Response;
      return m;
    }
    invalid("\"method\" is missing", id);
  }
  if (!j["method"].is_string()) invalid("\"method\" must be a string", id);
  m.method = j["method"].get<std::string>();
  m.kind = j.contains("id") ? Message::Kind::Request : Message::Kind::Notification;
  if (j.contains("params")) {
    if (!j["params"].is_object() && !j["params"].is_array()) invalid("\"params\" must be an object or an array", id);
    m.params = std::move(j["params"]);
  }
  return m;
}

json result_response(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json error_response(const json& id, int code, const std::string& message, const json& data) {
  json error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

}  // namespace wt::mcp
