#include "mcp/server.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/line_reader.hpp"
#include "mcp/line_channel.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

void log_line(std::ostream& log, bool as_json, const std::string& level, const std::string& message) {
  if (as_json)
    log << json{{"level", level}, {"message", message}}.dump() << '\n';
  else
    log << "workloadtruth mcp: " << (level == "info" ? "" : level + ": ") << message << '\n';
  log.flush();
}

// Dumps invalid UTF-8 (from a file name, say) as U+FFFD instead of throwing.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
}  // namespace

void serve(int in_fd, int out_fd, Session& session, const ServeOptions& options, std::ostream& log) {
  log_line(log, options.json_log, "info", "serving MCP on stdio");
  LineReader reader(in_fd, "stdin", options.max_message_bytes);
  std::string_view line;
  std::size_t requests = 0;
  for (;;) {
    const LineReader::Status status = reader.next(line);
    if (status == LineReader::Status::End) break;
    json reply;
    if (status == LineReader::Status::TooLong) {
      const std::string why =
          "Invalid Request: message longer than " + std::to_string(options.max_message_bytes) + " bytes, dropped";
      log_line(log, options.json_log, "warning", why);
      reply = error_response(nullptr, rpc_code::kInvalidRequest, why);
    } else {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank line: nothing was sent
      reply = session.handle_line(line);
      ++requests;
    }
    if (reply.is_null()) continue;
    if (reply.contains("error") && reply["error"]["code"] != rpc_code::kUnsupportedProtocolVersion)
      log_line(log, options.json_log, "warning",
               "answered with error: " + reply["error"]["message"].get<std::string>());
    if (!write_line(out_fd, dump(reply))) {
      log_line(log, options.json_log, "info", "the client stopped reading; stopping");
      return;
    }
  }
  log_line(log, options.json_log, "info", "end of input after " + std::to_string(requests) + " messages; stopping");
}

}  // namespace wt::mcp
