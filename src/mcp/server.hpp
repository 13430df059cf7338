// The stdio loop: one JSON-RPC message per line in, one response per request out, calls run
// one at a time. stdout carries protocol messages only; the log goes to `log` (stderr).
#pragma once

#include <cstddef>
#include <ostream>

#include "mcp/protocol.hpp"

namespace wt::mcp {

struct ServeOptions {
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // a longer line is answered with an error and dropped
  bool json_log = false;                            // log lines as {"level", "message"} objects
};

// Serves until the input ends or the output is closed, then returns; a client that disconnects
// mid-call ends the loop once that call is done (the reply it cannot take is dropped). Throws
// InputError when the input cannot be read.
void serve(int in_fd, int out_fd, Session& session, const ServeOptions& options, std::ostream& log);

}  // namespace wt::mcp
