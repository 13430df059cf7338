// JSON-RPC 2.0 messages as MCP uses them: one JSON object per line, no batches.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wt::mcp {

namespace rpc_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kUnsupportedProtocolVersion = -32022;  // MCP 2026-07-28
}  // namespace rpc_code

// An error a method handler answers with instead of a result.
class RpcError : public std::runtime_error {
 public:
  RpcError(int code, const std::string& message, nlohmann::json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const { return code_; }
  const nlohmann::json& data() const { return data_; }

 private:
  int code_;
  nlohmann::json data_;
};

struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Request;
  nlohmann::json id;  // string or integer; null for a notification
  std::string method;
  nlohmann::json params;  // object, array or null (absent)
};

// Parses one line. Throws RpcError: kParseError for text that is not JSON, kInvalidRequest for
// JSON that is not a JSON-RPC 2.0 message (its data holds the id when one could be read).
Message parse_message(std::string_view line);

nlohmann::json result_response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message,
                              const nlohmann::json& data = nullptr);

}  // namespace wt::mcp
