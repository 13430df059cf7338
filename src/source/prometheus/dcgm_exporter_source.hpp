// Live GPUs read from an NVIDIA dcgm-exporter's /metrics endpoint (or anything serving DCGM
// field metrics in the Prometheus text format), polled like the NVML source.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "source/poll_clock.hpp"
#include "source/prometheus/http_auth.hpp"
#include "source/prometheus/dcgm_fields.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

struct DcgmExporterOptions {
  std::string url;           // e.g. http://node1:9400/metrics
  std::size_t samples = 30;  // polls; 0 = until stopped
  double interval_s = 1.0;   // between polls
  std::optional<int> gpu;    // only this index
  HttpAuth auth;
};

class DcgmExporterSource final : public TelemetrySource {
 public:
  // Scrapes once at once: throws NoTelemetryError when nothing answers or the page holds no
  // DCGM GPU metrics, std::invalid_argument for a URL that is not http(s).
  explicit DcgmExporterSource(DcgmExporterOptions options);
  bool next(Sample& out) override;
  std::string describe() const override { return "dcgm:" + options_.url; }

 private:
  // One scrape's samples into pending_ (bad lines and values reported); throws when nothing
  // usable answers. Returns how many metrics the page held.
  std::size_t fetch();

  DcgmExporterOptions options_;
  std::string base_, path_;
  PollClock clock_;
  std::size_t polls_ = 0;
  DcgmReadings readings_;
  std::vector<Sample> pending_;
  std::size_t pending_pos_ = 0;
};

}  // namespace wt
