#include "watch/job_verdict.hpp"

namespace wt::watch {

void JobVerdict::set(WorkloadType type, double since_s) {
  type_ = type;
  since_s_ = since_s;
  confidence_sum_ = 0;
  agreeing_ = 0;
}

bool JobVerdict::update(WorkloadType type, double confidence, double window_start_s) {
  if (type_ == type) {
    challenger_.reset();
    challenger_run_ = 0;
    confidence_sum_ += confidence;
    ++agreeing_;
    return false;
  }
  if (challenger_ == type) {
    ++challenger_run_;
    challenger_confidence_sum_ += confidence;
  } else {
    challenger_ = type;
    challenger_run_ = 1;
    challenger_since_s_ = window_start_s;
    challenger_confidence_sum_ = confidence;
  }
  // UNKNOWN is an abstention: it may take over by persisting, never by one confident window.
  const bool confident = type != WorkloadType::Unknown && confidence >= options_.switch_confidence;
  if (known() && challenger_run_ < options_.hold && !confident) return false;
  set(type, challenger_since_s_);
  confidence_sum_ = challenger_confidence_sum_;
  agreeing_ = challenger_run_;
  challenger_.reset();
  challenger_run_ = 0;
  return true;
}

}  // namespace wt::watch
