// Helpers for the tests of the replayed trace formats.
#pragma once

#include <optional>
#include <string>

#include "source/replay/replay_source.hpp"
#include "test_util.hpp"

namespace wt::test {

inline ReplayOptions with_interval(std::optional<double> interval_s, TraceFormat format = TraceFormat::Auto) {
  ReplayOptions o;
  o.format = format;
  o.interval_s = interval_s;
  return o;
}

// The InputError that replaying `path` ends with, its directory left out ("" when it reads).
inline std::string input_error(const std::string& path, const ReplayOptions& o) {
  try {
    ReplaySource source(path, o);
    drain(source);
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string dir = path.substr(0, path.rfind('/') + 1);
    return what.starts_with(dir) ? what.substr(dir.size()) : what;
  }
  return "";
}

}  // namespace wt::test
