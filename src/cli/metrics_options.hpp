// watch's metrics endpoint flags: where it listens, and who may scrape it over what.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "sink/metrics_server.hpp"

namespace wt::cli {

struct MetricsOptions {
  std::string listen;  // [HOST]:PORT; "" = no endpoint
  std::string cert_file, key_file, client_ca_file, bearer_token_file, basic_auth_file;
};

void add_metrics_options(CLI::App& app, MetricsOptions& o);

// The files the flags name. Throws std::invalid_argument for flags that do not go together (a
// key without its certificate, a client CA without TLS, a token and basic auth, any of them
// without --metrics-listen).
MetricsAccess metrics_access(const MetricsOptions& o);

}  // namespace wt::cli
