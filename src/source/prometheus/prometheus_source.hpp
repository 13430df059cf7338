// Recorded GPU telemetry read back from a Prometheus server that scrapes dcgm-exporter: the
// raw DCGM samples of a time range, through the HTTP API, a chunk of time at a time.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <cstdint>
#include <vector>

#include "core/waiting_hook.hpp"
#include "source/prometheus/dcgm_fields.hpp"
#include "source/prometheus/http_session.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

// One answer of /api/v1/query to a range selector: its samples in (lo_ms, hi_ms] into `readings`.
// Returns how many [time, value] pairs the answer held. Throws InputError when it is not the
// API's JSON or reports an error; bad pairs go to `problems`.
std::size_t read_query_answer(std::string_view body, int status, const std::string& where, std::int64_t lo_ms,
                       std::int64_t hi_ms, DcgmReadings& readings, Diagnostics& problems);

struct PrometheusOptions {
  std::string url;      // the server, e.g. http://prometheus:9090 (a path prefix is kept)
  std::string match;    // extra label matchers, e.g. Hostname="node1",gpu="0" ("" = none)
  double start_s = 0;   // Unix seconds
  double end_s = 0;
  double chunk_s = 3600;  // the most time asked for at once (less where many series answer)
  // About this many [time, value] pairs a query (each some 30 bytes of JSON, and a sample's field
  // in memory): bounds memory and the server's work over a fleet's thousands of series.
  double chunk_pairs = 500'000;
  std::optional<int> gpu;
  std::string declared_label;  // a label whose values samples carry as `declared` (dcgm_fields.hpp)
  HttpAuthFiles auth;  // credentials and trust, read again when they change (http_session.hpp)
  // Set: after the range, ask for what Prometheus has stored since, this often, until `waiting`
  // (called while it waits: core/waiting_hook.hpp) returns true.
  std::optional<double> follow_every_s;
  WaitingHook waiting;
  std::function<double()> now;  // the wall clock, Unix seconds, ms precision (unset: the system's)
};

class PrometheusSource final : public TelemetrySource {
 public:
  // Reads until the first chunk holding samples. Throws std::invalid_argument for a bad URL or
  // time range, NoTelemetryError when nothing answers or no DCGM sample lies in the range,
  // InputError when the server refuses the query or answers something else than its API. While
  // following, a query that fails is said once and asked again (Prometheus may restart).
  explicit PrometheusSource(PrometheusOptions options);
  bool next(Sample& out) override;
  std::string describe() const override { return "prometheus:" + options_.url; }

  // The PromQL range selector for `span_s` seconds back from the query's time (public for tests).
  std::string selector(double span_s) const;

 private:
  // The next chunk's samples into pending_ (none, while following, when nothing came); false
  // when the range is done, or the wait to follow is stopped.
  bool read_chunk();
  // Waits until the next query to follow is due; false when `stop` says so first.
  bool wait_to_follow();

  PrometheusOptions options_;
  HttpSession http_;
  std::string base_, path_;
  double done_s_;  // samples up to this time are read
  double end_s_;   // of the range; moves on while following
  double chunk_s_;  // time asked for by the next query: sized to the number of series
  double last_query_s_ = 0;  // steady clock
  bool following_ = false;      // the range is read; queries now ask for what came since
  bool query_failing_ = false;  // while following: said once until a query answers again
  DcgmReadings readings_;
  std::vector<Sample> pending_;
  std::size_t pending_pos_ = 0;
};

}  // namespace wt
