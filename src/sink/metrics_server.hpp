// Serves text over HTTP(S) for a Prometheus scraper: GET /metrics answers with what `render`
// returns at that moment, on a thread of its own (cpp-httplib), until the server is destroyed.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "sink/metrics_credentials.hpp"

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

class MetricsServer {
 public:
  // Binds at once, so a port in use fails here (std::invalid_argument naming the address).
  // `access` (null: anyone, over http) is looked at again at each connection and scrape, so
  // renewed certificates and rotated tokens take effect without a restart.
  MetricsServer(const ListenAddress& address, std::function<std::string()> render,
                std::shared_ptr<MetricsCredentials> access = nullptr);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  int port() const { return port_; }
  // "http(s)://HOST:PORT/metrics", for the user to point a scraper at.
  std::string url() const;

 private:
  std::shared_ptr<MetricsCredentials> access_;
  std::unique_ptr<httplib::Server> server_;
  std::string host_;
  int port_ = 0;  // bound to; 0 until then
  std::atomic<bool> listening_done_ = false;
  std::thread thread_;
};

}  // namespace wt
