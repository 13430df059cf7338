#include "source/prometheus/dcgm_exporter_source.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "core/diagnostic.hpp"
#include "http_test_server.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

// dcgm-exporter serving the fixture, GPU 0's utilization counting up by one each scrape.
struct Exporter {
  std::atomic<int> scrapes{0};
  std::string page;
  test::HttpTestServer server{[this](httplib::Server& s) {
    s.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      const int n = scrapes++;
      res.set_content(page + "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-0e2a3c51-8b1f-4d5e-9a7c-1f2e3d4c5b6a\"} " +
                          std::to_string(n) + "\n",
                      "text/plain; version=0.0.4");
    });
    s.Get("/secured", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("Authorization") != "Bearer s3cret") {
        res.status = req.has_header("Authorization") ? 403 : 401;
        return;
      }
      res.set_content(page, "text/plain; version=0.0.4");
    });
    s.Get("/empty", [](const httplib::Request&, httplib::Response& res) { res.set_content("go_goroutines 12\n", "text/plain"); });
  }};
  Exporter() {
    std::ifstream in(test::fixture("dcgm/two-a100.metrics"));
    std::stringstream s;
    s << in.rdbuf();
    // The fixture's own GPU 0 utilization is replaced by the counting one.
    std::istringstream lines(s.str());
    for (std::string l; std::getline(lines, l);)
      if (!l.starts_with("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"")) page += l + "\n";
  }
};

TEST(DcgmExporterSource, PollsTheExporter) {
  Exporter e;
  DcgmExporterSource src({e.server.url("/metrics"), 3, 0.01, std::nullopt, {}});
  EXPECT_EQ(src.describe(), "dcgm:" + e.server.url("/metrics"));
  const auto s = test::drain(src);
  EXPECT_EQ(e.scrapes, 3);
  // GPU 1 reads the same every scrape: its repeats are dropped, GPU 0 changes every time.
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].gpu->index, 0);
  EXPECT_EQ(s[1].gpu->index, 1);
  EXPECT_EQ(s[2].values.get(Signal::GpuUtil), 1);
  EXPECT_EQ(s[3].values.get(Signal::GpuUtil), 2);
  EXPECT_EQ(s[3].values.get(Signal::Power), 352.918);
  EXPECT_GT(s[3].time_s, s[0].time_s);
  EXPECT_GT(s[0].time_s, 1.7e9);  // wall clock
  EXPECT_TRUE(src.diagnostics().empty());
}

TEST(DcgmExporterSource, OneGpu) {
  Exporter e;
  DcgmExporterSource src({e.server.url("/metrics"), 2, 0.01, 1, {}});
  const auto s = test::drain(src);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].gpu->index, 1);
  try {
    DcgmExporterSource none({e.server.url("/metrics"), 2, 0.01, 5, {}});
    FAIL();
  } catch (const NoTelemetryError& x) {
    EXPECT_NE(std::string(x.what()).find("no GPU 5 among DCGM GPU metrics"), std::string::npos) << x.what();
  }
}

TEST(DcgmExporterSource, SaysWhatIsWrongWithTheEndpoint) {
  Exporter e;
  try {
    DcgmExporterSource src({e.server.url("/empty"), 2, 0.01, std::nullopt, {}});
    FAIL();
  } catch (const NoTelemetryError& x) {
    EXPECT_NE(std::string(x.what()).find("no DCGM GPU metrics (DCGM_FI_DEV_GPU_UTIL, ...) in the 1 metrics served"),
              std::string::npos)
        << x.what();
  }
  try {
    DcgmExporterSource src({e.server.url("/nothing"), 2, 0.01, std::nullopt, {}});
    FAIL();
  } catch (const NoTelemetryError& x) {
    EXPECT_NE(std::string(x.what()).find("HTTP status 404"), std::string::npos) << x.what();
  }
  EXPECT_THROW(DcgmExporterSource({"node:9400/metrics", 2, 0.01, std::nullopt, {}}), std::invalid_argument);
}

TEST(DcgmExporterSource, AnExporterThatGoesAwayLeavesPollsMissing) {
  Exporter e;
  e.page += "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\" 40\n";  // a cut-off line, reported with its line number
  DcgmExporterSource src({e.server.url("/metrics"), 3, 0.01, std::nullopt, {}});
  Sample s;
  ASSERT_TRUE(src.next(s));
  ASSERT_TRUE(src.next(s));
  e.server.stop();
  EXPECT_FALSE(src.next(s));
  const auto d = src.diagnostics();
  ASSERT_GE(d.size(), 3u);
  EXPECT_EQ(d[0].where, e.server.url("/metrics") + ":60");
  EXPECT_NE(d.back().message.find("no answer"), std::string::npos) << d.back().text();
  EXPECT_NE(d.back().message.find("this poll is missing"), std::string::npos) << d.back().text();
}

TEST(DcgmExporterSource, SendsTheBearerToken) {
  Exporter e;
  const auto message = [&](const HttpAuthFiles& auth) {
    try {
      DcgmExporterSource src({e.server.url("/secured"), 1, 0.01, std::nullopt, auth});
    } catch (const std::exception& x) {
      return std::string(x.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({}).find("HTTP status 401: the server asks for credentials"), std::string::npos) << message({});
  HttpAuthFiles guess;
  guess.bearer_token_file = test::write_temp("guess-token", "guess");
  EXPECT_NE(message(guess).find("HTTP status 403: access denied to the credentials given"), std::string::npos);
  HttpAuthFiles files;
  files.bearer_token_file = test::write_temp("token", "  s3cret\n");
  DcgmExporterSource src({e.server.url("/secured"), 1, 0.01, std::nullopt, files});
  EXPECT_EQ(test::drain(src).size(), 2u);
  EXPECT_TRUE(src.diagnostics().empty());
}

}  // namespace
}  // namespace wt
