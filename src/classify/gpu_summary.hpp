// Turns a GPU's sequence of window verdicts into one verdict for the GPU (the job), and the
// windows of several GPUs into one verdict for a job that spans them.
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
  std::optional<double> mean_util_pct;  // lets evaluations tell an idle stretch of a job
};

// Training gets the job verdict when confident TRAINING windows (training score, else confidence,
// at least kTrainingJobMinConfidence) hold this share of the active windows (and number at least
// kTrainingJobMinWindows), even if another class holds more: training diluted among inference or
// padded with idle time is still training. Only confident windows count, because a stretch of real
// training reads as clear training, while the stray TRAINING windows of a serving or HPC job are
// mostly unsure ones; letting those override the majority made such jobs TRAINING.
inline constexpr double kTrainingJobShare = 0.10;
inline constexpr std::size_t kTrainingJobMinWindows = 2;
inline constexpr double kTrainingJobMinConfidence = 0.8;

// The class that dominates the non-IDLE windows wins (IDLE only when every window is idle),
// so a job that computes only part of the time is not called idle; but sustained training
// wins over any other class (see kTrainingJobShare). Ties go to the class with
// the higher mean confidence. Confidence = share of active windows behind the winner x their
// mean confidence; the training score is the mean over the active windows (over all windows
// when every one is idle). `best` holds, per class, the reasons of its most confident window.
// `whole` carries the features of the whole stream into the result.
Verdict summarize_windows(const std::vector<WindowVerdict>& windows, const std::vector<Verdict>& best,
                          const WindowFeatures& whole);

// One verdict for a job that spans several GPUs: every GPU's windows pooled and weighed as
// summarize_windows weighs one GPU's, because a job's work need not show on each of its GPUs (a
// rank that checkpoints while the others wait reads as serving on its own, a GPU the job's layout
// leaves idle reads as IDLE). No features: a job has no one stream to describe.
Verdict summarize_job(const std::vector<const std::vector<WindowVerdict>*>& gpu_windows);

}  // namespace wt
