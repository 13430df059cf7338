// Exit codes, documented in the README.
#pragma once

namespace wt::exit_code {
inline constexpr int kOk = 0;             // classified / done
inline constexpr int kBadInput = 1;       // unreadable or malformed input (results for the rest still printed)
inline constexpr int kUsage = 2;          // wrong command line
inline constexpr int kNoTelemetry = 3;    // no driver, no GPU, nothing to read
}  // namespace wt::exit_code
