// Reads text line by line in large chunks, with line numbers and a longest line, so that hostile
// input (binary, one endless line) cannot hurt the process: trace files, and the MCP server's
// messages on stdin. A pipe, FIFO or terminal is read as its lines come, not a chunk at a time
// (`--replay /dev/stdin` fed by `nvidia-smi -l 1` or `tail -f`); while it stays quiet, the
// `waiting` hook, if given, is called (waiting_hook.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/waiting_hook.hpp"

namespace wt {

class LineReader {
 public:
  static constexpr std::size_t kMaxTraceLineBytes = 64 * 1024;

  // Opens `path`. Throws InputError when it cannot be opened or is a directory.
  explicit LineReader(const std::string& path, WaitingHook waiting = {},
                      std::size_t max_line_bytes = kMaxTraceLineBytes);
  // Reads `fd`, which stays open; `name` names it in errors.
  LineReader(int fd, std::string name, std::size_t max_line_bytes);

  enum class Status { Line, TooLong, End };
  // Next line without its "\n" or "\r\n", valid until the next call. A last line cut off by the
  // end of input still counts. TooLong: a line over the longest was skipped (number still counted).
  // Throws InputError on a read error.
  Status next(std::string_view& line);
  std::size_t line_number() const { return line_no_; }
  std::size_t max_line_bytes() const { return max_line_; }
  // True when the last line returned had no final newline (a torn write).
  bool last_line_unterminated() const { return unterminated_; }
  // Peeks at the input's first bytes (up to 4 KiB; from a pipe, at least its first two lines
  // that are neither blank nor banners starting with '=', as rocm-smi opens a run with) without
  // consuming them.
  std::string_view head();

 private:
  void start(int fd, bool owned);
  bool fill();

  struct Fd {  // closes an owned descriptor once; never copied
    int fd = -1;
    bool owned = false;
    Fd() = default;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();
  };
  std::string name_;
  WaitingHook waiting_;
  std::size_t max_line_;
  Fd file_;
  bool stream_ = false;  // a pipe, FIFO or terminal: read what has come, waiting for more
  std::unique_ptr<char[]> buf_;
  std::size_t size_ = 0;  // of buf_: a chunk and the longest line
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool unterminated_ = false;
  std::size_t line_no_ = 0;
};

}  // namespace wt
