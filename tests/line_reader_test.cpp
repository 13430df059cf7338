// The line reader (src/core/line_reader.cpp) of trace files and of the MCP server's stdin, on
// pipes: lines come as they are written, not when a chunk fills or the writer closes.
#include "core/line_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "core/diagnostic.hpp"

namespace wt {
namespace {

// A pipe whose write end is fed `input` from a thread and then closed.
class Pipe {
 public:
  explicit Pipe(std::string input) {
    EXPECT_EQ(::pipe(fds_), 0);
    writer_ = std::thread([this, in = std::move(input)] {
      write_line_raw(in);
      ::close(fds_[1]);
    });
  }
  ~Pipe() {
    writer_.join();
    ::close(fds_[0]);
  }
  int read_fd() const { return fds_[0]; }

 private:
  void write_line_raw(const std::string& s) {
    std::size_t done = 0;
    while (done < s.size()) {
      const ssize_t n = ::write(fds_[1], s.data() + done, s.size() - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }
  int fds_[2]{-1, -1};
  std::thread writer_;
};

// Messages on the MCP server's stdin: a descriptor it does not own, lines up to a given length.
TEST(LineReader, SplitsLinesAndDropsCarriageReturns) {
  Pipe p("{\"a\":1}\n{\"b\":2}\r\n\n");
  LineReader r(p.read_fd(), "stdin", 100);
  std::string_view line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "{\"a\":1}");
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "{\"b\":2}");
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "");
  EXPECT_EQ(r.next(line), LineReader::Status::End);
  EXPECT_EQ(r.next(line), LineReader::Status::End);
}

TEST(LineReader, ALastLineWithoutNewlineStillCounts) {
  Pipe p("one\ntwo");
  LineReader r(p.read_fd(), "stdin", 100);
  std::string_view line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "two");
  EXPECT_EQ(r.next(line), LineReader::Status::End);
}

TEST(LineReader, AnOversizedLineIsDroppedAndTheNextOneRead) {
  const std::string huge(300000, 'x');  // several reads' worth
  Pipe p("short\n" + huge + "\nafter\n" + huge);
  LineReader r(p.read_fd(), "stdin", 1000);
  std::string_view line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "short");
  EXPECT_EQ(r.next(line), LineReader::Status::TooLong);
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "after");
  EXPECT_EQ(r.next(line), LineReader::Status::TooLong);  // cut off by the end of input
  EXPECT_EQ(r.next(line), LineReader::Status::End);
}

TEST(LineReader, ALineOfExactlyTheLimitFits) {
  Pipe p(std::string(1000, 'y') + "\n" + std::string(1001, 'z') + "\n");
  LineReader r(p.read_fd(), "stdin", 1000);
  std::string_view line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line.size(), 1000u);
  EXPECT_EQ(r.next(line), LineReader::Status::TooLong);
}


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

TEST(LineReader, APipesHeadReachesPastBlankAndBannerLines) {
  // rocm-smi opens a run with blank lines and '=' banners; its format shows only in the GPU lines.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string start = "\n\n===== ROCm System Management Interface =====\n===== Power =====\nGPU[0]\t\t: a: 1\n";
  ASSERT_EQ(::write(fds[1], start.data(), start.size()), static_cast<ssize_t>(start.size()));
  std::thread writer([fd = fds[1]] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const std::string more = "GPU[1]\t\t: a: 2\n";
    EXPECT_EQ(::write(fd, more.data(), more.size()), static_cast<ssize_t>(more.size()));
    ::close(fd);
  });
  LineReader r("/dev/fd/" + std::to_string(fds[0]));
  EXPECT_NE(r.head().find("GPU[1]"), std::string_view::npos);  // waited for a second line of content
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
