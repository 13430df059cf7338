#include "mcp/line_channel.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <thread>

namespace wt::mcp {
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

TEST(LineReader, SplitsLinesAndDropsCarriageReturns) {
  Pipe p("{\"a\":1}\n{\"b\":2}\r\n\n");
  LineReader r(p.read_fd(), 100);
  std::string line;
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
  LineReader r(p.read_fd(), 100);
  std::string line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "two");
  EXPECT_EQ(r.next(line), LineReader::Status::End);
}

TEST(LineReader, AnOversizedLineIsDroppedAndTheNextOneRead) {
  const std::string huge(300000, 'x');  // several reads' worth
  Pipe p("short\n" + huge + "\nafter\n" + huge);
  LineReader r(p.read_fd(), 1000);
  std::string line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "short");
  EXPECT_EQ(r.next(line), LineReader::Status::Oversized);
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line, "after");
  EXPECT_EQ(r.next(line), LineReader::Status::Oversized);  // cut off by the end of input
  EXPECT_EQ(r.next(line), LineReader::Status::End);
}

TEST(LineReader, ALineOfExactlyTheLimitFits) {
  Pipe p(std::string(1000, 'y') + "\n" + std::string(1001, 'z') + "\n");
  LineReader r(p.read_fd(), 1000);
  std::string line;
  ASSERT_EQ(r.next(line), LineReader::Status::Line);
  EXPECT_EQ(line.size(), 1000u);
  EXPECT_EQ(r.next(line), LineReader::Status::Oversized);
}

TEST(WriteLine, FailsInsteadOfDyingWhenThePeerHasGone) {
  std::signal(SIGPIPE, SIG_IGN);  // as `workloadtruth mcp` does
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  EXPECT_FALSE(write_line(fds[1], "{}"));
  ::close(fds[1]);
}

TEST(WriteLine, WritesTheLineAndANewline) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_TRUE(write_line(fds[1], "{\"x\":1}"));
  ::close(fds[1]);
  char buf[32] = {};
  EXPECT_EQ(::read(fds[0], buf, sizeof buf), 8);
  EXPECT_STREQ(buf, "{\"x\":1}\n");
  ::close(fds[0]);
}

}  // namespace
}  // namespace wt::mcp
