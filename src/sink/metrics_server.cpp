#include "sink/metrics_server.hpp"

#include <httplib.h>

#include <openssl/ssl.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace wt {
namespace {

// Over TLS, the certificate is not fixed on the server's context but put on each connection as
// its handshake starts, from the files as they are then: a renewed certificate serves the next
// scrape, while connections already open keep theirs.
std::unique_ptr<httplib::Server> make_server(const std::shared_ptr<MetricsCredentials>& access) {
  if (!access || !access->files().tls()) return std::make_unique<httplib::Server>();
  MetricsCredentials* creds = access.get();  // outlives the server: MetricsServer holds both, the server destroyed first
  auto server = std::make_unique<httplib::SSLServer>([creds](SSL_CTX& ctx) {
    // No session resumption: a resumed session skips the handshake, and with it the check of
    // the client's certificate against the CA as it is now. A scrape every few seconds can
    // afford a full handshake.
    SSL_CTX_set_options(&ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(&ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
    SSL_CTX_set_cert_cb(
        &ctx,
        [](SSL* ssl, void* arg) {
          auto* c = static_cast<MetricsCredentials*>(arg);
          c->refresh();
          return c->apply(ssl) ? 1 : 0;
        },
        creds);
    if (!creds->files().client_ca_file.empty())
      SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    return true;
  });
  if (!server->is_valid()) throw std::runtime_error("cannot set up TLS for the metrics endpoint (OpenSSL)");
  return server;
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
                             std::shared_ptr<MetricsCredentials> access)
    : access_(std::move(access)), server_(make_server(access_)), host_(address.host) {
  // SO_REUSEADDR (restart while the old socket lingers) but not httplib's default SO_REUSEPORT,
  // which would let a second watch share the port and answer half the scrapes.
  server_->set_socket_options([](socket_t sock) {
    const int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // One worker: scrapes come every few seconds, and each idle worker is a thread kept for nothing.
  server_->new_task_queue = [] { return new httplib::ThreadPool(1); };
  if (access_ && access_->files().demands_credentials())
    server_->set_pre_routing_handler([a = access_.get()](const httplib::Request& req, httplib::Response& res) {
      a->refresh();
      if (a->authorized(req.get_header_value("Authorization"))) return httplib::Server::HandlerResponse::Unhandled;
      res.status = 401;
      res.set_header("WWW-Authenticate", a->challenge());
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
  const bool tls = access_ && access_->files().tls();
  return (tls ? "https://" : "http://") + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_) + "/metrics";
}

}  // namespace wt
