// The stdio loop end to end over pipes: every line gets its answer, and no input makes it crash or hang.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <sstream>
#include <thread>

#include "mcp/server.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

ToolRegistry no_tools() { return {}; }

// Runs serve() with `input` as its whole stdin; returns the reply lines.
std::vector<json> serve_input(const std::string& input, std::size_t max_bytes = 4096, std::string* log_out = nullptr) {
  int in[2], out[2];
  EXPECT_EQ(::pipe(in), 0);
  EXPECT_EQ(::pipe(out), 0);
  std::thread feeder([&] {
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = ::write(in[1], input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(in[1]);
  });
  std::string replies;
  std::thread drainer([&] {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(out[0], buf, sizeof buf)) > 0) replies.append(buf, static_cast<std::size_t>(n));
  });
  const ToolRegistry tools = no_tools();
  Session session(tools);
  std::ostringstream log;
  serve(in[0], out[1], session, {max_bytes, false}, log);
  ::close(out[1]);
  feeder.join();
  drainer.join();
  ::close(in[0]);
  ::close(out[0]);
  if (log_out) *log_out = log.str();
  std::vector<json> v;
  std::istringstream lines(replies);
  for (std::string line; std::getline(lines, line);) v.push_back(json::parse(line));
  return v;
}

TEST(McpServer, AnswersEachRequestInOrderAndSkipsNotificationsAndBlankLines) {
  const auto r = serve_input(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}\n"
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
      "\n   \n"
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["id"], 1);
  EXPECT_EQ(r[0]["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(r[1]["id"], 2);
}

TEST(McpServer, MalformedInputGetsErrorsAndTheSessionGoesOn) {
  const auto r = serve_input(
      "{oops\n"
      "[1,2]\n"
      "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}\n"
      "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n");
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0]["error"]["code"], -32700);
  EXPECT_EQ(r[1]["error"]["code"], -32600);
  EXPECT_EQ(r[2]["error"]["code"], -32601);
  EXPECT_EQ(r[3]["error"]["code"], -32602);
  EXPECT_EQ(r[4]["result"], json::object());
}

TEST(McpServer, AnOversizedMessageIsRefusedAndTheNextOneServed) {
  std::string log;
  const auto r =
      serve_input("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" +
                      std::string(100000, 'x') + "\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
                  4096, &log);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["error"]["code"], -32600);
  EXPECT_TRUE(r[0]["id"].is_null());
  EXPECT_NE(r[0]["error"]["message"].get<std::string>().find("4096 bytes"), std::string::npos);
  EXPECT_EQ(r[1]["id"], 2);
  EXPECT_NE(log.find("longer than 4096 bytes"), std::string::npos);
}

TEST(McpServer, InputEndingMidMessageGetsAParseErrorThenACleanStop) {
  std::string log;
  const auto r = serve_input("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"meth",
                             4096, &log);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1]["error"]["code"], -32700);
  EXPECT_NE(log.find("end of input"), std::string::npos);
}

TEST(McpServer, EmptyInputStopsAtOnce) { EXPECT_TRUE(serve_input("").empty()); }

TEST(McpServer, StopsWhenTheClientStopsReading) {
  std::signal(SIGPIPE, SIG_IGN);  // as `workloadtruth mcp` does
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  ::close(out[0]);  // the client is gone
  const std::string line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
  ASSERT_EQ(::write(in[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));  // stdin stays open
  const ToolRegistry tools = no_tools();
  Session session(tools);
  std::ostringstream log;
  serve(in[0], out[1], session, {}, log);  // returns rather than waiting for more input
  EXPECT_NE(log.str().find("stopped reading"), std::string::npos);
  ::close(in[0]);
  ::close(in[1]);
  ::close(out[1]);
}

}  // namespace
}  // namespace wt::mcp
