#include "cli/metrics_options.hpp"

#include <stdexcept>

namespace wt::cli {

void add_metrics_options(CLI::App& app, MetricsOptions& o) {
  app.add_option("--metrics-listen", o.listen,
                 "Serve Prometheus metrics (job verdict, confidence, training score, mismatch per GPU) at "
                 "http(s)://ADDR/metrics while watching; ADDR: [HOST]:PORT, e.g. :9835 (port 0: any free port)");
  // Every file below is read again when it changes (MetricsCredentials), so renewals need no restart.
  app.add_option("--metrics-cert-file", o.cert_file,
                 "PEM certificate for the metrics endpoint: serve https (this and the files below are re-read "
                 "when they change)")
      ->check(CLI::ExistingFile);
  app.add_option("--metrics-key-file", o.key_file, "PEM private key of --metrics-cert-file (the two go together)")
      ->check(CLI::ExistingFile);
  app.add_option("--metrics-client-ca-file", o.client_ca_file,
                 "PEM CA certificates: the metrics endpoint accepts only scrapers with a client certificate one "
                 "of them signed (mutual TLS; needs --metrics-cert-file)")
      ->check(CLI::ExistingFile);
  app.add_option("--metrics-bearer-token-file", o.bearer_token_file,
                 "The metrics endpoint answers only scrapes that send the token in this file "
                 "(Authorization: Bearer)")
      ->check(CLI::ExistingFile);
  app.add_option("--metrics-basic-auth-file", o.basic_auth_file,
                 "The metrics endpoint answers only scrapes with the user:password on this file's first line "
                 "(HTTP basic auth)")
      ->check(CLI::ExistingFile);
}

MetricsAccess metrics_access(const MetricsOptions& o) {
  const bool any = !o.cert_file.empty() || !o.key_file.empty() || !o.client_ca_file.empty() ||
                   !o.bearer_token_file.empty() || !o.basic_auth_file.empty();
  if (any && o.listen.empty())
    throw std::invalid_argument("--metrics-cert-file, --metrics-key-file, --metrics-client-ca-file, "
                                "--metrics-bearer-token-file and --metrics-basic-auth-file need --metrics-listen");
  if (o.cert_file.empty() != o.key_file.empty())
    throw std::invalid_argument("--metrics-cert-file and --metrics-key-file go together: a certificate and its key");
  if (!o.client_ca_file.empty() && o.cert_file.empty())
    throw std::invalid_argument("--metrics-client-ca-file needs --metrics-cert-file and --metrics-key-file: client "
                                "certificates are checked over TLS");
  if (!o.bearer_token_file.empty() && !o.basic_auth_file.empty())
    throw std::invalid_argument("--metrics-bearer-token-file and --metrics-basic-auth-file cannot be combined");
  return {o.cert_file, o.key_file, o.client_ca_file, o.bearer_token_file, o.basic_auth_file};
}

}  // namespace wt::cli
