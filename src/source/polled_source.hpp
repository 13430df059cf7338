// A live source that reads every GPU at once on a schedule (NVML, AMD SMI, a dcgm-exporter) and
// hands each poll's samples out one by one; what a poll reads is the vendor's own.
#pragma once

#include <cstddef>
#include <vector>

#include "core/sample.hpp"
#include "source/poll_clock.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

class PolledSource : public TelemetrySource {
 public:
  // Blocks until the next poll is due when the last one's samples are handed out.
  bool next(Sample& out) final;

 protected:
  // `samples`: polls before the end, 0 = until stopped. `interval_s`: between polls.
  PolledSource(std::size_t samples, double interval_s) : samples_(samples), clock_(interval_s) {}

  // Reads one poll into `out` (left empty where this poll failed and the run goes on);
  // `start_s` is its start on the steady clock. False ends the stream (every GPU lost).
  virtual bool poll(double start_s, std::vector<Sample>& out) = 0;

  // Waits for the next poll and reads it, as next() does; for a constructor that must see a
  // first poll before it can say the source works. Returns how many samples it read.
  std::size_t poll_now();

 private:
  std::size_t samples_;
  PollClock clock_;
  bool ended_ = false;
  std::vector<Sample> pending_;
  std::size_t pending_pos_ = 0;
};

}  // namespace wt
