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
}

}  // namespace wt::cli
