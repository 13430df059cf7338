#include "cli/http_auth_options.hpp"

namespace wt::cli {

void add_http_auth_options(CLI::App& app, HttpAuthFiles& files, const std::string& scope) {
  app.add_option("--bearer-token-file", files.bearer_token_file,
                 scope + ": send the token in this file (Authorization: Bearer)")
      ->check(CLI::ExistingFile);
  app.add_option("--basic-auth-file", files.basic_auth_file,
                 scope + ": HTTP basic auth from this file's first line, user:password")
      ->check(CLI::ExistingFile);
  app.add_option("--ca-file", files.ca_file,
                 scope + ": PEM certificates that verify an https:// server (default: the system's)")
      ->check(CLI::ExistingFile);
  app.add_option("--cert-file", files.cert_file,
                 scope + ": PEM client certificate for an https:// server that asks for one (mutual TLS)")
      ->check(CLI::ExistingFile);
  app.add_option("--key-file", files.key_file, scope + ": PEM private key of --cert-file (the two go together)")
      ->check(CLI::ExistingFile);
  app.add_option("--oauth2-token-url", files.oauth2_token_url,
                 scope + ": fetch a bearer token from this OAuth 2 token endpoint (client credentials), renewed "
                         "before it expires");
  app.add_option("--oauth2-client-id", files.oauth2_client_id, scope + ": the OAuth 2 client's ID");
  app.add_option("--oauth2-client-secret-file", files.oauth2_client_secret_file,
                 scope + ": the OAuth 2 client's secret, alone in this file")
      ->check(CLI::ExistingFile);
  app.add_option("--oauth2-scope", files.oauth2_scopes, scope + ": an OAuth 2 scope to ask for (repeatable)")
      ->delimiter(',');
}

std::string http_auth_flags() {
  return "--bearer-token-file, --basic-auth-file, --ca-file, --cert-file, --key-file and the --oauth2-* options";
}

}  // namespace wt::cli
