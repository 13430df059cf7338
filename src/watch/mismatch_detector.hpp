// Declared-vs-observed mismatch: raised when a GPU keeps doing, confidently, something other
// than what its owner declared. See docs/watch.md ("Declared labels").
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "classify/verdict.hpp"

namespace wt::watch {

struct MismatchOptions {
  double min_confidence = 0.9;  // a window counts only at this confidence or above ...
  double persist_s = 300;       // ... and the alert needs such windows in a row spanning this long
  std::size_t clear_after = 3;  // windows in a row that do not count before the episode ends
};

struct MismatchEvent {
  enum class Kind { Raised, Cleared } kind;
  WorkloadType declared;
  WorkloadType observed;      // the class of the window that raised (or last counted toward) it
  double confidence;          // mean over the counted windows
  double since_s;             // start of the first counted window (telemetry clock)
  double at_s;                // end of the window that raised or cleared it
  std::string declared_by{};  // the mapping key(s) behind `declared` (filled by the Watcher)
  std::string job_group{};    // the job whose pooled verdict was observed, "" for the GPU's own (Watcher)
};

class MismatchDetector {
 public:
  explicit MismatchDetector(MismatchOptions options) : options_(options) {}

  // Feeds one window verdict with the GPU's declared type at that time (none: no declaration,
  // which also ends any episode). Returns an event when an alert is raised or cleared.
  std::optional<MismatchEvent> update(std::optional<WorkloadType> declared, WorkloadType observed, double confidence,
                                      double window_start_s, double window_end_s);

  bool alerting() const { return alerting_; }
  // Seconds the current run of counted windows spans (0 when none).
  double run_s() const { return run_windows_ == 0 ? 0 : last_end_s_ - since_s_; }

 private:
  // IDLE and UNKNOWN are never evidence against a declaration: a declared inference server
  // with no traffic is idle, and an abstention is no observation.
  static bool counts(std::optional<WorkloadType> declared, WorkloadType observed) {
    return declared && observed != *declared && observed != WorkloadType::Idle && observed != WorkloadType::Unknown;
  }

  MismatchOptions options_;
  bool alerting_ = false;
  WorkloadType declared_ = WorkloadType::Unknown, observed_ = WorkloadType::Unknown;
  std::size_t run_windows_ = 0, misses_ = 0;
  double since_s_ = 0, last_end_s_ = 0, confidence_sum_ = 0;
};

}  // namespace wt::watch
