// The trace files' line reader (src/source/replay/line_reader.cpp) on a pipe: lines come as they
// are written, not when a chunk fills or the writer closes.
#include "source/replay/line_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "core/diagnostic.hpp"

namespace wt {
namespace {

TEST(LineReader, ReadsAPipeAsItsLinesCome) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string first = "timestamp, index, utilization.gpu [%]\n2026/01/01 00:00:01.000, 0, 50 %\n";
  ASSERT_EQ(::write(fds[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
  // The writer goes quiet for 3 s before its next line and the end: a reader that waits for a
  // full chunk, or for the end, would take that long to give the first two lines.
  std::thread writer([fd = fds[1]] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const std::string last = "2026/01/01 00:00:02.000, 0, 60 %\n";
    EXPECT_EQ(::write(fd, last.data(), last.size()), static_cast<ssize_t>(last.size()));
    ::close(fd);
  });
  const auto start = std::chrono::steady_clock::now();
  LineReader r("/dev/fd/" + std::to_string(fds[0]));
  EXPECT_EQ(r.head(), first);
  std::string_view line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "2026/01/01 00:00:01.000, 0, 50 %");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  ASSERT_EQ(r.next(line), LineReader::Status::Line);  // waits for the writer
  EXPECT_EQ(line, "2026/01/01 00:00:02.000, 0, 60 %");
  EXPECT_EQ(r.next(line), LineReader::Status::End);
  EXPECT_EQ(r.line_number(), 3u);
  writer.join();
  ::close(fds[0]);
}

TEST(LineReader, NamesAFileItCannotOpen) {
  try {
    LineReader r("/nonexistent/trace.csv");
    FAIL() << "opened a file that does not exist";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/trace.csv: No such file or directory");
  }
}

}  // namespace
}  // namespace wt
