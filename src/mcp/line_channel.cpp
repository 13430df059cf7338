#include "mcp/line_channel.hpp"

#include <unistd.h>

#include <cerrno>

namespace wt::mcp {
namespace {
constexpr std::size_t kChunk = 64 * 1024;
}

bool LineReader::fill() {
  if (ended_) return false;
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data() + old, kChunk);
  } while (n < 0 && errno == EINTR);
  buffer_.resize(old + (n > 0 ? static_cast<std::size_t>(n) : 0));
  if (n <= 0) ended_ = true;
  return n > 0;
}

LineReader::Status LineReader::next(std::string& line) {
  bool oversized = false;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', pos_);
    if (nl != std::string::npos) {
      const std::size_t start = pos_;
      pos_ = nl + 1;
      if (oversized || nl - start > max_bytes_) return Status::Oversized;
      std::size_t end = nl;
      if (end > start && buffer_[end - 1] == '\r') --end;
      line.assign(buffer_, start, end - start);
      return Status::Line;
    }
    if (buffer_.size() - pos_ > max_bytes_) {  // drop what we have of a line that is already too long
      oversized = true;
      buffer_.clear();
      pos_ = 0;
    }
    if (!fill()) {
      if (oversized) return Status::Oversized;
      if (pos_ == buffer_.size()) return Status::End;
      line.assign(buffer_, pos_, std::string::npos);
      pos_ = buffer_.size();
      return Status::Line;
    }
  }
}

bool write_line(int fd, const std::string& line) {
  const std::string out = line + '\n';
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::write(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace wt::mcp
