// Secrets read from files, as Prometheus reads them: a secret on the command line would show in
// `ps` and in shell history. Shared by the HTTP sources (credentials they send) and watch's
// metrics endpoint (credentials it demands).
#pragma once

#include <string>

namespace wt {

// The file's text with surrounding blanks and line ends dropped. Throws InputError naming the
// file (and calling it the `what` file) when it cannot be read, is empty, or is too large to be one.
std::string read_secret_file(const std::string& path, const std::string& what);

// A bearer token file: the token alone, on one line.
std::string read_bearer_token_file(const std::string& path);

struct BasicCredentials {
  std::string user, password;
};
// A basic-auth file: "user:password" on its first line.
BasicCredentials read_basic_auth_file(const std::string& path);

// Throws InputError naming the file when `path` is set but cannot be read.
void check_readable(const std::string& path, const std::string& what);

}  // namespace wt
