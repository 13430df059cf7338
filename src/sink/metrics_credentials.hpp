// What watch's metrics endpoint demands of a scraper, read from the files it was given and read
// again whenever one of them changes: certificates are renewed (cert-manager, ACME) and tokens
// rotated while a watch runs for months, and a restart would lose its windows and job state.
// A set of files that no longer loads (a renewal half written, a key that is not the
// certificate's) keeps the set last loaded, and says so once per change.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/types.h>

#include "core/file_stamp.hpp"
#include "core/secret_file.hpp"

namespace wt {

// Who may scrape, and over what. The names match what a Prometheus scrape config sends
// (tls_config, authorization, basic_auth), so the same files can serve both ends.
struct MetricsAccess {
  std::string cert_file, key_file;  // PEM certificate (its chain after it) and key: serve https
  std::string client_ca_file;       // PEM CA bundle: demand a client certificate it signed
  std::string bearer_token_file;    // demand "Authorization: Bearer <the file's token>"
  std::string basic_auth_file;      // demand basic auth with the file's user:password
  bool tls() const { return !cert_file.empty(); }
  bool demands_credentials() const { return !bearer_token_file.empty() || !basic_auth_file.empty(); }
};

class MetricsCredentials {
 public:
  // A reload done (failed false) or one that did not load (failed true), in a sentence.
  using Note = std::function<void(const std::string& message, bool failed)>;

  // Loads every file named; throws InputError naming the file that does not load, as at start
  // nothing is being served yet. `note` hears of later reloads and of reloads that failed (it
  // is called from the server's thread).
  MetricsCredentials(MetricsAccess files, Note note);
  ~MetricsCredentials();
  MetricsCredentials(const MetricsCredentials&) = delete;
  MetricsCredentials& operator=(const MetricsCredentials&) = delete;

  const MetricsAccess& files() const { return files_; }
  // Reloads the files if any changed (size, time or inode: a Kubernetes secret swaps a link)
  // since they were last looked at. Cheap when none did: a stat per file.
  void refresh();
  // Whether a request's Authorization header is the one demanded (always, when none is),
  // compared in constant time so the answer's timing does not tell how much of a guess was right.
  bool authorized(std::string_view authorization) const;
  // The WWW-Authenticate challenge for a request turned away.
  std::string challenge() const;
  // Puts the current certificate, its chain and key, and the client CA on a TLS connection
  // being set up. False if the connection would not take them.
  bool apply(SSL* ssl) const;

 private:
  struct Loaded;

  static std::shared_ptr<const Loaded> load(const MetricsAccess& files);
  std::vector<FileStamp> stamps() const;
  std::shared_ptr<const Loaded> current() const;

  MetricsAccess files_;
  Note note_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Loaded> loaded_;
  std::vector<FileStamp> loaded_stamps_, failed_stamps_;
};

}  // namespace wt
