#include "source/prometheus/http_auth.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/diagnostic.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

std::string error_of(const std::string& token, const std::string& basic, const std::string& ca) {
  try {
    read_http_auth(token, basic, ca);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(HttpAuth, ReadsTheSecretsFromTheirFiles) {
  const HttpAuth none = read_http_auth("", "", "");
  EXPECT_FALSE(none.any_credentials());
  const HttpAuth token = read_http_auth(test::write_temp("token", "\n  eyJhbGciOi.x-y_z \r\n"), "", "");
  EXPECT_EQ(token.bearer_token, "eyJhbGciOi.x-y_z");
  EXPECT_TRUE(token.any_credentials());
  const std::string ca = test::write_temp("ca.pem", "-----BEGIN CERTIFICATE-----\n");
  const HttpAuth basic = read_http_auth("", test::write_temp("basic", "grafana:pa:ss word\nignored\n"), ca);
  EXPECT_EQ(basic.basic_user, "grafana");
  EXPECT_EQ(basic.basic_password, "pa:ss word");
  EXPECT_EQ(basic.ca_file, ca);
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
  const std::string big = test::write_temp("big", std::string(100 * 1024, 'x'));
  EXPECT_NE(error_of(big, "", "").find("larger than 64 KiB"), std::string::npos);
  EXPECT_THROW(read_http_auth(two, no_colon, ""), std::invalid_argument);
  EXPECT_THROW(read_http_auth(empty, "", ""), InputError);
}

}  // namespace
}  // namespace wt
