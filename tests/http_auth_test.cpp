#include "source/prometheus/http_auth.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/diagnostic.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

HttpAuth read(const std::string& token, const std::string& basic, const std::string& ca, const std::string& cert = "",
              const std::string& key = "") {
  return read_http_auth({token, basic, ca, cert, key, "", "", "", {}});
}

std::string error_of(const std::string& token, const std::string& basic, const std::string& ca,
                     const std::string& cert = "", const std::string& key = "") {
  try {
    read(token, basic, ca, cert, key);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(HttpAuth, ReadsTheSecretsFromTheirFiles) {
  const HttpAuth none = read("", "", "");
  EXPECT_FALSE(none.any_credentials());
  const HttpAuth token = read(test::write_temp("token", "\n  eyJhbGciOi.x-y_z \r\n"), "", "");
  EXPECT_EQ(token.bearer_token, "eyJhbGciOi.x-y_z");
  EXPECT_TRUE(token.any_credentials());
  const std::string ca = test::write_temp("ca.pem", "-----BEGIN CERTIFICATE-----\n");
  const HttpAuth basic = read("", test::write_temp("basic", "grafana:pa:ss word\nignored\n"), ca);
  EXPECT_EQ(basic.basic_user, "grafana");
  EXPECT_EQ(basic.basic_password, "pa:ss word");
  EXPECT_EQ(basic.ca_file, ca);
  EXPECT_TRUE(basic.cert_file.empty() && basic.key_file.empty());
  const std::string cert = test::write_temp("client.pem", "-----BEGIN CERTIFICATE-----\n");
  const std::string key = test::write_temp("client.key", "-----BEGIN PRIVATE KEY-----\n");
  const HttpAuth mtls = read("", "", ca, cert, key);
  EXPECT_EQ(mtls.cert_file, cert);
  EXPECT_EQ(mtls.key_file, key);
  EXPECT_TRUE(mtls.any_credentials());  // a client certificate is a credential: no redirect follows it
  HttpAuthFiles key_only;
  key_only.key_file = key;
  EXPECT_TRUE(key_only.any());
  EXPECT_FALSE(HttpAuthFiles{}.any());
}

TEST(HttpAuth, SaysWhichFileIsWrong) {
  const std::string empty = test::write_temp("empty", " \n");
  EXPECT_EQ(error_of(empty, "", ""), empty + ": the bearer token file is empty");
  const std::string two = test::write_temp("two-lines", "abc\ndef\n");
  EXPECT_EQ(error_of(two, "", ""), two + ": the token spans several lines; the file must hold the token alone");
  const std::string no_colon = test::write_temp("no-colon", "grafana\n");
  EXPECT_EQ(error_of("", no_colon, ""), no_colon + ":1: expected user:password");
  const std::string no_user = test::write_temp("no-user", ":secret\n");
  EXPECT_EQ(error_of("", no_user, ""), no_user + ":1: expected user:password");
  EXPECT_EQ(error_of("/nonexistent/token", "", ""), "/nonexistent/token: cannot read the bearer token file");
  EXPECT_EQ(error_of("", "", "/nonexistent/ca.pem"), "/nonexistent/ca.pem: cannot read the CA file");
  EXPECT_EQ(error_of("", "", "", "/nonexistent/c.pem", "/nonexistent/c.key"),
            "/nonexistent/c.pem: cannot read the client certificate file");
  EXPECT_EQ(error_of("", "", "", "", "/nonexistent/c.key"),
            "--cert-file and --key-file go together: a client certificate and its private key");
  const std::string big = test::write_temp("big", std::string(100 * 1024, 'x'));
  EXPECT_NE(error_of(big, "", "").find("larger than 64 KiB"), std::string::npos);
  EXPECT_THROW(read(two, no_colon, ""), std::invalid_argument);
  EXPECT_THROW(read(empty, "", ""), InputError);
}

}  // namespace
}  // namespace wt
