// MCP's methods over JSON-RPC, for both eras of the protocol: the initialize handshake of the
// 2025 revisions, and the stateless 2026-07-28 revision where every request names its version
// in params._meta and results carry resultType.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json_rpc.hpp"
#include "mcp/tool_registry.hpp"

namespace wt::mcp {

inline constexpr std::string_view kModernVersion = "2026-07-28";
inline constexpr std::string_view kLatestLegacyVersion = "2025-11-25";
inline constexpr std::string_view kVersionMetaKey = "io.modelcontextprotocol/protocolVersion";

// Newest first: 2026-07-28, 2025-11-25, 2025-06-18.
const std::vector<std::string>& supported_versions();

class Session {
 public:
  explicit Session(const ToolRegistry& tools) : tools_(tools) {}
  // The response to one line of input; null when none is due (a notification, a client's response).
  nlohmann::json handle_line(std::string_view line);
  nlohmann::json handle(const Message& m);
  // The version the initialize handshake settled on; "" before it.
  const std::string& negotiated_version() const { return negotiated_; }

 private:
  nlohmann::json dispatch(const Message& m);
  nlohmann::json initialize(const nlohmann::json& params);
  nlohmann::json call_tool(const nlohmann::json& params) const;

  const ToolRegistry& tools_;
  std::string negotiated_;
};

}  // namespace wt::mcp
