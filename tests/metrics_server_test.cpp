// The HTTP transport of watch's metrics (src/sink/metrics_server.cpp): address parsing, a real
// scrape over loopback, a port already taken, a server stopped right after it started, and who
// may scrape: a token or basic credentials demanded, https, client certificates demanded.
#include "sink/metrics_server.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tls_test_util.hpp"

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

std::shared_ptr<MetricsCredentials> credentials(const MetricsAccess& files, std::vector<std::string>* notes = nullptr) {
  return std::make_shared<MetricsCredentials>(files, [notes](const std::string& n, bool) {
    if (notes) notes->push_back(n);
  });
}

TEST(MetricsServer, DemandsTheTokenOrTheBasicCredentialsGiven) {
  MetricsAccess token;
  token.bearer_token_file = test::write_temp("metrics.token", "s3cret\n");
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(token));
  httplib::Client client("127.0.0.1", server.port());
  const auto bare = client.Get("/metrics");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 401);
  EXPECT_EQ(bare->get_header_value("WWW-Authenticate"), "Bearer realm=\"workloadtruth\"");
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer s3cre"}})->status, 401);
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer s3cret!"}})->status, 401);
  const auto right = client.Get("/metrics", {{"Authorization", "Bearer s3cret"}});
  EXPECT_EQ(right->status, 200);
  EXPECT_EQ(right->body, "up 1\n");

  MetricsAccess basic;
  basic.basic_auth_file = test::write_temp("metrics.basic", "prometheus:pa:ss\n");
  MetricsServer guarded({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(basic));
  httplib::Client scraper("127.0.0.1", guarded.port());
  EXPECT_EQ(scraper.Get("/metrics")->get_header_value("WWW-Authenticate"), "Basic realm=\"workloadtruth\"");
  scraper.set_basic_auth("prometheus", "pa:s");
  EXPECT_EQ(scraper.Get("/metrics")->status, 401);
  scraper.set_basic_auth("prometheus", "pa:ss");
  EXPECT_EQ(scraper.Get("/metrics")->status, 200);
}

TEST(MetricsServer, ServesHttpsAndDemandsClientCertificates) {
  const test::SelfSigned server_id = test::make_self_signed("metrics-server"),
                         client_id = test::make_self_signed("metrics-client");
  MetricsAccess tls;
  tls.cert_file = server_id.cert;
  tls.key_file = server_id.key;
  {
    MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(tls));
    EXPECT_EQ(server.url(), "https://127.0.0.1:" + std::to_string(server.port()) + "/metrics");
    httplib::SSLClient client("127.0.0.1", server.port());
    client.set_ca_cert_path(server_id.cert.c_str());
    const auto r = client.Get("/metrics");
    ASSERT_TRUE(r) << httplib::to_string(r.error());
    EXPECT_EQ(r->body, "up 1\n");
    const auto plain = httplib::Client("127.0.0.1", server.port()).Get("/metrics");
    EXPECT_TRUE(!plain || plain->status != 200);  // no metrics over plain http
  }
  tls.client_ca_file = client_id.cert;  // the client's self-signed certificate is its own CA
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(tls));
  httplib::SSLClient anonymous("127.0.0.1", server.port());
  anonymous.enable_server_certificate_verification(false);
  EXPECT_FALSE(anonymous.Get("/metrics"));  // turned away at the handshake
  httplib::SSLClient known("127.0.0.1", server.port(), client_id.cert, client_id.key);
  known.enable_server_certificate_verification(false);
  const auto r = known.Get("/metrics");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
}

TEST(MetricsServer, ARotatedTokenIsDemandedFromTheNextScrape) {
  MetricsAccess files;
  files.bearer_token_file = test::write_temp("metrics-rotated.token", "first\n");
  std::vector<std::string> notes;
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(files, &notes));
  httplib::Client client("127.0.0.1", server.port());
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer first"}})->status, 200);
  test::replace_file(files.bearer_token_file, "second\n");
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer first"}})->status, 401);
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer second"}})->status, 200);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("reloaded"), std::string::npos);
  test::replace_file(files.bearer_token_file, "");  // emptied by mistake: the token in force stays
  EXPECT_EQ(client.Get("/metrics", {{"Authorization", "Bearer second"}})->status, 200);
  EXPECT_EQ(client.Get("/metrics")->status, 401);
  ASSERT_EQ(notes.size(), 2u);  // said once, not at every scrape
  EXPECT_NE(notes[1].find("the bearer token file is empty; the metrics endpoint keeps the credentials it had"),
            std::string::npos);
}

// A client that trusts only `cert` (the server's certificate is self-signed) fetches /metrics.
bool fetches_trusting(int port, const std::string& cert) {
  httplib::SSLClient client("127.0.0.1", port);
  client.set_ca_cert_path(cert.c_str());
  const auto r = client.Get("/metrics");
  return r && r->status == 200;
}

TEST(MetricsServer, ARenewedCertificateServesTheNextConnection) {
  const test::SelfSigned old_id = test::make_self_signed("metrics-old"), new_id = test::make_self_signed("metrics-new");
  MetricsAccess files;
  files.cert_file = test::write_temp("metrics-live.pem", test::read_all(old_id.cert));
  files.key_file = test::write_temp("metrics-live.key", test::read_all(old_id.key));
  std::vector<std::string> notes;
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(files, &notes));
  EXPECT_TRUE(fetches_trusting(server.port(), old_id.cert));
  EXPECT_FALSE(fetches_trusting(server.port(), new_id.cert));

  test::replace_file(files.cert_file, test::read_all(new_id.cert));
  test::replace_file(files.key_file, test::read_all(new_id.key));
  EXPECT_TRUE(fetches_trusting(server.port(), new_id.cert));
  EXPECT_FALSE(fetches_trusting(server.port(), old_id.cert));
  ASSERT_EQ(notes.size(), 1u);

  // Half a renewal (the new certificate, the old key): the pair in force keeps serving.
  test::replace_file(files.cert_file, test::read_all(old_id.cert));
  EXPECT_TRUE(fetches_trusting(server.port(), new_id.cert));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[1].find("cannot load the metrics certificate and its key"), std::string::npos);
  test::replace_file(files.key_file, test::read_all(old_id.key));  // ... then the rest of it
  EXPECT_TRUE(fetches_trusting(server.port(), old_id.cert));
  EXPECT_EQ(notes.size(), 3u);
}

TEST(MetricsServer, ARotatedClientCaDecidesTheNextHandshake) {
  const test::SelfSigned server_id = test::make_self_signed("metrics-mtls"),
                         alice = test::make_self_signed("metrics-alice"), bob = test::make_self_signed("metrics-bob");
  MetricsAccess files;
  files.cert_file = server_id.cert;
  files.key_file = server_id.key;
  files.client_ca_file = test::write_temp("metrics-clients.pem", test::read_all(alice.cert));
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, credentials(files));
  auto status_for = [&](const test::SelfSigned& who) {
    httplib::SSLClient client("127.0.0.1", server.port(), who.cert, who.key);
    client.enable_server_certificate_verification(false);
    const auto r = client.Get("/metrics");
    return r ? r->status : -1;
  };
  EXPECT_EQ(status_for(alice), 200);
  EXPECT_EQ(status_for(bob), -1);
  test::replace_file(files.client_ca_file, test::read_all(bob.cert));
  EXPECT_EQ(status_for(bob), 200);
  EXPECT_EQ(status_for(alice), -1);
}

}  // namespace
}  // namespace wt
