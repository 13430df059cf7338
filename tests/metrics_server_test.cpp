// The HTTP transport of watch's metrics (src/sink/metrics_server.cpp): address parsing, a real
// scrape over loopback, a port already taken, a server stopped right after it started, and who
// may scrape: a token or basic credentials demanded, https, client certificates demanded.
#include "sink/metrics_server.hpp"

#include <gtest/gtest.h>
#include <httplib.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>

#include "core/diagnostic.hpp"
#include "test_util.hpp"

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

TEST(MetricsServer, DemandsTheTokenOrTheBasicCredentialsGiven) {
  MetricsAccess token;
  token.bearer_token = "s3cret";
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, token);
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
  basic.basic = BasicCredentials{"prometheus", "pa:ss"};
  MetricsServer guarded({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, basic);
  httplib::Client scraper("127.0.0.1", guarded.port());
  EXPECT_EQ(scraper.Get("/metrics")->get_header_value("WWW-Authenticate"), "Basic realm=\"workloadtruth\"");
  scraper.set_basic_auth("prometheus", "pa:s");
  EXPECT_EQ(scraper.Get("/metrics")->status, 401);
  scraper.set_basic_auth("prometheus", "pa:ss");
  EXPECT_EQ(scraper.Get("/metrics")->status, 200);
}

// A throwaway self-signed certificate for 127.0.0.1 and its key, as PEM files.
struct SelfSigned {
  std::string cert, key;
};

SelfSigned make_self_signed(const std::string& name) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 3600);
  X509_set_pubkey(x, key);
  X509_NAME* subject = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1,
                             -1, 0);
  X509_set_issuer_name(x, subject);
  X509_sign(x, key, EVP_sha256());
  SelfSigned out{test::write_temp(name + ".pem", ""), test::write_temp(name + ".key", "")};
  std::FILE* f = std::fopen(out.cert.c_str(), "w");
  PEM_write_X509(f, x);
  std::fclose(f);
  f = std::fopen(out.key.c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  X509_free(x);
  EVP_PKEY_free(key);
  return out;
}

TEST(MetricsServer, ServesHttpsAndDemandsClientCertificates) {
  const SelfSigned server_id = make_self_signed("metrics-server"), client_id = make_self_signed("metrics-client");
  MetricsAccess tls;
  tls.cert_file = server_id.cert;
  tls.key_file = server_id.key;
  {
    MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, tls);
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
  MetricsServer server({"127.0.0.1", 0}, [] { return std::string("up 1\n"); }, tls);
  httplib::SSLClient anonymous("127.0.0.1", server.port());
  anonymous.enable_server_certificate_verification(false);
  EXPECT_FALSE(anonymous.Get("/metrics"));  // turned away at the handshake
  httplib::SSLClient known("127.0.0.1", server.port(), client_id.cert, client_id.key);
  known.enable_server_certificate_verification(false);
  const auto r = known.Get("/metrics");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
}

TEST(MetricsServer, CertificatesThatDoNotLoadAreSaidAtOnce) {
  const SelfSigned a = make_self_signed("metrics-a"), b = make_self_signed("metrics-b");
  MetricsAccess mismatched;
  mismatched.cert_file = a.cert;
  mismatched.key_file = b.key;
  try {
    MetricsServer server({"127.0.0.1", 0}, [] { return std::string(); }, mismatched);
    ADD_FAILURE() << "a key that is not the certificate's was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load the metrics certificate and its key"), std::string::npos);
  }
  MetricsAccess no_ca = mismatched;
  no_ca.key_file = a.key;
  no_ca.client_ca_file = test::write_temp("metrics-ca.pem", "not a certificate\n");
  try {
    MetricsServer server({"127.0.0.1", 0}, [] { return std::string(); }, no_ca);
    ADD_FAILURE() << "a client CA file without a certificate was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), no_ca.client_ca_file + ": no PEM certificate in the client CA file");
  }
}

}  // namespace
}  // namespace wt
