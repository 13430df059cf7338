#include "core/secret_file.hpp"

#include <fstream>
#include <sstream>

#include "core/diagnostic.hpp"

namespace wt {
namespace {

constexpr std::size_t kMaxSecretBytes = 64 * 1024;  // a token, not a file read by mistake

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::string read_secret_file(const std::string& path, const std::string& what) {
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

std::string read_bearer_token_file(const std::string& path) {
  std::string token = read_secret_file(path, "bearer token");
  if (token.find_first_of("\r\n") != std::string::npos)
    throw InputError(path + ": the token spans several lines; the file must hold the token alone");
  return token;
}

BasicCredentials read_basic_auth_file(const std::string& path) {
  const std::string text = read_secret_file(path, "basic auth");
  const std::string line = text.substr(0, text.find_first_of("\r\n"));
  const auto colon = line.find(':');
  if (colon == std::string::npos || colon == 0) throw InputError(path + ":1: expected user:password");
  return {line.substr(0, colon), line.substr(colon + 1)};
}

void check_readable(const std::string& path, const std::string& what) {
  if (!path.empty() && !std::ifstream(path)) throw InputError(path + ": cannot read the " + what + " file");
}

}  // namespace wt
