// Serves text over HTTP(S) for a Prometheus scraper: GET /metrics answers with what `render`
// returns at that moment, on a thread of its own (cpp-httplib), until the server is destroyed.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "core/secret_file.hpp"

namespace httplib {
class Server;
}

namespace wt {

struct ListenAddress {
  std::string host;  // "0.0.0.0" when the address named none
  int port = 0;      // 0: any free port
};

// "HOST:PORT", ":PORT", "PORT" or "[IPv6]:PORT"; throws std::invalid_argument naming the flag.
ListenAddress parse_listen_address(const std::string& text, const std::string& flag);

// Who may scrape, and over what. The names match what a Prometheus scrape config sends
// (tls_config, authorization, basic_auth), so the same files can serve both ends.
struct MetricsAccess {
  std::string cert_file, key_file;         // PEM certificate and key: serve https
  std::string client_ca_file;              // PEM CA bundle: demand a client certificate it signed
  std::string bearer_token;                // demand "Authorization: Bearer <token>"
  std::optional<BasicCredentials> basic;   // demand basic auth with these
  bool tls() const { return !cert_file.empty(); }
};

class MetricsServer {
 public:
  // Binds at once, so a port in use fails here (std::invalid_argument naming the address); a
  // certificate, key or client CA that does not load fails here too (InputError naming the files).
  MetricsServer(const ListenAddress& address, std::function<std::string()> render, const MetricsAccess& access = {});
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  int port() const { return port_; }
  // "http(s)://HOST:PORT/metrics", for the user to point a scraper at.
  std::string url() const;

 private:
  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  std::string host_;
  int port_ = 0;  // bound to; 0 until then
  std::atomic<bool> listening_done_ = false;
  std::thread thread_;
};

}  // namespace wt
