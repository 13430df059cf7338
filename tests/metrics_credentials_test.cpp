// What watch's metrics endpoint demands, read from files (src/sink/metrics_credentials.cpp):
// files that do not load at start, the Authorization header demanded, and reloading on change.
// The TLS side, over real connections, is in metrics_server_test.cpp.
#include "sink/metrics_credentials.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "tls_test_util.hpp"

namespace wt {
namespace {

std::string load_error(const MetricsAccess& files) {
  try {
    MetricsCredentials c(files, nullptr);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MetricsCredentials, FilesThatDoNotLoadAreSaidAtOnce) {
  const test::SelfSigned a = test::make_self_signed("creds-a"), b = test::make_self_signed("creds-b");
  MetricsAccess mismatched;
  mismatched.cert_file = a.cert;
  mismatched.key_file = b.key;
  EXPECT_EQ(load_error(mismatched), a.cert + ", " + b.key +
                                        ": cannot load the metrics certificate and its key (PEM files, the key the "
                                        "certificate's)");
  MetricsAccess no_ca = mismatched;
  no_ca.key_file = a.key;
  EXPECT_EQ(load_error(no_ca), "");
  no_ca.client_ca_file = test::write_temp("creds-ca.pem", "not a certificate\n");
  EXPECT_EQ(load_error(no_ca), no_ca.client_ca_file + ": no PEM certificate in the client CA file");
  MetricsAccess gone;
  gone.bearer_token_file = "/nonexistent/token";
  EXPECT_EQ(load_error(gone), "/nonexistent/token: cannot read the bearer token file");
  MetricsAccess bad_basic;
  bad_basic.basic_auth_file = test::write_temp("creds.basic", "no colon here\n");
  EXPECT_EQ(load_error(bad_basic), bad_basic.basic_auth_file + ":1: expected user:password");
}

TEST(MetricsCredentials, DemandsTheHeaderOfItsFile) {
  MetricsCredentials open({}, nullptr);
  EXPECT_TRUE(open.authorized(""));
  MetricsAccess basic;
  basic.basic_auth_file = test::write_temp("creds-ok.basic", "prometheus:pa:ss\n");
  MetricsCredentials c(basic, nullptr);
  EXPECT_FALSE(c.authorized(""));
  EXPECT_FALSE(c.authorized("Basic cHJvbWV0aGV1czpwYTpz"));     // prometheus:pa:s
  EXPECT_TRUE(c.authorized("Basic cHJvbWV0aGV1czpwYTpzcw=="));  // prometheus:pa:ss
  EXPECT_EQ(c.challenge(), "Basic realm=\"workloadtruth\"");
}

TEST(MetricsCredentials, ReloadsOnChangeAndKeepsTheLastGoodSet) {
  MetricsAccess files;
  files.bearer_token_file = test::write_temp("creds-rotate.token", "one\n");
  std::vector<std::string> notes;
  MetricsCredentials c(files, [&](const std::string& n, bool failed) { notes.push_back((failed ? "failed: " : "") + n); });
  c.refresh();  // nothing changed: nothing read, nothing said
  EXPECT_TRUE(notes.empty());
  test::replace_file(files.bearer_token_file, "two\n");
  EXPECT_TRUE(c.authorized("Bearer one"));  // not looked at until refresh()
  c.refresh();
  EXPECT_TRUE(c.authorized("Bearer two"));
  EXPECT_FALSE(c.authorized("Bearer one"));
  EXPECT_EQ(notes, std::vector<std::string>{"the metrics endpoint reloaded its credentials: a file changed"});
  test::replace_file(files.bearer_token_file, "three\nfour\n");
  c.refresh();
  c.refresh();
  EXPECT_TRUE(c.authorized("Bearer two"));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1], "failed: " + files.bearer_token_file +
                          ": the token spans several lines; the file must hold the token alone; the metrics endpoint "
                          "keeps the credentials it had");
  std::filesystem::remove(files.bearer_token_file);  // deleted: still the last good token
  c.refresh();
  EXPECT_TRUE(c.authorized("Bearer two"));
  EXPECT_EQ(notes.size(), 3u);
  test::replace_file(files.bearer_token_file, "five\n");
  c.refresh();
  EXPECT_TRUE(c.authorized("Bearer five"));
  EXPECT_EQ(notes.size(), 4u);
}

}  // namespace
}  // namespace wt
