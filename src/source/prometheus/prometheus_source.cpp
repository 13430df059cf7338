#include "source/prometheus/prometheus_source.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "core/json_parse.hpp"
#include "core/time_format.hpp"
#include "source/poll_clock.hpp"
#include "source/prometheus/http_get.hpp"

namespace wt {
namespace {

using nlohmann::json;

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// The first query is a minute long, to learn how many pairs a second the series give.
constexpr double kFirstChunk_s = 60;
constexpr double kMinChunk_s = 1;

// A string member of an object, else the fallback (a member of another type included: the
// answer is untrusted input, and nlohmann's value() would throw on it).
std::string text_of(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

std::size_t read_query_answer(std::string_view body, int status, const std::string& where, std::int64_t lo_ms,
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

  std::size_t pairs = 0;

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
    pairs += values->size();
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
  return pairs;
}

PrometheusSource::PrometheusSource(PrometheusOptions options)
    : options_(std::move(options)),
      http_(options_.auth, [this](const std::string& m) { report({options_.url, m, false}); }),
      readings_(options_.gpu, options_.declared_label) {
  std::tie(base_, path_) = split_url(options_.url);
  // Unix seconds from 1970 to the year 5138: anything else is a typo, and would be read for ever.
  if (!(options_.start_s >= 0 && options_.end_s < 1e11))
    throw std::invalid_argument("the time range must lie between 1970 and the year 5138");
  if (!(options_.end_s > options_.start_s))
    throw std::invalid_argument("the time range is empty: --end must be after --start");
  if (!(options_.chunk_s > 0)) throw std::invalid_argument("the chunk of time read at once must be positive");
  if (options_.follow_every_s && !(*options_.follow_every_s > 0))
    throw std::invalid_argument("the time between queries to follow must be positive");
  // The range selector is left-open; a millisecond before the start takes a sample at it.
  done_s_ = options_.start_s - 0.001;
  end_s_ = options_.end_s;
  chunk_s_ = std::min(options_.chunk_s, kFirstChunk_s);
  // The range itself must hold samples, followed or not: a --match that finds nothing is said.
  while (pending_.empty() && done_s_ < end_s_) read_chunk();
  if (pending_.empty())
    throw NoTelemetryError(options_.url + ": no DCGM GPU samples " +
                           (options_.match.empty() ? "" : "matching {" + options_.match + "} ") +
                           "between the start and the end of the range (is dcgm-exporter scraped there?)");
}

std::string PrometheusSource::selector(double span_s) const {
  std::string names;
  for (const auto n : dcgm_metric_names()) names += (names.empty() ? "" : "|") + std::string(n);
  return "{__name__=~\"" + names + "\"" + (options_.match.empty() ? "" : "," + options_.match) + "}[" +
         std::to_string(static_cast<long long>(std::ceil(span_s * 1000))) + "ms]";
}

bool PrometheusSource::next(Sample& out) {
  while (pending_pos_ == pending_.size())
    if (!read_chunk()) return false;
  out = pending_[pending_pos_++];
  return true;
}

bool PrometheusSource::wait_to_follow() {
  const double due = last_query_s_ + *options_.follow_every_s;
  for (double now = PollClock::steady_s(); now < due; now = PollClock::steady_s()) {
    if (options_.waiting && options_.waiting()) return false;
    const std::chrono::duration<double> left(due - now), slice(kWaitingSlice);
    std::this_thread::sleep_for(std::min(slice, left));
  }
  return !(options_.waiting && options_.waiting());
}

bool PrometheusSource::read_chunk() {
  pending_.clear();
  pending_pos_ = 0;
  // Once the range is read, every query follows (a failed one leaves done_s_ where it was).
  following_ = following_ || done_s_ >= end_s_;
  bool waited = false;
  if (following_) {
    if (!options_.follow_every_s) return false;
    if (done_s_ >= end_s_ || query_failing_) {
      // Caught up with the clock, or Prometheus not answering: the next query in its time.
      if (!wait_to_follow()) return false;
      end_s_ = std::max(end_s_, options_.now ? options_.now() : PollClock::wall_clock_s());
      waited = true;
    } else if (options_.waiting && options_.waiting()) {
      return false;  // behind the clock (after an outage): the next chunk at once, stop heeded
    }
  }
  // A query after a wait reaches a minute back: Prometheus stores a scrape when it completes, up
  // to its timeout after the scrape's own time. What was read already is dropped.
  constexpr double kFollowOverlap_s = 60;
  const double from = waited ? done_s_ - kFollowOverlap_s : done_s_;
  const double to = std::min(done_s_ + chunk_s_, end_s_);
  const std::string where = options_.url + " (query at " + format_iso_time(to) + "Z)";
  last_query_s_ = PollClock::steady_s();
  Diagnostics problems;
  try {
    const HttpResponse r =
        http_.get(base_, path_ + "/api/v1/query", {{"query", selector(to - from)}, {"time", seconds(to)}});
    const std::size_t pairs =
        read_query_answer(r.body, r.status, where, static_cast<std::int64_t>(std::llround(from * 1000)),
                          static_cast<std::int64_t>(std::llround(to * 1000)), readings_, problems);
    // The next chunk holds about chunk_pairs pairs at this query's rate: a fleet's thousands of
    // series are read a few seconds at a time, one GPU's an hour at a time.
    if (pairs > 0)
      chunk_s_ = std::min(options_.chunk_s, std::max(kMinChunk_s, options_.chunk_pairs * (to - from) /
                                                                      static_cast<double>(pairs)));
  } catch (const std::exception& e) {
    if (!following_) throw;
    if (!query_failing_) {
      char every[32];
      std::snprintf(every, sizeof every, "%g", *options_.follow_every_s);
      report({options_.url, std::string(e.what()) + "; asking again every " + every + " s while following"});
    }
    query_failing_ = true;
    return true;  // the same time asked for again at the next query
  }
  if (query_failing_) report({options_.url, "answering again; the samples it stored meanwhile are read", false});
  query_failing_ = false;
  for (Diagnostic& d : problems) report(std::move(d));
  done_s_ = to;
  pending_ = readings_.take();
  return true;
}

}  // namespace wt
