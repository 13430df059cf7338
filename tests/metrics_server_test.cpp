// The HTTP transport of watch's metrics (src/sink/metrics_server.cpp): address parsing, a real
// scrape over loopback, a port already taken, and a server stopped right after it started.
#include "sink/metrics_server.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <stdexcept>

namespace wt {
namespace {

TEST(MetricsServer, ParsesListenAddresses) {
  EXPECT_EQ(parse_listen_address(":9835", "--m").host, "0.0.0.0");
  EXPECT_EQ(parse_listen_address(":9835", "--m").port, 9835);
  EXPECT_EQ(parse_listen_address("9835", "--m").port, 9835);
  EXPECT_EQ(parse_listen_address("127.0.0.1:0", "--m").host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("[::1]:9835", "--m").host, "::1");
  for (const char* bad : {"", ":", "127.0.0.1:http", ":65536", ":-1", "host:12x"})
    EXPECT_THROW(parse_listen_address(bad, "--m"), std::invalid_argument) << bad;
  try {
    parse_listen_address("x:y", "--metrics-listen");
    ADD_FAILURE() << "x:y was taken as an address";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--metrics-listen 'x:y': expected [HOST]:PORT, e.g. :9835 or 127.0.0.1:9835");
  }
}

TEST(MetricsServer, ServesWhatRenderSaysAtEachScrape) {
  std::atomic<int> scrapes = 0;
  MetricsServer server({"127.0.0.1", 0}, [&] { return "scrape " + std::to_string(++scrapes) + "\n"; });
  ASSERT_GT(server.port(), 0);
  EXPECT_EQ(server.url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/metrics");
  httplib::Client client("127.0.0.1", server.port());
  auto first = client.Get("/metrics");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, "scrape 1\n");
  EXPECT_EQ(first->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(client.Get("/metrics")->body, "scrape 2\n");
  EXPECT_EQ(client.Get("/nothing")->status, 404);
}

TEST(MetricsServer, APortInUseIsSaidAtOnce) {
  MetricsServer first({"127.0.0.1", 0}, [] { return std::string(); });
  try {
    MetricsServer second({"127.0.0.1", first.port()}, [] { return std::string(); });
    ADD_FAILURE() << "a second server bound the same port";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot listen on 127.0.0.1:" + std::to_string(first.port())),
              std::string::npos);
  }
}

TEST(MetricsServer, StopsRightAfterStarting) {
  for (int i = 0; i < 20; ++i) MetricsServer server({"127.0.0.1", 0}, [] { return std::string(); });
}

}  // namespace
}  // namespace wt
