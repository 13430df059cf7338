// One HTTP(S) GET through cpp-httplib, for the sources that read metrics over the network.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.hpp"
#include "source/prometheus/http_auth.hpp"

namespace wt {

struct HttpResponse {
  int status = 0;
  std::string body;
};

// "http://host:9400/metrics" -> {"http://host:9400", "/metrics"}. Throws std::invalid_argument
// (a usage error) for anything but an http:// or https:// URL with a host.
std::pair<std::string, std::string> split_url(const std::string& url);

// The server asked for credentials or refused the ones given (HTTP 401): a session may fetch a
// new OAuth 2 token and try once more.
class HttpUnauthorized : public InputError {
 public:
  using InputError::InputError;
};

// GETs base+path with the query parameters (URL-encoded here) and `auth`'s credentials. Throws
// NoTelemetryError naming the URL when nothing answers (refused, timed out, TLS failure),
// HttpUnauthorized (401) or InputError (403) when the server asks for credentials or refuses them, or when the body
// passes max_bytes: a runaway endpoint cannot exhaust memory. Any other HTTP status is returned.
// With credentials, redirects are not followed: they would carry the secret to another host.
HttpResponse http_get(const std::string& base, const std::string& path, const HttpAuth& auth = {},
                      const std::vector<std::pair<std::string, std::string>>& params = {},
                      std::size_t max_bytes = 256u << 20, double timeout_s = 10);

// POSTs an application/x-www-form-urlencoded body (already encoded) to base+path with `auth`'s
// basic credentials and TLS files, for an OAuth 2 token endpoint; every HTTP status is returned
// (the endpoint explains a refusal in its body). Throws as http_get when nothing answers or the
// body passes max_bytes.
HttpResponse http_post_form(const std::string& base, const std::string& path, const std::string& body,
                            const HttpAuth& auth, std::size_t max_bytes = 1u << 20, double timeout_s = 10);

// `text` percent-encoded for a form body or basic credentials (RFC 6749 2.3.1, appendix B):
// letters, digits and -._~ kept, a space as '+', every other byte as %XX.
std::string form_encode(const std::string& text);

}  // namespace wt
