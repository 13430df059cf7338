#include "sink/metrics_server.hpp"

#include <httplib.h>

#include <openssl/crypto.h>
#include <openssl/pem.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "core/base64.hpp"
#include "core/diagnostic.hpp"

namespace wt {
namespace {

// httplib does not check a client CA bundle: one that holds no certificate would turn every
// scraper away at the handshake, with nothing said.
void check_client_ca(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) throw InputError(path + ": cannot read the client CA file");
  X509* cert = PEM_read_X509(f, nullptr, nullptr, nullptr);
  std::fclose(f);
  if (cert == nullptr) throw InputError(path + ": no PEM certificate in the client CA file");
  X509_free(cert);
}

std::unique_ptr<httplib::Server> make_server(const MetricsAccess& a) {
  if (!a.tls()) return std::make_unique<httplib::Server>();
  if (!a.client_ca_file.empty()) check_client_ca(a.client_ca_file);
  auto server = std::make_unique<httplib::SSLServer>(a.cert_file.c_str(), a.key_file.c_str(),
                                                     a.client_ca_file.empty() ? nullptr : a.client_ca_file.c_str());
  if (!server->is_valid())
    throw InputError(a.cert_file + ", " + a.key_file +
                     ": cannot load the metrics certificate and its key (PEM files, the key the certificate's)");
  return server;
}

// The Authorization header a scrape must carry, and the challenge that answers one without it;
// empty when anyone may scrape.
struct Demand {
  std::string authorization, challenge;
};

Demand demand_of(const MetricsAccess& a) {
  if (!a.bearer_token.empty()) return {"Bearer " + a.bearer_token, "Bearer realm=\"workloadtruth\""};
  if (a.basic) return {"Basic " + base64_encode(a.basic->user + ":" + a.basic->password), "Basic realm=\"workloadtruth\""};
  return {};
}

}  // namespace

ListenAddress parse_listen_address(const std::string& text, const std::string& flag) {
  ListenAddress a;
  std::string port = text;
  if (const auto colon = text.rfind(':'); colon != std::string::npos) {
    a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (a.host.size() >= 2 && a.host.front() == '[' && a.host.back() == ']') a.host = a.host.substr(1, a.host.size() - 2);
  }
  if (a.host.empty()) a.host = "0.0.0.0";
  const auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), a.port);
  if (port.empty() || ec != std::errc{} || p != port.data() + port.size() || a.port < 0 || a.port > 65535)
    throw std::invalid_argument(flag + " '" + text + "': expected [HOST]:PORT, e.g. :9835 or 127.0.0.1:9835");
  return a;
}

MetricsServer::MetricsServer(const ListenAddress& address, std::function<std::string()> render,
                             const MetricsAccess& access)
    : server_(make_server(access)), tls_(access.tls()), host_(address.host) {
  // SO_REUSEADDR (restart while the old socket lingers) but not httplib's default SO_REUSEPORT,
  // which would let a second watch share the port and answer half the scrapes.
  server_->set_socket_options([](socket_t sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // One worker: scrapes come every few seconds, and each idle worker is a thread kept for nothing.
  server_->new_task_queue = [] { return new httplib::ThreadPool(1); };
  if (Demand d = demand_of(access); !d.authorization.empty())
    server_->set_pre_routing_handler([d = std::move(d)](const httplib::Request& req, httplib::Response& res) {
      const std::string got = req.get_header_value("Authorization");
      // Compared in constant time, so the answer's timing does not reveal how much of a guess was right.
      if (got.size() == d.authorization.size() && CRYPTO_memcmp(got.data(), d.authorization.data(), got.size()) == 0)
        return httplib::Server::HandlerResponse::Unhandled;
      res.status = 401;
      res.set_header("WWW-Authenticate", d.challenge);
      res.set_content("unauthorized\n", "text/plain; charset=utf-8");
      return httplib::Server::HandlerResponse::Handled;
    });
  server_->Get("/metrics", [render](const httplib::Request&, httplib::Response& res) {
    res.set_content(render(), "text/plain; version=0.0.4; charset=utf-8");
  });
  server_->Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("WorkloadTruth: metrics at /metrics\n", "text/plain; charset=utf-8");
  });
  if (address.port == 0)
    port_ = server_->bind_to_any_port(address.host);  // the port taken, or -1
  else if (server_->bind_to_port(address.host, address.port))
    port_ = address.port;
  if (port_ <= 0)
    throw std::invalid_argument("cannot listen on " + address.host + ":" + std::to_string(address.port) +
                                " (the port is in use, or the host is not an address of this machine)");
  thread_ = std::thread([this] {
    server_->listen_after_bind();
    listening_done_ = true;
  });
  // stop() only stops a server that has begun listening: wait for that, so that a watch that
  // ends at once (a short replay) can still shut it down.
  while (!server_->is_running() && !listening_done_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!server_->is_running() && listening_done_) {
    thread_.join();
    throw std::invalid_argument("cannot serve on " + address.host + ":" + std::to_string(port_));
  }
}

MetricsServer::~MetricsServer() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string MetricsServer::url() const {
  const bool v6 = host_.find(':') != std::string::npos;
  return (tls_ ? "https://" : "http://") + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_) + "/metrics";
}

}  // namespace wt
