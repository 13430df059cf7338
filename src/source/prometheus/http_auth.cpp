#include "source/prometheus/http_auth.hpp"

#include <stdexcept>

#include "core/secret_file.hpp"

namespace wt {

bool HttpAuthFiles::any() const {
  return !bearer_token_file.empty() || !basic_auth_file.empty() || !ca_file.empty() || !cert_file.empty() ||
         !key_file.empty();
}

HttpAuth read_http_auth(const HttpAuthFiles& files) {
  const auto& [bearer_token_file, basic_auth_file, ca_file, cert_file, key_file] = files;
  if (!bearer_token_file.empty() && !basic_auth_file.empty())
    throw std::invalid_argument("--bearer-token-file and --basic-auth-file cannot be combined");
  HttpAuth auth;
  if (!bearer_token_file.empty()) auth.bearer_token = read_bearer_token_file(bearer_token_file);
  if (!basic_auth_file.empty()) {
    BasicCredentials basic = read_basic_auth_file(basic_auth_file);
    auth.basic_user = std::move(basic.user);
    auth.basic_password = std::move(basic.password);
  }
  if (cert_file.empty() != key_file.empty())
    throw std::invalid_argument("--cert-file and --key-file go together: a client certificate and its private key");
  check_readable(ca_file, "CA");
  check_readable(cert_file, "client certificate");
  check_readable(key_file, "client key");
  auth.ca_file = ca_file;
  auth.cert_file = cert_file;
  auth.key_file = key_file;
  return auth;
}

}  // namespace wt
