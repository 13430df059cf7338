// Turns a GPU's sequence of window verdicts into one verdict for the GPU (the job).
#pragma once

#include <vector>

#include "classify/verdict.hpp"

namespace wt {

struct WindowVerdict {
  double start_s = 0;
  double end_s = 0;
  bool partial = false;
  WorkloadType type = WorkloadType::Unknown;
  double confidence = 0;
  std::optional<double> training_score;
};

// The class that dominates the non-IDLE windows wins (IDLE only when every window is idle),
// so a job that computes only part of the time is not called idle. Ties go to the class with
// the higher mean confidence. Confidence = share of active windows behind the winner x their
// mean confidence; the training score is the mean over the active windows (over all windows
// when every one is idle). `best` holds, per class, the reasons of its most confident window.
// `whole` carries the features of the whole stream into the result.
Verdict summarize_windows(const std::vector<WindowVerdict>& windows, const std::vector<Verdict>& best,
                          const WindowFeatures& whole);

}  // namespace wt
