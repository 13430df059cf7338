#include "source/prometheus/http_session.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/diagnostic.hpp"
#include "core/json_parse.hpp"
#include "source/poll_clock.hpp"

namespace wt {
namespace {

constexpr double kRenewBefore_s = 60;  // a token is fetched anew this long before it expires

// The files whose contents are sent (the CA and certificate files are loaded by each request).
std::vector<FileStamp> secret_stamps(const HttpAuthFiles& f) {
  return {file_stamp(f.bearer_token_file), file_stamp(f.basic_auth_file), file_stamp(f.oauth2_client_secret_file)};
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

HttpSession::HttpSession(HttpAuthFiles files, Note note)
    : files_(std::move(files)), note_(std::move(note)), auth_(read_http_auth(files_)), stamps_(secret_stamps(files_)) {}

void HttpSession::reread_changed_files() {
  const std::vector<FileStamp> now = secret_stamps(files_);
  if (now == stamps_) return;
  stamps_ = now;  // a file caught half written is read again at its next change
  try {
    HttpAuth fresh = read_http_auth(files_);
    fresh.bearer_token = files_.oauth2() ? auth_.bearer_token : fresh.bearer_token;  // a fetched token stays good
    auth_ = std::move(fresh);
  } catch (const InputError& e) {
    // Keeps the credentials last read: if they are stale, the server's refusal says so.
    if (note_) note_(std::string(e.what()) + "; the credentials last read are kept");
  }
}

void HttpSession::fetch_token(double timeout_s) {
  const std::string& url = files_.oauth2_token_url;
  const auto [base, path] = split_url(url);
  // The client authenticates with HTTP basic, its ID and secret form-encoded (RFC 6749 2.3.1).
  HttpAuth client;
  client.basic_user = form_encode(files_.oauth2_client_id);
  client.basic_password = form_encode(auth_.oauth2_client_secret);
  client.ca_file = auth_.ca_file;
  if (base.starts_with("https://")) {
    client.cert_file = auth_.cert_file;
    client.key_file = auth_.key_file;
  }
  std::string body = "grant_type=client_credentials";
  if (!files_.oauth2_scopes.empty()) {
    std::string scope;
    for (const std::string& s : files_.oauth2_scopes) scope += (scope.empty() ? "" : " ") + s;
    body += "&scope=" + form_encode(scope);
  }
  const double asked_s = PollClock::steady_s();
  const HttpResponse r = http_post_form(base, path, body, client, 1u << 20, timeout_s);
  const nlohmann::json j = parse_json(r.body);
  const auto text = [&j](const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  if (r.status != 200) {
    // RFC 6749 5.2: the refusal's code (invalid_client, invalid_scope, ...) and description.
    const std::string code = text("error"), description = text("error_description");
    throw InputError(url + ": the OAuth 2 token endpoint answered HTTP status " + std::to_string(r.status) +
                     (code.empty() ? "" : ": " + code) + (description.empty() ? "" : " (" + description + ")") +
                     (r.status == 400 || r.status == 401 ? "; check --oauth2-client-id, --oauth2-client-secret-file "
                                                           "and --oauth2-scope"
                                                         : ""));
  }
  const std::string token = text("access_token");
  if (token.empty() || std::any_of(token.begin(), token.end(), [](unsigned char c) { return c < 0x21 || c > 0x7e; }))
    throw InputError(url + ": the token endpoint's answer holds no usable access_token");
  if (const std::string type = text("token_type"); !type.empty() && lower(type) != "bearer")
    throw InputError(url + ": the token endpoint gave a '" + type + "' token; only bearer tokens are sent");
  token_expires_s_.reset();
  if (j.contains("expires_in") && j["expires_in"].is_number() && j["expires_in"].get<double>() > 0) {
    const double lifetime_s = j["expires_in"].get<double>();
    token_expires_s_ = asked_s + std::max(lifetime_s - kRenewBefore_s, lifetime_s / 2);
  }
  auth_.bearer_token = token;
}

HttpResponse HttpSession::get(const std::string& base, const std::string& path,
                              const std::vector<std::pair<std::string, std::string>>& params, std::size_t max_bytes,
                              double timeout_s) {
  reread_changed_files();
  if (files_.oauth2() && (auth_.bearer_token.empty() || (token_expires_s_ && PollClock::steady_s() >= *token_expires_s_)))
    fetch_token(timeout_s);
  try {
    return http_get(base, path, auth_, params, max_bytes, timeout_s);
  } catch (const HttpUnauthorized&) {
    if (!files_.oauth2()) throw;
    fetch_token(timeout_s);  // revoked before it expired: once more with a new one
    return http_get(base, path, auth_, params, max_bytes, timeout_s);
  }
}

}  // namespace wt
