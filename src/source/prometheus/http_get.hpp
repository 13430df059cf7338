// One HTTP(S) GET through cpp-httplib, for the sources that read metrics over the network.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "source/prometheus/http_auth.hpp"

namespace wt {

struct HttpResponse {
  int status = 0;
  std::string body;
};

// "http://host:9400/metrics" -> {"http://host:9400", "/metrics"}. Throws std::invalid_argument
// (a usage error) for anything but an http:// or https:// URL with a host.
std::pair<std::string, std::string> split_url(const std::string& url);

// GETs base+path with the query parameters (URL-encoded here) and `auth`'s credentials. Throws
// NoTelemetryError naming the URL when nothing answers (refused, timed out, TLS failure),
// InputError when the server asks for credentials or refuses them (401, 403), or when the body
// passes max_bytes: a runaway endpoint cannot exhaust memory. Any other HTTP status is returned.
// With credentials, redirects are not followed: they would carry the secret to another host.
HttpResponse http_get(const std::string& base, const std::string& path, const HttpAuth& auth = {},
                      const std::vector<std::pair<std::string, std::string>>& params = {},
                      std::size_t max_bytes = 256u << 20, double timeout_s = 10);

}  // namespace wt
