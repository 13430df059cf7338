// Counts of verdicts against the truth, at window, job (per-GPU summary) and run (a trace's GPUs
// as one job) level.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "classify/gpu_summary.hpp"

namespace wt {

struct Confusion {
  std::array<std::array<std::size_t, kWorkloadTypeCount>, kWorkloadTypeCount> n{};  // [truth][predicted]
  void add(WorkloadType truth, WorkloadType predicted) {
    ++n[static_cast<std::size_t>(truth)][static_cast<std::size_t>(predicted)];
  }
  std::size_t total() const;
  std::size_t right() const;
  std::size_t called(WorkloadType predicted) const;  // how often this was predicted
  nlohmann::json to_json() const;                    // {"TRAINING": {"TRAINING": n, ...}, ...}
  // Of every truth but TRAINING and IDLE pooled, the share called TRAINING: {"share", "called",
  // "count"}. The target counts non-training traces called TRAINING; idle ones are left
  // out, the easy part that would thin the share.
  nlohmann::json active_called_training() const;
  Confusion& operator+=(const Confusion& o);
};

// Reliability of confidences: 10 bins over [0, 1], over the windows given a class (UNKNOWN
// verdicts are only counted).
struct Calibration {
  std::array<std::size_t, 10> count{}, right{};
  std::size_t abstained = 0;
  std::array<double, 10> confidence_sum{};
  void add(double confidence, bool correct);
  nlohmann::json to_json() const;
};

// The binary "is this training?" score (P(TRAINING)) of active windows against their truth: how
// well it ranks training above everything else, and what a threshold on it would catch.
struct ScoreCurve {
  enum class Truth : std::uint8_t { Other, Training, Disguised };
  std::vector<std::pair<float, Truth>> points;
  void add(double score, Truth t) { points.emplace_back(static_cast<float>(score), t); }
  // {"windows": {...}, "roc_auc", "operating_points": [{"rule", "target_false_positive_rate",
  // "threshold", "false_positive_rate", "detection", "detection_clean", "detection_disguised"}]}:
  // the verdict's own 0.5, and the lowest thresholds that call at most 1 % and 5 % of the other
  // windows TRAINING.
  nlohmann::json to_json() const;
};

struct Tally {
  Confusion windows, jobs;
  Confusion runs;  // each trace's GPUs pooled as one job (summarize_job)
  Calibration calibration;  // window confidences
  ScoreCurve training_score;  // trained classifiers only (the rules give no score)
  Tally& operator+=(const Tally& o);
};

// A window's truth: the job's label unless the window had no compute to speak of.
WorkloadType window_truth(WorkloadType job_label, const WindowVerdict& w);

}  // namespace wt
