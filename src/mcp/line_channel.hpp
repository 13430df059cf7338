// The stdio transport's framing: messages are single lines of UTF-8 JSON separated by '\n'
// (read with core/line_reader.hpp).
#pragma once

#include <string>

namespace wt::mcp {

// Writes `line` and a '\n' in full. False when the peer has gone (EPIPE) or the write failed.
bool write_line(int fd, const std::string& line);

}  // namespace wt::mcp
