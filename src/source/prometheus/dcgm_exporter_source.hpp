// Live GPUs read from an NVIDIA dcgm-exporter's /metrics endpoint (or anything serving DCGM
// field metrics in the Prometheus text format), polled like the NVML source.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "source/prometheus/http_session.hpp"
#include "source/prometheus/dcgm_fields.hpp"
#include "source/polled_source.hpp"

namespace wt {

struct DcgmExporterOptions {
  std::string url;           // e.g. http://node1:9400/metrics
  std::size_t samples = 30;  // polls; 0 = until stopped
  double interval_s = 1.0;   // between polls
  std::optional<int> gpu;    // only this index
  HttpAuthFiles auth;  // credentials and trust, read again when they change (http_session.hpp)
  std::string declared_label = "";  // a label whose values samples carry as `declared` (dcgm_fields.hpp)
};

class DcgmExporterSource final : public PolledSource {
 public:
  // Scrapes once at once: throws NoTelemetryError when nothing answers or the page holds no
  // DCGM GPU metrics, std::invalid_argument for a URL that is not http(s).
  explicit DcgmExporterSource(DcgmExporterOptions options);
  std::string describe() const override { return "dcgm:" + options_.url; }

 private:
  // After the first, a scrape that fails is reported and its poll is missing; the run goes on.
  bool poll(double start_s, std::vector<Sample>& out) override;
  // One scrape's samples into `out` (bad lines and values reported); throws when nothing usable
  // answers.
  void fetch(std::vector<Sample>& out);

  DcgmExporterOptions options_;
  HttpSession http_;
  std::string base_, path_;
  DcgmReadings readings_;
  bool started_ = false;     // past the constructor's first scrape
  std::size_t served_ = 0;  // metrics on the last page read
};

}  // namespace wt
