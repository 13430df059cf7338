// The project's own trace format: one JSON object per line (docs/trace-format.md).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"

namespace wt {

inline constexpr std::string_view kJsonlFormatName = "workloadtruth-trace";
inline constexpr int kJsonlFormatVersion = 1;
inline constexpr double kMaxTraceTimeS = 253'402'300'799.0;  // 9999-12-31T23:59:59

class JsonlTraceParser {
 public:
  using Report = std::function<void(Diagnostic)>;
  JsonlTraceParser(std::string origin, Report report);

  // Returns true with `out` filled for a sample line; false for the header, a blank line or a
  // bad line (then reported, naming file and line).
  bool parse_line(std::string_view line, std::size_t line_no, Sample& out);

 private:
  void bad(std::size_t line_no, std::string message);

  struct KnownGpu {
    GpuIdentity identity;
    GpuRef ref;
    double last_time_s;
  };
  std::string origin_;
  Report report_;
  std::vector<KnownGpu> gpus_;
  std::vector<std::string> unknown_keys_;  // reported once each
};

// One sample as a JSONL line (no newline).
std::string to_jsonl(const Sample& s);
std::string jsonl_header();

}  // namespace wt
