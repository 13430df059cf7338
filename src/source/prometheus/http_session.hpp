// The HTTP sources' requests with their credentials, kept good while a watch runs for months:
// the token and basic-auth files are read again when they change (a rotated service-account
// token; a file that no longer reads keeps what was last read), and with OAuth 2 (client
// credentials, RFC 6749 4.4) a token is fetched from the endpoint, kept until a minute before it
// expires, and fetched anew once when the server refuses it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/file_stamp.hpp"
#include "source/prometheus/http_auth.hpp"
#include "source/prometheus/http_get.hpp"

namespace wt {

class HttpSession {
 public:
  // Told, once per change, of a credential file that changed and no longer reads.
  using Note = std::function<void(const std::string& message)>;

  // Reads the files now, and fetches no token yet: throws as read_http_auth.
  explicit HttpSession(HttpAuthFiles files = {}, Note note = {});

  // http_get with the credentials of the moment. Throws as http_get; with OAuth 2 also
  // NoTelemetryError when the token endpoint does not answer, InputError when it refuses the
  // client (its error code and description quoted) or answers with no bearer token.
  HttpResponse get(const std::string& base, const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& params = {},
                   std::size_t max_bytes = 256u << 20, double timeout_s = 10);

 private:
  void reread_changed_files();
  void fetch_token(double timeout_s);

  HttpAuthFiles files_;
  Note note_;
  HttpAuth auth_;
  std::vector<FileStamp> stamps_;  // of the token, basic-auth and client-secret files as last read
  std::optional<double> token_expires_s_;  // steady clock; nullopt: no expiry given
};

}  // namespace wt
