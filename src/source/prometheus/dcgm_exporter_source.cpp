#include "source/prometheus/dcgm_exporter_source.hpp"

#include <cmath>
#include <tuple>

#include "source/prometheus/http_get.hpp"

namespace wt {

DcgmExporterSource::DcgmExporterSource(DcgmExporterOptions options)
    : options_(std::move(options)), clock_(options_.interval_s), readings_(options_.gpu) {
  std::tie(base_, path_) = split_url(options_.url);
  if (const std::size_t served = fetch(); pending_.empty())
    throw NoTelemetryError(options_.url +
                           (options_.gpu ? ": no GPU " + std::to_string(*options_.gpu) + " among" : ": no") +
                           " DCGM GPU metrics (DCGM_FI_DEV_GPU_UTIL, ...) in the " + std::to_string(served) +
                           " metrics served; is it dcgm-exporter's /metrics?");
}

bool DcgmExporterSource::next(Sample& out) {
  while (pending_pos_ == pending_.size()) {
    if (options_.samples > 0 && polls_ >= options_.samples) return false;
    try {
      fetch();
    } catch (const std::exception& e) {  // unreachable for a while, or a runaway page: the run goes on
      report({options_.url, std::string(e.what()) + "; this poll is missing"});
    }
  }
  out = pending_[pending_pos_++];
  return true;
}

std::size_t DcgmExporterSource::fetch() {
  clock_.wait();
  ++polls_;
  pending_.clear();
  pending_pos_ = 0;
  const HttpResponse r = http_get(base_, path_, options_.auth);
  if (r.status != 200)
    throw NoTelemetryError(options_.url + ": HTTP status " + std::to_string(r.status) +
                           " (is it dcgm-exporter's /metrics?)");
  const Exposition page = parse_exposition(r.body);
  for (const ExpositionError& e : page.errors) report({at(options_.url, e.line), e.message + "; line skipped"});
  Diagnostics problems;
  const auto time_ms = static_cast<std::int64_t>(std::llround(PollClock::wall_clock_s() * 1000));
  for (const MetricPoint& p : page.points) readings_.add(p, time_ms, options_.url, problems);
  for (Diagnostic& d : problems) report(std::move(d));
  pending_ = readings_.take();
  return page.points.size();
}

}  // namespace wt
