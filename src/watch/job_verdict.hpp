// Job-level hysteresis: turns a GPU's stream of window verdicts into a job verdict that does
// not flap when single windows disagree. See docs/watch.md ("Hysteresis").
#pragma once

#include <cstddef>
#include <optional>

#include "classify/verdict.hpp"

namespace wt::watch {

struct HysteresisOptions {
  std::size_t hold = 3;             // a new class takes over after this many windows in a row ...
  double switch_confidence = 0.97;  // ... or at once from one window this confident (not UNKNOWN)
};

// The job verdict of one GPU.
class JobVerdict {
 public:
  explicit JobVerdict(HysteresisOptions options) : options_(options) {}

  // Feeds the next window's verdict; true when the job verdict changed (the first window
  // always sets it).
  bool update(WorkloadType type, double confidence, double window_start_s);

  bool known() const { return type_.has_value(); }
  WorkloadType type() const { return type_.value_or(WorkloadType::Unknown); }
  // Mean confidence of the windows that agreed with the job verdict since it was set.
  double confidence() const { return agreeing_ == 0 ? 0 : confidence_sum_ / static_cast<double>(agreeing_); }
  // Start of the first window of the run that set the current verdict (telemetry clock).
  double since_s() const { return since_s_; }
  // The class that is challenging the job verdict and for how many windows in a row.
  std::optional<WorkloadType> challenger() const { return challenger_; }
  std::size_t challenger_run() const { return challenger_run_; }

 private:
  void set(WorkloadType type, double since_s);

  HysteresisOptions options_;
  std::optional<WorkloadType> type_;
  double since_s_ = 0;
  double confidence_sum_ = 0;
  std::size_t agreeing_ = 0;
  std::optional<WorkloadType> challenger_;
  std::size_t challenger_run_ = 0;
  double challenger_since_s_ = 0;
  double challenger_confidence_sum_ = 0;
};

}  // namespace wt::watch
