// Reads a text file line by line in large chunks, with line numbers and limits that keep a
// hostile file (binary, one endless line) from hurting the process.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wt {

class LineReader {
 public:
  static constexpr std::size_t kMaxLineBytes = 64 * 1024;

  // Throws InputError when the file cannot be opened or is a directory.
  explicit LineReader(const std::string& path);

  enum class Status { Line, TooLong, End };
  // Next line without its "\n" or "\r\n". TooLong: the line was skipped (number still counted).
  Status next(std::string_view& line);
  std::size_t line_number() const { return line_no_; }
  // True when the last line returned had no final newline (a torn write).
  bool last_line_unterminated() const { return unterminated_; }
  // Peeks at the file's first bytes (up to 4 KiB) without consuming them.
  std::string_view head();

 private:
  bool fill();

  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
  std::string path_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool unterminated_ = false;
  std::size_t line_no_ = 0;
};

}  // namespace wt
