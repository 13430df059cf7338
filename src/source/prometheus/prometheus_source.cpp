#include "source/prometheus/prometheus_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

#include "core/json_parse.hpp"
#include "core/time_format.hpp"
#include "source/prometheus/http_get.hpp"

namespace wt {
namespace {

using nlohmann::json;

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// A string member of an object, else the fallback (a member of another type included: the
// answer is untrusted input, and nlohmann's value() would throw on it).
std::string text_of(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

void read_query_answer(std::string_view body, int status, const std::string& where, std::int64_t lo_ms,
                       std::int64_t hi_ms, DcgmReadings& readings, Diagnostics& problems) {
  const json answer = parse_json(body);
  if (answer.is_discarded() || !answer.is_object())
    throw InputError(where + ": HTTP status " + std::to_string(status) +
                     ", and the answer is not Prometheus API JSON (is --url the Prometheus server?)");
  if (text_of(answer, "status", "") != "success")
    throw InputError(where + ": Prometheus refused the query: " + text_of(answer, "errorType", "error") + ": " +
                     text_of(answer, "error", "(no reason given)"));
  const json* result = nullptr;
  if (const auto d = answer.find("data"); d != answer.end() && text_of(*d, "resultType", "") == "matrix")
    if (const auto res = d->find("result"); res != d->end() && res->is_array()) result = &*res;
  if (result == nullptr) throw InputError(where + ": the answer holds no range-vector (matrix) result");

  for (const json& series : *result) {
    const auto metric = series.is_object() ? series.find("metric") : series.end();
    const auto values = series.is_object() ? series.find("values") : series.end();
    if (metric == series.end() || !metric->is_object() || values == series.end() || !values->is_array()) {
      problems.push_back({where, "a series without its metric labels or values; skipped"});
      continue;
    }
    MetricPoint p;
    for (const auto& [k, v] : metric->items()) {
      if (!v.is_string()) continue;
      if (k == "__name__")
        p.name = v.get<std::string>();
      else
        p.labels.emplace_back(k, v.get<std::string>());
    }
    for (const json& tv : *values) {
      // Times are Unix seconds; beyond year 33658 they are garbage, not a time.
      if (!tv.is_array() || tv.size() != 2 || !tv[0].is_number() || !tv[1].is_string() ||
          !(std::abs(tv[0].get<double>()) < 1e12)) {
        problems.push_back({where, p.name + ": a [time, \"value\"] pair was expected; skipped"});
        continue;
      }
      const auto t_ms = static_cast<std::int64_t>(std::llround(tv[0].get<double>() * 1000));
      if (t_ms <= lo_ms || t_ms > hi_ms) continue;  // the server's edges may overlap the neighbours'
      const std::string text = tv[1].get<std::string>();
      char* end = nullptr;
      p.value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0') {
        problems.push_back({where, p.name + ": '" + text.substr(0, 40) + "' is not a number; skipped"});
        continue;
      }
      readings.add(p, t_ms, where, problems);
    }
  }
}

PrometheusSource::PrometheusSource(PrometheusOptions options)
    : options_(std::move(options)),
      http_(options_.auth, [this](const std::string& m) { report({options_.url, m, false}); }),
      readings_(options_.gpu) {
  std::tie(base_, path_) = split_url(options_.url);
  // Unix seconds from 1970 to the year 5138: anything else is a typo, and would be read for ever.
  if (!(options_.start_s >= 0 && options_.end_s < 1e11))
    throw std::invalid_argument("the time range must lie between 1970 and the year 5138");
  if (!(options_.end_s > options_.start_s))
    throw std::invalid_argument("the time range is empty: --end must be after --start");
  if (!(options_.chunk_s > 0)) throw std::invalid_argument("the chunk of time read at once must be positive");
  // The range selector is left-open; a millisecond before the start takes a sample at it.
  done_s_ = options_.start_s - 0.001;
  while (pending_.empty())
    if (!read_chunk())
      throw NoTelemetryError(options_.url + ": no DCGM GPU samples " +
                             (options_.match.empty() ? "" : "matching {" + options_.match + "} ") +
                             "between the start and the end of the range (is dcgm-exporter scraped there?)");
}

std::string PrometheusSource::selector() const {
  std::string names;
  for (const auto n : dcgm_metric_names()) names += (names.empty() ? "" : "|") + std::string(n);
  const double span = std::min(options_.chunk_s, options_.end_s - done_s_);
  return "{__name__=~\"" + names + "\"" + (options_.match.empty() ? "" : "," + options_.match) + "}[" +
         std::to_string(static_cast<long long>(std::ceil(span * 1000))) + "ms]";
}

bool PrometheusSource::next(Sample& out) {
  while (pending_pos_ == pending_.size())
    if (!read_chunk()) return false;
  out = pending_[pending_pos_++];
  return true;
}

bool PrometheusSource::read_chunk() {
  pending_.clear();
  pending_pos_ = 0;
  if (done_s_ >= options_.end_s) return false;
  const double to = std::min(done_s_ + options_.chunk_s, options_.end_s);
  const std::string where = options_.url + " (query at " + format_iso_time(to) + "Z)";
  const HttpResponse r = http_.get(base_, path_ + "/api/v1/query", {{"query", selector()}, {"time", seconds(to)}});
  Diagnostics problems;
  read_query_answer(r.body, r.status, where, static_cast<std::int64_t>(std::llround(done_s_ * 1000)),
                    static_cast<std::int64_t>(std::llround(to * 1000)), readings_, problems);
  for (Diagnostic& d : problems) report(std::move(d));
  done_s_ = to;
  pending_ = readings_.take();
  return true;
}

}  // namespace wt
