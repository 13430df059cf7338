// The stdio transport's framing: messages are single lines of UTF-8 JSON separated by '\n'.
#pragma once

#include <cstddef>
#include <string>

namespace wt::mcp {

// Reads lines from a file descriptor without ever holding more than `max_bytes` of one line:
// the rest of a longer line is read and dropped, and the line is reported as oversized.
class LineReader {
 public:
  enum class Status { Line, Oversized, End };
  LineReader(int fd, std::size_t max_bytes) : fd_(fd), max_bytes_(max_bytes) {}
  // Blocks until a whole line (its '\n' and a trailing '\r' removed) or the end of input. A last
  // line cut off by the end of input still counts as a line: the peer may just omit the final '\n'.
  Status next(std::string& line);

 private:
  bool fill();  // false at the end of input (or a read error)

  int fd_;
  std::size_t max_bytes_;
  std::string buffer_;
  std::size_t pos_ = 0;
  bool ended_ = false;
};

// Writes `line` and a '\n' in full. False when the peer has gone (EPIPE) or the write failed.
bool write_line(int fd, const std::string& line);

}  // namespace wt::mcp
