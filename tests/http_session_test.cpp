// HttpSession against a local server: credential files read again when they change, and OAuth 2
// client credentials (a token endpoint, the token kept until it nears expiry, fetched anew when
// refused).
#include "source/prometheus/http_session.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/diagnostic.hpp"
#include "http_test_server.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

// A resource that takes one bearer token at a time, and a token endpoint that hands it out to
// client "wt" with secret "s3 cr:et" (form-encoded in basic auth, RFC 6749 2.3.1).
struct Server {
  std::mutex mutex;
  std::string accepted = "t1", next_token = "t1", token_type = "Bearer", last_form;
  double expires_in = 3600;
  std::atomic<int> tokens_issued{0};
  test::HttpTestServer http{[this](httplib::Server& s) {
    s.Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
      const std::lock_guard lock(mutex);
      if (req.get_header_value("Authorization") != "Bearer " + accepted) {
        res.status = 401;
        return;
      }
      res.set_content("ok", "text/plain");
    });
    s.Post("/token", [this](const httplib::Request& req, httplib::Response& res) {
      const std::lock_guard lock(mutex);
      last_form = req.body;
      // "wt:s3+cr%3Aet" in base64: the ID and secret form-encoded, then joined.
      if (req.get_header_value("Authorization") != "Basic d3Q6czMrY3IlM0FldA==") {
        res.status = 401;
        res.set_content(R"({"error":"invalid_client","error_description":"bad secret"})", "application/json");
        return;
      }
      ++tokens_issued;
      res.set_content(nlohmann::json{{"access_token", next_token}, {"token_type", token_type}, {"expires_in", expires_in}}
                          .dump(),
                      "application/json");
    });
  }};
};

HttpAuthFiles oauth2(const Server& server, const std::string& secret = "s3 cr:et") {
  HttpAuthFiles f;
  f.oauth2_token_url = server.http.url("/token");
  f.oauth2_client_id = "wt";
  f.oauth2_client_secret_file = test::write_temp("client-secret", secret + "\n");
  f.oauth2_scopes = {"metrics.read", "gpu"};
  return f;
}

std::string error_of(HttpSession& session, const std::string& base) {
  try {
    session.get(base, "/metrics");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(HttpSession, ReadsARotatedTokenFileAgain) {
  Server server;
  const std::string token_file = test::write_temp("rotating-token", "t1\n");
  HttpAuthFiles files;
  files.bearer_token_file = token_file;
  std::vector<std::string> notes;
  HttpSession session(files, [&notes](const std::string& m) { notes.push_back(m); });
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  {
    const std::lock_guard lock(server.mutex);
    server.accepted = "t2";
  }
  // The new token is written beside and moved in, as a Kubernetes projected token is swapped.
  test::write_temp("rotating-token.new", "t2\n");
  std::filesystem::rename(token_file + ".new", token_file);
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  EXPECT_TRUE(notes.empty());
  // A file that no longer reads keeps the token last read, and is said once.
  std::filesystem::remove(token_file);
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], token_file + ": cannot read the bearer token file; the credentials last read are kept");
}

TEST(HttpSession, OAuth2TokenIsFetchedOnceAndKept) {
  Server server;
  HttpSession session(oauth2(server));
  EXPECT_EQ(server.tokens_issued, 0);  // nothing is asked before the first request
  for (int i = 0; i < 3; ++i) EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  EXPECT_EQ(server.tokens_issued, 1);
  EXPECT_EQ(server.last_form, "grant_type=client_credentials&scope=metrics.read+gpu");
}

TEST(HttpSession, OAuth2TokenIsRenewedBeforeItExpiresAndWhenRefused) {
  Server server;
  server.expires_in = 0.4;  // renewed after half its life when that is under a minute (set before it serves)
  HttpSession session(oauth2(server));
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  EXPECT_EQ(server.tokens_issued, 2);
  {
    const std::lock_guard lock(server.mutex);
    server.expires_in = 3600;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");  // a fresh t1, for an hour
  // Revoked early: the server now takes only t3, which the endpoint hands out next.
  {
    const std::lock_guard lock(server.mutex);
    server.accepted = server.next_token = "t3";
  }
  EXPECT_EQ(session.get(server.http.url(), "/metrics").body, "ok");
  EXPECT_EQ(server.tokens_issued, 4);
}

TEST(HttpSession, OAuth2RefusalsSayWhy) {
  Server server;
  HttpSession wrong(oauth2(server, "nope"));
  EXPECT_EQ(error_of(wrong, server.http.url()),
            server.http.url("/token") +
                ": the OAuth 2 token endpoint answered HTTP status 401: invalid_client (bad secret); check "
                "--oauth2-client-id, --oauth2-client-secret-file and --oauth2-scope");
  {
    const std::lock_guard lock(server.mutex);
    server.token_type = "mac";
  }
  HttpSession mac(oauth2(server));
  EXPECT_EQ(error_of(mac, server.http.url()),
            server.http.url("/token") + ": the token endpoint gave a 'mac' token; only bearer tokens are sent");
  HttpAuthFiles unreachable = oauth2(server);
  unreachable.oauth2_token_url = "http://127.0.0.1:1/token";
  HttpSession nobody(unreachable);
  EXPECT_THROW(nobody.get(server.http.url(), "/metrics"), NoTelemetryError);
  // A token the resource still refuses after a fresh one: the 401, said as such.
  {
    const std::lock_guard lock(server.mutex);
    server.token_type = "Bearer";
    server.accepted = "never";
  }
  const int issued_before = server.tokens_issued;
  HttpSession refused(oauth2(server));
  EXPECT_NE(error_of(refused, server.http.url()).find("HTTP status 401: the credentials given were refused"),
            std::string::npos);
  EXPECT_EQ(server.tokens_issued - issued_before, 2);  // the first, then one more try
}

TEST(HttpSession, OAuth2OptionsGoTogether) {
  Server server;
  HttpAuthFiles f = oauth2(server);
  f.oauth2_client_id.clear();
  EXPECT_THROW(HttpSession{f}, std::invalid_argument);
  HttpAuthFiles both = oauth2(server);
  both.bearer_token_file = test::write_temp("token", "t1");
  EXPECT_THROW(HttpSession{both}, std::invalid_argument);
  HttpAuthFiles no_url;
  no_url.oauth2_scopes = {"gpu"};
  EXPECT_THROW(HttpSession{no_url}, std::invalid_argument);
  EXPECT_EQ(form_encode("a b:c/é~"), "a+b%3Ac%2F%C3%A9~");
}

}  // namespace wt
