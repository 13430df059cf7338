// libFuzzer target: arbitrary bytes as the lines an MCP client sends, through JSON-RPC parsing,
// the protocol (handshake, versions, methods) and each real tool's input-schema check. The tools
// themselves are stubbed: what they run (a trace, a benchmark) has fuzzers and tests of its own,
// and would make each input take seconds. An agent's input is untrusted: any crash, exception out
// of handle_line or sanitizer report is a bug.
#include <cstdint>
#include <memory>
#include <string_view>

#include "mcp/protocol.hpp"
#include "mcp/tools.hpp"

namespace {

const wt::mcp::ToolRegistry& stubbed_tools() {
  static const wt::mcp::ToolRegistry registry = [] {
    const wt::mcp::ToolRegistry real = wt::mcp::make_tools(std::make_shared<wt::mcp::ToolConfig>());
    wt::mcp::ToolRegistry out;
    for (wt::mcp::Tool tool : real.tools()) {
      tool.run = [](const nlohmann::json&) { return nlohmann::json::object(); };
      out.add(std::move(tool));
    }
    return out;
  }();
  return registry;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  wt::mcp::Session session(stubbed_tools());
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    (void)session.handle_line(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  return 0;
}
