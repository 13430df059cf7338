// Fixture files of the fake vendor libraries (tests/fake_nvml, fake_rocm, fake_amdsmi): one
// record a line, tokens separated by blanks, '#' starts a comment line. Each fake gives the
// records their meaning; the reading, the numbers and the "line N:" errors are shared here.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace wt::fake {

// A non-negative integer token in `base`; throws std::runtime_error on anything else.
inline std::uint64_t parse_number(const std::string& token, int base = 10) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(token.c_str(), &end, base);
  if (token.empty() || token[0] == '-' || *end != '\0' || errno != 0)
    throw std::runtime_error("bad number '" + token + "'");
  return x;
}

// The "TIME V1 V2 ..." (or "lost") of the AMD fakes' poll records: one value for every field of
// Poll::v, "-" where the GPU does not support the field and "!" where it denies access; the
// library's own codes for those two are given.
template <class Poll, class Status>
Poll parse_status_poll(std::istringstream& in, Status not_supported, Status no_permission) {
  Poll p;
  std::string token;
  in >> token;
  if (token == "lost") {
    p.lost = true;
    return p;
  }
  p.time_ns = static_cast<std::uint64_t>(std::stod(token) * 1e9);
  for (auto& v : p.v) {
    if (!(in >> token)) throw std::runtime_error("too few values");
    if (token == "-")
      v.status = not_supported;
    else if (token == "!")
      v.status = no_permission;
    else
      v.x = parse_number(token);
  }
  if (in >> token) throw std::runtime_error("extra value '" + token + "'");
  return p;
}

// Calls record(kind, rest) for every record line of the file at `path`, `rest` holding the
// tokens after the first. What it throws comes back as std::runtime_error("line N: why").
template <class Record>
void read_records(const char* path, Record record) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot open the fixture");
  std::string line;
  for (int n = 1; std::getline(file, line); ++n) {
    try {
      std::istringstream in(line);
      std::string kind;
      if (!(in >> kind) || kind[0] == '#') continue;
      record(kind, in);
    } catch (const std::exception& e) {  // std::stod throws std::invalid_argument on a bad time
      throw std::runtime_error("line " + std::to_string(n) + ": " + e.what());
    }
  }
}

}  // namespace wt::fake
