// Reads a text file line by line in large chunks, with line numbers and limits that keep a
// hostile file (binary, one endless line) from hurting the process. A pipe or FIFO (`--replay
// /dev/stdin` fed by `nvidia-smi -l 1` or `tail -f`) is read as its lines come, not a chunk at a
// time, and while it stays quiet `waiting` is called every fifth of a second (the caller's
// housekeeping; true ends the input there, as Ctrl-C in `watch` does).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace wt {

class LineReader {
 public:
  static constexpr std::size_t kMaxLineBytes = 64 * 1024;

  // Throws InputError when the file cannot be opened or is a directory.
  explicit LineReader(const std::string& path, std::function<bool()> waiting = {});

  enum class Status { Line, TooLong, End };
  // Next line without its "\n" or "\r\n". TooLong: the line was skipped (number still counted).
  Status next(std::string_view& line);
  std::size_t line_number() const { return line_no_; }
  // True when the last line returned had no final newline (a torn write).
  bool last_line_unterminated() const { return unterminated_; }
  // Peeks at the file's first bytes (up to 4 KiB; from a pipe, its first two lines at least)
  // without consuming them.
  std::string_view head();

 private:
  bool fill();

  struct Fd {  // owns the descriptor: closed once, never copied
    int fd = -1;
    Fd() = default;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();
  };
  Fd file_;
  bool stream_ = false;  // a pipe, FIFO or terminal: read what has come, waiting for more
  std::function<bool()> waiting_;
  std::string path_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool unterminated_ = false;
  std::size_t line_no_ = 0;
};

}  // namespace wt
