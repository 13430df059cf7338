// The Prometheus text exposition format (what /metrics endpoints such as dcgm-exporter serve):
// `name{label="value",...} value [timestamp_ms]`, with # HELP / # TYPE comments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wt {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

struct MetricPoint {
  std::string name;
  MetricLabels labels;
  double value = 0;                       // may be NaN or infinite, as the format allows
  std::optional<std::int64_t> time_ms;    // the optional per-line timestamp
};

// The value of a label, "" when absent.
std::string_view label(const MetricLabels& labels, std::string_view key);

struct ExpositionError {
  std::size_t line = 0;  // 1-based
  std::string message;
};

struct Exposition {
  std::vector<MetricPoint> points;
  std::vector<ExpositionError> errors;  // malformed lines, skipped
};

// Parses a whole scrape. Malformed lines are skipped and listed; the rest is kept.
Exposition parse_exposition(std::string_view text);

}  // namespace wt
