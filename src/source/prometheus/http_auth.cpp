#include "source/prometheus/http_auth.hpp"

#include <stdexcept>

#include "core/secret_file.hpp"

namespace wt {

bool HttpAuthFiles::any() const {
  return !bearer_token_file.empty() || !basic_auth_file.empty() || !ca_file.empty() || !cert_file.empty() ||
         !key_file.empty() || !oauth2_token_url.empty() || !oauth2_client_id.empty() ||
         !oauth2_client_secret_file.empty() || !oauth2_scopes.empty();
}

HttpAuth read_http_auth(const HttpAuthFiles& files) {
  const auto& [bearer_token_file, basic_auth_file, ca_file, cert_file, key_file, token_url, client_id,
               client_secret_file, scopes] = files;
  const int schemes = !bearer_token_file.empty() + !basic_auth_file.empty() + files.oauth2();
  if (schemes > 1)
    throw std::invalid_argument("--bearer-token-file, --basic-auth-file and --oauth2-token-url cannot be combined");
  const bool oauth2_part = !client_id.empty() || !client_secret_file.empty() || !scopes.empty();
  if (oauth2_part && !files.oauth2())
    throw std::invalid_argument("--oauth2-client-id, --oauth2-client-secret-file and --oauth2-scope need "
                                "--oauth2-token-url");
  if (files.oauth2() && (client_id.empty() || client_secret_file.empty()))
    throw std::invalid_argument("--oauth2-token-url needs --oauth2-client-id and --oauth2-client-secret-file");
  HttpAuth auth;
  if (files.oauth2()) auth.oauth2_client_secret = read_secret_file(client_secret_file, "OAuth 2 client secret");
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
