// Problems met while reading telemetry, reported with where they happened.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace wt {

// A problem with the input that does not stop the run: a bad line is skipped, a lost GPU
// stops being read, and the rest is still classified. Any diagnostic makes the run exit 1.
// A note (an ignored column, say) is shown but leaves the exit code alone.
struct Diagnostic {
  std::string where;    // "file.csv:17", "GPU 3", "nvml"
  std::string message;  // what is wrong, in words a user can act on
  bool is_error = true;
  std::string text() const { return where.empty() ? message : where + ": " + message; }
};

using Diagnostics = std::vector<Diagnostic>;

// Input that cannot be read at all (missing file, no header, not a trace). Exit code 1.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No telemetry can be had: no driver, no GPU. Exit code 3.
class NoTelemetryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Formats "where: message" for errors tied to a place in a file.
inline std::string at(const std::string& origin, std::size_t line) {
  return origin + ":" + std::to_string(line);
}

}  // namespace wt
