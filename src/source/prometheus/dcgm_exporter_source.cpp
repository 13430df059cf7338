#include "source/prometheus/dcgm_exporter_source.hpp"

#include <cmath>
#include <tuple>

#include "source/prometheus/http_get.hpp"

namespace wt {

DcgmExporterSource::DcgmExporterSource(DcgmExporterOptions options)
    : PolledSource(options.samples, options.interval_s),
      options_(std::move(options)),
      http_(options_.auth, [this](const std::string& m) { report({options_.url, m, false}); }),
      readings_(options_.gpu, options_.declared_label) {
  std::tie(base_, path_) = split_url(options_.url);
  if (poll_now() == 0)
    throw NoTelemetryError(options_.url +
                           (options_.gpu ? ": no GPU " + std::to_string(*options_.gpu) + " among" : ": no") +
                           " DCGM GPU metrics (DCGM_FI_DEV_GPU_UTIL, ...) in the " + std::to_string(served_) +
                           " metrics served; is it dcgm-exporter's /metrics?");
  started_ = true;
}

bool DcgmExporterSource::poll(double /*start_s*/, std::vector<Sample>& out) {
  try {
    fetch(out);
  } catch (const std::exception& e) {
    if (!started_) throw;  // the constructor's scrape tells whether there is an exporter at all
    // Unreachable for a while, or a runaway page: the run goes on.
    report({options_.url, std::string(e.what()) + "; this poll is missing"});
  }
  return true;
}

void DcgmExporterSource::fetch(std::vector<Sample>& out) {
  const HttpResponse r = http_.get(base_, path_);
  if (r.status != 200)
    throw NoTelemetryError(options_.url + ": HTTP status " + std::to_string(r.status) +
                           " (is it dcgm-exporter's /metrics?)");
  const Exposition page = parse_exposition(r.body);
  for (const ExpositionError& e : page.errors) report({at(options_.url, e.line), e.message + "; line skipped"});
  Diagnostics problems;
  const auto time_ms = static_cast<std::int64_t>(std::llround(PollClock::wall_clock_s() * 1000));
  for (const MetricPoint& p : page.points) readings_.add(p, time_ms, options_.url, problems);
  for (Diagnostic& d : problems) report(std::move(d));
  out = readings_.take();
  served_ = page.points.size();
}

}  // namespace wt
