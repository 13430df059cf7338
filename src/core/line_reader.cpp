#include "core/line_reader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/diagnostic.hpp"

namespace wt {
namespace {
constexpr std::size_t kChunk = 1 << 20;
}

LineReader::LineReader(const std::string& path, WaitingHook waiting, std::size_t max_line_bytes)
    : name_(path), waiting_(std::move(waiting)), max_line_(max_line_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory, not a trace file");
  // With a hook, a FIFO no writer has opened yet is waited for in poll(), where a stop is heeded,
  // not in open(2), which would block until one comes.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (waiting_ && !S_ISREG(st.st_mode) ? O_NONBLOCK : 0));
  if (fd < 0) throw InputError(path + ": " + std::strerror(errno));
  start(fd, true);
}

LineReader::LineReader(int fd, std::string name, std::size_t max_line_bytes)
    : name_(std::move(name)), max_line_(max_line_bytes) {
  start(fd, false);
}

void LineReader::start(int fd, bool owned) {
  file_.fd = fd;
  file_.owned = owned;
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(name_ + ": " + std::strerror(errno));
  stream_ = !S_ISREG(st.st_mode);
  // Never filled up front: only the pages a long line reaches are touched.
  size_ = kChunk + max_line_ + 1;
  buf_ = std::make_unique_for_overwrite<char[]>(size_);
}

LineReader::Fd::~Fd() {
  if (owned && fd >= 0) ::close(fd);
}

// Moves the unread tail to the front and reads what there is (a pipe gives what has been
// written so far); false when nothing more can come, or `waiting` ended a quiet stream. Without
// a hook, a quiet stream is simply waited for in read(2).
bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  const std::size_t room = size_ - end_;
  if (room == 0) return false;
  while (stream_ && waiting_) {
    pollfd p{file_.fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(kWaitingSlice.count()));
    if (ready > 0) break;
    if (ready < 0 && errno != EINTR) throw InputError(name_ + ": " + std::strerror(errno));
    if (waiting_()) {
      eof_ = true;
      return false;
    }
  }
  ssize_t got;
  do {
    got = ::read(file_.fd, buf_.get() + end_, room);
    if (got < 0 && errno == EAGAIN) return fill();  // opened O_NONBLOCK: back to waiting in poll()
  } while (got < 0 && errno == EINTR);
  if (got < 0) throw InputError(name_ + ": read error: " + std::strerror(errno));
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(got);
  return true;
}

std::string_view LineReader::head() {
  auto lines = [this] {
    int n = 0;
    std::string_view rest(buf_.get() + begin_, end_ - begin_);
    for (auto eol = rest.find('\n'); eol != std::string_view::npos; eol = rest.find('\n')) {
      const auto first = rest.find_first_not_of(" \t\r");
      n += first < eol && rest[first] != '=';
      rest.remove_prefix(eol + 1);
    }
    return n;
  };
  while (end_ - begin_ < 4096 && lines() < 2 && fill()) {
  }
  return {buf_.get() + begin_, std::min<std::size_t>(end_ - begin_, 4096)};
}

LineReader::Status LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buf_.get() + begin_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (nl != nullptr) {
      const auto len = static_cast<std::size_t>(nl - start);
      begin_ += len + 1;
      ++line_no_;
      unterminated_ = false;
      if (len > max_line_) return Status::TooLong;
      line = {start, len};
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      return Status::Line;
    }
    if (end_ - begin_ > max_line_) {
      // An endless line: drop what we have and keep skipping until its newline.
      ++line_no_;
      for (;;) {
        begin_ = end_;
        if (!fill()) return Status::TooLong;
        const auto* end_nl = static_cast<const char*>(std::memchr(buf_.get(), '\n', end_));
        if (end_nl != nullptr) {
          begin_ = static_cast<std::size_t>(end_nl - buf_.get()) + 1;
          return Status::TooLong;
        }
      }
    }
    if (!fill()) {
      if (begin_ == end_) return Status::End;
      // Last line without a newline.
      line = {buf_.get() + begin_, end_ - begin_};
      begin_ = end_;
      ++line_no_;
      unterminated_ = true;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      return Status::Line;
    }
  }
}

}  // namespace wt
