#include "watch/alert_command.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.hpp"

namespace wt::watch {

TEST(AlertCommand, EventOnStdinWithoutAShell) {
  const std::string out = test::write_temp("alert_out.txt", "");
  const std::string script = test::write_temp("alert.sh", "#!/bin/sh\ncat > \"$1\"\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  AlertCommand cmd(script + " " + out, 5);
  // Shell syntax in the event stays data: nothing here is ever interpreted.
  EXPECT_EQ(cmd.start("{\"name\":\"$(touch /tmp/wt_pwned) `x`; rm\"}\n"), "");
  EXPECT_TRUE(cmd.finish().empty());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "{\"name\":\"$(touch /tmp/wt_pwned) `x`; rm\"}\n");
}

TEST(AlertCommand, StartReturnsAtOnceAndASlowCommandIsKilled) {
  AlertCommand cmd("sleep 30", 0.2);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(cmd.start("{}\n"), "");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  EXPECT_TRUE(cmd.poll().empty());
  EXPECT_EQ(cmd.running(), 1u);
  const auto problems = cmd.finish();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("limit"), std::string::npos) << problems[0];
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST(AlertCommand, FailuresAreReported) {
  AlertCommand missing("/nonexistent/program", 5);
  EXPECT_EQ(missing.start("{}\n"), "");
  const auto problems = missing.finish();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("status 127"), std::string::npos) << problems[0];
  EXPECT_THROW(AlertCommand("   ", 5), std::invalid_argument);
}

}  // namespace wt::watch
