#include "mcp/line_channel.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>

namespace wt::mcp {
namespace {

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
