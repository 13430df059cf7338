// Turns the errors a command can meet into the documented exit codes and clear messages.
#pragma once

#include <functional>

namespace wt::cli {

// Runs `body`; on InputError (1), a usage error thrown as std::invalid_argument (2) or
// NoTelemetryError (3) prints one line to stderr (and, with `json`, {"error", "exit_code"} on
// stdout so that a program reading stdout learns why) and returns the exit code.
int run_guarded(bool json, const std::function<int()>& body);

}  // namespace wt::cli
