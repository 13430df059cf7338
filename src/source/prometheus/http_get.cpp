#include "source/prometheus/http_get.hpp"

#include <httplib.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "core/diagnostic.hpp"

namespace wt {
namespace {

// httplib names its errors in one word; these are the ones a user meets.
std::string failure(httplib::Error e) {
  switch (e) {
    case httplib::Error::Connection: return "connection refused, or the host is unreachable";
    case httplib::Error::ConnectionTimeout: return "timed out connecting";
    case httplib::Error::Read: return "the connection broke or timed out while reading";
    case httplib::Error::Write: return "the connection broke while sending the request";
    case httplib::Error::SSLConnection: return "the TLS handshake failed";
    case httplib::Error::SSLServerVerification: return "the server's TLS certificate could not be verified";
    default: return httplib::to_string(e);
  }
}

}  // namespace

std::pair<std::string, std::string> split_url(const std::string& url) {
  const auto scheme_end = url.find("://");
  const std::string scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https")
    throw std::invalid_argument("'" + url + "' is not an http:// or https:// URL");
  const auto path_start = url.find('/', scheme_end + 3);
  std::string base = url.substr(0, path_start);
  if (base.size() <= scheme_end + 3) throw std::invalid_argument("'" + url + "' names no host");
  std::string path = path_start == std::string::npos ? "" : url.substr(path_start);
  while (!path.empty() && path.back() == '/') path.pop_back();
  return {std::move(base), std::move(path)};
}

namespace {

httplib::Client make_client(const std::string& base, const HttpAuth& auth, double timeout_s) {
  // A client certificate goes to the constructor: cpp-httplib loads it into the TLS context there.
  if (!auth.cert_file.empty() && !base.starts_with("https://"))
    throw std::invalid_argument("--cert-file and --key-file are for an https:// server, not " + base);
  httplib::Client client = auth.cert_file.empty() ? httplib::Client(base)
                                                  : httplib::Client(base, auth.cert_file, auth.key_file);
  if (!client.is_valid())
    throw InputError(auth.cert_file + ", " + auth.key_file +
                     ": cannot load the client certificate and its key (PEM, and the key must match the certificate)");
  const std::chrono::microseconds timeout(static_cast<std::int64_t>(timeout_s * 1e6));
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_follow_location(!auth.any_credentials());
  if (!auth.bearer_token.empty()) client.set_bearer_token_auth(auth.bearer_token);
  if (!auth.basic_user.empty()) client.set_basic_auth(auth.basic_user, auth.basic_password);
  if (!auth.ca_file.empty()) client.set_ca_cert_path(auth.ca_file);
  return client;
}

// Appends each chunk to out.body up to max_bytes; `too_big` set when a chunk would pass it.
httplib::ContentReceiver capped(HttpResponse& out, std::size_t max_bytes, bool& too_big) {
  return [&out, max_bytes, &too_big](const char* data, std::size_t n) {
    if (out.body.size() + n > max_bytes) return !(too_big = true);
    out.body.append(data, n);
    return true;
  };
}

// What became of a request: the size cap, or no answer at all, as the errors http_get documents.
void check_answered(const httplib::Result& result, bool too_big, const std::string& where, const std::string& base,
                    const HttpAuth& auth, std::size_t max_bytes) {
  if (too_big)
    throw InputError(where + ": the response is larger than " + std::to_string(max_bytes >> 20) +
                     " MiB; narrow the request");
  if (result) return;
  // Over TLS 1.3 a server that wants a client certificate drops the connection after the handshake,
  // so a refused client sees a broken write or read: the hint names the flags that would help.
  const httplib::Error e = result.error();
  std::string hint;
  if (e == httplib::Error::SSLServerVerification && auth.ca_file.empty())
    hint = "; --ca-file names the CA that signed it";
  const bool broke = e == httplib::Error::Read || e == httplib::Error::Write || e == httplib::Error::SSLConnection;
  if (broke && base.starts_with("https://") && auth.cert_file.empty())
    hint = "; a server that asks for a client certificate needs --cert-file and --key-file";
  throw NoTelemetryError(where + ": no answer (" + failure(e) + hint + ")");
}

}  // namespace

HttpResponse http_get(const std::string& base, const std::string& path, const HttpAuth& auth,
                      const std::vector<std::pair<std::string, std::string>>& params, std::size_t max_bytes,
                      double timeout_s) {
  httplib::Client client = make_client(base, auth, timeout_s);
  httplib::Params query;
  for (const auto& [k, v] : params) query.emplace(k, v);
  HttpResponse out;
  bool too_big = false;
  const auto result =
      client.Get(path.empty() ? "/" : path, query, httplib::Headers{}, capped(out, max_bytes, too_big));
  const std::string where = base + (path.empty() ? "/" : path);
  check_answered(result, too_big, where, base, auth, max_bytes);
  if (result->status == 401)
    throw HttpUnauthorized(where + ": HTTP status 401: " +
                           (auth.any_credentials() ? "the credentials given were refused"
                                                   : "the server asks for credentials (--bearer-token-file, "
                                                     "--basic-auth-file or --oauth2-token-url)"));
  if (result->status == 403)
    throw InputError(where + ": HTTP status 403: access denied" +
                     (auth.any_credentials() ? " to the credentials given" : " (no credentials were given)"));
  out.status = result->status;
  return out;
}

HttpResponse http_post_form(const std::string& base, const std::string& path, const std::string& body,
                            const HttpAuth& auth, std::size_t max_bytes, double timeout_s) {
  httplib::Client client = make_client(base, auth, timeout_s);
  HttpResponse out;
  bool too_big = false;
  httplib::Request request;
  request.method = "POST";
  request.path = path.empty() ? "/" : path;
  request.body = body;
  request.set_header("Content-Type", "application/x-www-form-urlencoded");
  request.set_header("Accept", "application/json");
  request.content_receiver = [receive = capped(out, max_bytes, too_big)](const char* data, std::size_t n,
                                                                         std::uint64_t, std::uint64_t) {
    return receive(data, n);
  };
  const httplib::Result result = client.send(request);
  check_answered(result, too_big, base + request.path, base, auth, max_bytes);
  out.status = result->status;
  return out;
}

std::string form_encode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace wt
