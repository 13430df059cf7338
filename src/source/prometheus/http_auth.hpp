// Credentials and trust for the HTTP sources, read from files as Prometheus' own scrape config
// reads them: a secret on the command line would show in `ps` and in shell history.
#pragma once

#include <string>

namespace wt {

struct HttpAuth {
  std::string bearer_token;           // sent as "Authorization: Bearer ..."
  std::string basic_user, basic_password;
  std::string ca_file;                // PEM bundle that verifies the server's certificate ("" = system's)
  bool any_credentials() const { return !bearer_token.empty() || !basic_user.empty(); }
};

// Reads the files named (each may be ""): a token file holds the token (surrounding blanks and
// line ends dropped), a basic-auth file "user:password" on its first line. Throws InputError naming
// the file when it cannot be read, is empty or malformed, std::invalid_argument when both a token
// and basic auth are given.
HttpAuth read_http_auth(const std::string& bearer_token_file, const std::string& basic_auth_file,
                        const std::string& ca_file);

}  // namespace wt
