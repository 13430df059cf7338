// Credentials and trust for the HTTP sources, read from files as Prometheus' own scrape config
// reads them: a secret on the command line would show in `ps` and in shell history.
#pragma once

#include <string>
#include <vector>

namespace wt {

// The files, as the operator named them ("" = not given); the names of Prometheus' scrape config.
struct HttpAuthFiles {
  std::string bearer_token_file, basic_auth_file;
  std::string ca_file;              // PEM bundle that verifies the server's certificate
  std::string cert_file, key_file;  // PEM client certificate and its key, for servers that ask (mutual TLS)
  // OAuth 2 client credentials (RFC 6749 4.4), as Prometheus' `oauth2` block: the token endpoint,
  // the client's ID and the file holding its secret, the scopes asked for.
  std::string oauth2_token_url, oauth2_client_id, oauth2_client_secret_file;
  std::vector<std::string> oauth2_scopes;
  bool any() const;
  bool oauth2() const { return !oauth2_token_url.empty(); }
};

struct HttpAuth {
  std::string bearer_token;           // sent as "Authorization: Bearer ..."
  std::string basic_user, basic_password;
  std::string ca_file;                // "" = the system's trust store
  std::string cert_file, key_file;    // "" = no client certificate
  std::string oauth2_client_secret;   // with HttpAuthFiles::oauth2(): the bearer token is fetched with it
  bool any_credentials() const {
    return !bearer_token.empty() || !basic_user.empty() || !cert_file.empty() || !oauth2_client_secret.empty();
  }
};

// Reads the files named: a token file holds the token (surrounding blanks and line ends dropped), a
// basic-auth file "user:password" on its first line, a client-secret file the secret alone; the CA,
// certificate and key files are only checked to be readable here (TLS loads them). Throws
// InputError naming the file when it cannot be read, is empty or malformed, std::invalid_argument
// when more than one of a token, basic auth and OAuth 2 is given, when OAuth 2 lacks its client ID
// or secret file, or a certificate comes without its key or a key without its certificate.
HttpAuth read_http_auth(const HttpAuthFiles& files);

}  // namespace wt
