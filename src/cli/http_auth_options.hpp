// The flags that name credential and TLS files for the HTTP sources, shared by the source-reading
// commands and `mcp` so that both spell and check them alike.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "source/prometheus/http_auth.hpp"

namespace wt::cli {

// `scope` opens each flag's help: which backends or URL the files are for.
void add_http_auth_options(CLI::App& app, HttpAuthFiles& files, const std::string& scope);

// Those flags named in one phrase, for the messages that refuse them.
std::string http_auth_flags();

}  // namespace wt::cli
