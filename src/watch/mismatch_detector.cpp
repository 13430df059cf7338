#include "watch/mismatch_detector.hpp"

namespace wt::watch {

std::optional<MismatchEvent> MismatchDetector::update(std::optional<WorkloadType> declared, WorkloadType observed,
                                                      double confidence, double window_start_s, double window_end_s) {
  const bool relabelled = run_windows_ > 0 && declared != declared_;
  if (!relabelled && counts(declared, observed) && confidence >= options_.min_confidence) {
    if (run_windows_ == 0) {
      since_s_ = window_start_s;
      confidence_sum_ = 0;
    }
    ++run_windows_;
    misses_ = 0;
    declared_ = *declared;
    observed_ = observed;
    confidence_sum_ += confidence;
    last_end_s_ = window_end_s;
    if (alerting_ || last_end_s_ - since_s_ < options_.persist_s) return std::nullopt;
    alerting_ = true;
    return MismatchEvent{MismatchEvent::Kind::Raised,
                         declared_,
                         observed_,
                         confidence_sum_ / static_cast<double>(run_windows_),
                         since_s_,
                         window_end_s};
  }
  // A window that does not count: before an alert it breaks the run; during one, the episode
  // ends after clear_after of them in a row (or at once when the declaration changed).
  if (!alerting_) {
    run_windows_ = 0;
    return std::nullopt;
  }
  if (!relabelled && ++misses_ < options_.clear_after) return std::nullopt;
  const MismatchEvent cleared{MismatchEvent::Kind::Cleared,
                              declared_,
                              observed_,
                              confidence_sum_ / static_cast<double>(run_windows_),
                              since_s_,
                              window_end_s};
  alerting_ = false;
  run_windows_ = 0;
  misses_ = 0;
  return cleared;
}

}  // namespace wt::watch
