// libFuzzer target: arbitrary bytes as a dcgm-exporter page (Prometheus text format) and as a
// Prometheus API answer, through the parsers into DCGM samples. Any crash or sanitizer report is
// a bug; InputError is the expected answer to a garbage API answer.
#include <cstdint>
#include <limits>
#include <string_view>

#include "source/prometheus/dcgm_fields.hpp"
#include "source/prometheus/prometheus_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wt::DcgmReadings readings;
  wt::Diagnostics problems;
  for (const wt::MetricPoint& p : wt::parse_exposition(text).points) readings.add(p, 1000, "fuzz", problems);
  try {
    wt::read_query_answer(text, 200, "fuzz", std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::max(), readings, problems);
  } catch (const wt::InputError&) {
  }
  (void)readings.take();
  return 0;
}
