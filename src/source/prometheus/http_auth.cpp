#include "source/prometheus/http_auth.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/diagnostic.hpp"

namespace wt {
namespace {

constexpr std::size_t kMaxSecretBytes = 64 * 1024;  // a token, not a file read by mistake

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The file's text, trimmed; what is wrong with it names the file and what it should hold.
std::string read_secret(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the " + what + " file");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  if (s.size() > kMaxSecretBytes)
    throw InputError(path + ": larger than " + std::to_string(kMaxSecretBytes / 1024) + " KiB; is it the " + what +
                     " file?");
  std::string secret = trimmed(s);
  if (secret.empty()) throw InputError(path + ": the " + what + " file is empty");
  return secret;
}

void check_readable(const std::string& path, const std::string& what) {
  if (!path.empty() && !std::ifstream(path)) throw InputError(path + ": cannot read the " + what + " file");
}

}  // namespace

bool HttpAuthFiles::any() const {
  return !bearer_token_file.empty() || !basic_auth_file.empty() || !ca_file.empty() || !cert_file.empty() ||
         !key_file.empty();
}

HttpAuth read_http_auth(const HttpAuthFiles& files) {
  const auto& [bearer_token_file, basic_auth_file, ca_file, cert_file, key_file] = files;
  if (!bearer_token_file.empty() && !basic_auth_file.empty())
    throw std::invalid_argument("--bearer-token-file and --basic-auth-file cannot be combined");
  HttpAuth auth;
  if (!bearer_token_file.empty()) {
    auth.bearer_token = read_secret(bearer_token_file, "bearer token");
    if (auth.bearer_token.find_first_of("\r\n") != std::string::npos)
      throw InputError(bearer_token_file + ": the token spans several lines; the file must hold the token alone");
  }
  if (!basic_auth_file.empty()) {
    const std::string text = read_secret(basic_auth_file, "basic auth");
    const std::string line = text.substr(0, text.find_first_of("\r\n"));
    const auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
      throw InputError(basic_auth_file + ":1: expected user:password");
    auth.basic_user = line.substr(0, colon);
    auth.basic_password = line.substr(colon + 1);
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
