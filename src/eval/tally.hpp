// Counts of verdicts against the truth, at window and job (per-GPU summary) level.
#pragma once

#include <array>
#include <nlohmann/json.hpp>

#include "classify/gpu_summary.hpp"

namespace wt {

inline constexpr std::size_t kTypeCount = 7;  // WorkloadType values, UNKNOWN last

struct Confusion {
  std::array<std::array<std::size_t, kTypeCount>, kTypeCount> n{};  // [truth][predicted]
  void add(WorkloadType truth, WorkloadType predicted) {
    ++n[static_cast<std::size_t>(truth)][static_cast<std::size_t>(predicted)];
  }
  std::size_t total() const;
  std::size_t right() const;
  std::size_t called(WorkloadType predicted) const;  // how often this was predicted
  nlohmann::json to_json() const;                    // {"TRAINING": {"TRAINING": n, ...}, ...}
  Confusion& operator+=(const Confusion& o);
};

// Reliability of confidences: 10 bins over [0, 1].
struct Calibration {
  std::array<std::size_t, 10> count{}, right{};
  std::array<double, 10> confidence_sum{};
  void add(double confidence, bool correct);
  nlohmann::json to_json() const;
};

struct Tally {
  Confusion windows, jobs;
  Calibration calibration;  // window confidences
  Tally& operator+=(const Tally& o);
};

// A window's truth: the job's label unless the window had no compute to speak of.
WorkloadType window_truth(WorkloadType job_label, const WindowVerdict& w);

}  // namespace wt
