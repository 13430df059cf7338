#include "source/prometheus/prometheus_source.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/diagnostic.hpp"
#include "http_test_server.hpp"
#include "pipeline/open_source.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

using nlohmann::json;

// A Prometheus server holding one DCGM sample a second for two GPUs of host n1 (and, when
// asked, one of host n2). It answers range selectors closed at both ends, as Prometheus 2
// does, so neighbouring chunks overlap by a sample.
struct Prometheus {
  std::vector<std::string> queries;
  bool second_host = false;
  int fail_queries = 0;  // answer this many queries with HTTP 503 after the first
  test::HttpTestServer server{[this](httplib::Server& s) {
    s.Get("/prom/api/v1/query", [this](const httplib::Request& req, httplib::Response& res) {
      const std::string q = req.get_param_value("query");
      queries.push_back(q);
      if (queries.size() > 1 && fail_queries > 0) {
        --fail_queries;
        res.status = 503;
        return;
      }
      const double at = std::stod(req.get_param_value("time"));
      const double range = std::stod(q.substr(q.rfind('[') + 1)) / 1000;
      json result = json::array();
      for (int gpu = 0; gpu < (second_host ? 3 : 2); ++gpu) {
        for (const char* name : {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE"}) {
          json values = json::array();
          for (int t = static_cast<int>(std::ceil(at - range)); t <= at; ++t)
            values.push_back({t, std::to_string(name[12] == 'G' ? t % 100 : 100 + gpu)});
          json metric = {{"__name__", name},
                         {"gpu", std::to_string(gpu % 2)},
                         {"UUID", "GPU-" + std::to_string(gpu)},
                         {"modelName", "NVIDIA H100 80GB HBM3"},
                         {"Hostname", gpu < 2 ? "n1" : "n2"}};
          if (gpu == 0) metric["workloadtruth_io_declared"] = "training";  // its pod's label, as the exporter copies it
          result.push_back({{"metric", metric}, {"values", values}});
        }
      }
      res.set_content(json{{"status", "success"}, {"data", {{"resultType", "matrix"}, {"result", result}}}}.dump(),
                      "application/json");
    });
    s.Get("/refuses/api/v1/query", [](const httplib::Request&, httplib::Response& res) {
      res.status = 400;
      res.set_content(R"({"status":"error","errorType":"bad_data","error":"1:2: parse error: unexpected"})", "application/json");
    });
    s.Get("/html/api/v1/query", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("<html>login</html>", "text/html");
    });
    // Behind HTTP basic auth as wt:pa:ss (a password may hold a colon); answers with no samples.
    s.Get("/locked/api/v1/query", [](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("Authorization") != "Basic d3Q6cGE6c3M=") {
        res.status = 401;
        return;
      }
      res.set_content(R"({"status":"success","data":{"resultType":"matrix","result":[]}})", "application/json");
    });
    s.Get("/empty/api/v1/query", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"status":"success","data":{"resultType":"matrix","result":[]}})", "application/json");
    });
  }};
  PrometheusOptions options(const std::string& path) const {
    PrometheusOptions o;
    o.url = server.url(path);
    o.start_s = 1000;
    o.end_s = 1010;
    o.chunk_s = 4;
    return o;
  }
};

TEST(PrometheusSource, ReadsTheRangeAChunkAtATime) {
  Prometheus p;
  PrometheusSource src(p.options("/prom/"));
  EXPECT_EQ(src.describe(), "prometheus:" + p.server.url("/prom/"));
  const auto s = test::drain(src);
  ASSERT_EQ(p.queries.size(), 3u);
  EXPECT_NE(p.queries[0].find("DCGM_FI_DEV_GPU_UTIL|"), std::string::npos) << p.queries[0];
  EXPECT_TRUE(p.queries[0].ends_with("\"}[4000ms]")) << p.queries[0];
  EXPECT_TRUE(p.queries[2].ends_with("\"}[2001ms]")) << p.queries[2];
  // 1000 ... 1010 for each GPU: every second once, in time order, none twice at a chunk's edge.
  ASSERT_EQ(s.size(), 22u);
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].time_s, 1000.0 + static_cast<double>(i / 2));
    EXPECT_EQ(s[i].gpu->index, static_cast<int>(i % 2));
    EXPECT_EQ(s[i].values.get(Signal::GpuUtil), static_cast<double>((1000 + i / 2) % 100));
    EXPECT_EQ(s[i].values.get(Signal::Power), 100.0 + static_cast<double>(i % 2));
  }
  EXPECT_EQ(s[0].gpu->name, "NVIDIA H100 80GB HBM3");
  EXPECT_FALSE(s[0].declared);  // no declaration label asked for
  EXPECT_TRUE(src.diagnostics().empty());
}

TEST(PrometheusSource, CarriesTheDeclarationLabelAsked) {
  Prometheus p;
  auto o = p.options("/prom");
  o.declared_label = "workloadtruth.io/declared";
  PrometheusSource src(o);
  const auto s = test::drain(src);
  ASSERT_EQ(s.size(), 22u);
  for (const auto& x : s) {
    ASSERT_TRUE(x.declared);
    EXPECT_EQ(*x.declared, x.gpu->index == 0 ? DeclaredValues{"training"} : DeclaredValues{});
  }
}

TEST(PrometheusSource, MatchersAndOneGpu) {
  Prometheus p;
  auto o = p.options("/prom");
  o.match = "Hostname=\"n1\"";
  o.gpu = 1;
  PrometheusSource src(o);
  EXPECT_NE(src.selector(4).find(",Hostname=\"n1\"}[4000ms]"), std::string::npos) << src.selector(4);
  const auto s = test::drain(src);
  ASSERT_EQ(s.size(), 11u);
  for (const auto& x : s) EXPECT_EQ(x.gpu->index, 1);
}

TEST(PrometheusSource, ReadsSeveralHostsWithTheirGpusToldApart) {
  Prometheus p;
  p.second_host = true;
  PrometheusSource src(p.options("/prom"));
  std::map<std::string, std::size_t> by_label;
  for (const auto& x : test::drain(src)) ++by_label[x.gpu->label()];
  // n2's GPU has index 0 too (the exporter numbers each node's GPUs from 0).
  EXPECT_EQ(by_label, (std::map<std::string, std::size_t>{{"n1/0", 11}, {"n1/1", 11}, {"n2/0", 11}}));
}

TEST(PrometheusSource, ManySeriesAreReadAFewSecondsAtATime) {
  Prometheus p;
  auto o = p.options("/prom");
  o.start_s = 1000;
  o.end_s = 1100;
  o.chunk_s = 3600;
  o.chunk_pairs = 40;  // 4 series at 1 Hz: about 10 s a query, after the first minute
  PrometheusSource src(o);
  EXPECT_EQ(test::drain(src).size(), 202u);  // each second of 1000..1100 once, for both GPUs
  ASSERT_GE(p.queries.size(), 5u);
  EXPECT_TRUE(p.queries[0].ends_with("}[60000ms]")) << p.queries[0];  // the first: a minute
  for (std::size_t i = 1; i + 1 < p.queries.size(); ++i) {
    const double span_ms = std::stod(p.queries[i].substr(p.queries[i].rfind('[') + 1));
    EXPECT_TRUE(span_ms > 8000 && span_ms < 11000) << p.queries[i];
  }
}

TEST(PrometheusSource, FollowsWhatPrometheusStoresNext) {
  Prometheus p;
  auto o = p.options("/prom");
  o.chunk_s = 3600;
  o.follow_every_s = 0.01;
  double wall = 1010;
  o.now = [&wall] { return wall += 5; };  // 1015, 1020, ...
  int waits = 0;
  o.waiting = [&waits] { return ++waits > 8; };
  PrometheusSource src(o);
  const auto s = test::drain(src);
  // The range, then each query's new seconds, once each though every query reaches back a minute.
  ASSERT_GT(p.queries.size(), 2u);
  EXPECT_TRUE(p.queries[1].ends_with("}[65000ms]")) << p.queries[1];
  std::map<double, int> per_time;
  for (const auto& x : s) ++per_time[x.time_s];
  EXPECT_EQ(per_time.begin()->first, 1000);
  EXPECT_EQ(per_time.rbegin()->first, 1010.0 + 5.0 * static_cast<double>(p.queries.size() - 1));
  EXPECT_EQ(per_time.size(), static_cast<std::size_t>(per_time.rbegin()->first - 999));
  for (const auto& [t, n] : per_time) EXPECT_EQ(n, 2) << t;  // both GPUs, each second once
  EXPECT_TRUE(src.diagnostics().empty());
}

TEST(PrometheusSource, AFollowedServerThatStopsAnsweringIsAskedAgain) {
  Prometheus p;
  p.fail_queries = 2;
  auto o = p.options("/prom");
  o.chunk_s = 3600;
  o.follow_every_s = 0.01;
  double wall = 1010;
  o.now = [&wall] { return wall += 5; };
  int waits = 0;
  o.waiting = [&waits, &p] { return p.queries.size() >= 5 && ++waits > 0; };
  PrometheusSource src(o);
  const auto s = test::drain(src);
  // Queries 2 and 3 failed: the fourth asked for all their time again (a minute back, and more).
  std::map<double, int> per_time;
  for (const auto& x : s) ++per_time[x.time_s];
  EXPECT_EQ(per_time.size(), static_cast<std::size_t>(per_time.rbegin()->first - 999));
  for (const auto& [t, n] : per_time) EXPECT_EQ(n, 2) << t;
  const auto d = src.diagnostics();
  ASSERT_EQ(d.size(), 2u);  // said once while failing, and once when answering again
  EXPECT_NE(d[0].message.find("; asking again every 0.01 s while following"), std::string::npos) << d[0].message;
  EXPECT_TRUE(d[0].is_error);
  EXPECT_EQ(d[1].message, "answering again; the samples it stored meanwhile are read");
}

TEST(PrometheusSource, AFollowerBehindTheClockCatchesUpWithoutWaiting) {
  // Four seconds a query, and the clock 20 s on at each wait: five queries a wait, back to back.
  Prometheus p;
  auto o = p.options("/prom");
  o.follow_every_s = 0.01;
  double wall = 1010;
  int clock_reads = 0;
  o.now = [&] { return ++clock_reads, wall += 20; };
  o.waiting = [&clock_reads] { return clock_reads >= 3; };
  PrometheusSource src(o);
  const auto s = test::drain(src);
  EXPECT_EQ(clock_reads, 3);
  // The range's three; five after each of the first two waits (to 1030, to 1050); after the
  // third (to 1070) one, then the stop is heeded between chunks.
  EXPECT_EQ(p.queries.size(), 3u + 5u + 5u + 1u);
  std::map<double, int> per_time;
  for (const auto& x : s) ++per_time[x.time_s];
  EXPECT_EQ(per_time.rbegin()->first, 1054.0);
  EXPECT_EQ(per_time.size(), 55u);
  for (const auto& [t, n] : per_time) EXPECT_EQ(n, 2) << t;
}

TEST(PrometheusSource, SaysWhatIsWrongWithTheServer) {
  Prometheus p;
  const auto message = [&](const std::string& path) {
    try {
      PrometheusSource src(p.options(path));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("/refuses").find("Prometheus refused the query: bad_data: 1:2: parse error"), std::string::npos)
      << message("/refuses");
  EXPECT_NE(message("/html").find("not Prometheus API JSON"), std::string::npos) << message("/html");
  EXPECT_NE(message("/empty").find("no DCGM GPU samples between the start and the end"), std::string::npos);
  EXPECT_THROW(PrometheusSource(p.options("/empty")), NoTelemetryError);
  auto o = p.options("/prom");
  o.end_s = o.start_s;
  EXPECT_THROW((PrometheusSource(o)), std::invalid_argument);
  o.end_s = 1e20;  // would be read an hour at a time for ever
  EXPECT_THROW((PrometheusSource(o)), std::invalid_argument);
  o.start_s = -1e300;
  o.end_s = 1000;
  EXPECT_THROW((PrometheusSource(o)), std::invalid_argument);
  p.server.stop();
  EXPECT_THROW(PrometheusSource(p.options("/prom")), NoTelemetryError);
}

TEST(PrometheusSource, OpenedFromTheCommandLinesTimeRange) {
  Prometheus p;
  SourceSpec spec;
  spec.backend = "prometheus";
  spec.url = p.server.url("/prom");
  spec.start = "1970-01-01T00:16:40Z";  // 1000 s
  spec.end = "1010";
  EXPECT_EQ(test::drain(*open_source(spec)).size(), 22u);
  spec.start = "1970-01-01 00:16:45";  // the Z may be left out
  EXPECT_EQ(test::drain(*open_source(spec)).size(), 12u);
  spec.start.clear();
  spec.last_s = 4;
  EXPECT_EQ(test::drain(*open_source(spec)).size(), 10u);
  spec.start = "1000";
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // --start and --last
  spec.last_s.reset();
  spec.start = "yesterday";
  try {
    open_source(spec);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "--start 'yesterday' is neither a time like 2026-12-03T10:00:00Z (or a date, 2026-12-03) nor Unix seconds");
  }
  spec.start = "1000";
  spec.interval_given = true;
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // Prometheus has its own times
  spec.interval_given = false;
  spec.backend = "dcgm";
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // --start is not for dcgm
  spec.start.clear();
  spec.backend = "nvml";
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // --url is not for nvml
}

TEST(PrometheusSource, SendsBasicAuthFromItsFile) {
  Prometheus p;
  SourceSpec spec;
  spec.backend = "prometheus";
  spec.url = p.server.url("/locked");
  spec.start = "1000";
  spec.end = "1010";
  const auto message = [&] {
    try {
      open_source(spec);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(
      message().find("HTTP status 401: the server asks for credentials (--bearer-token-file, --basic-auth-file or --oauth2-token-url)"),
      std::string::npos)
      << message();
  spec.auth_files.basic_auth_file = test::write_temp("wrong-basic", "wt:nope\n");
  EXPECT_NE(message().find("HTTP status 401: the credentials given were refused"), std::string::npos) << message();
  spec.auth_files.basic_auth_file = test::write_temp("basic", "wt:pa:ss\n");
  // Let in: the server holds no samples, which is the next thing said.
  EXPECT_NE(message().find("no DCGM GPU samples"), std::string::npos) << message();
  spec.auth_files.bearer_token_file = test::write_temp("token", "t0k3n");
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // one kind of credentials at a time
  spec.auth_files.basic_auth_file.clear();
  spec.auth_files.bearer_token_file.clear();
  spec.backend = "replay";
  spec.replay_files = {"trace.csv"};  // never opened: the flag is refused first
  spec.url.clear();
  spec.start.clear();
  spec.end.clear();
  spec.auth_files.ca_file = test::write_temp("ca.pem", "");
  EXPECT_THROW(open_source(spec), std::invalid_argument);  // --ca-file is not for replay
}

}  // namespace
}  // namespace wt
