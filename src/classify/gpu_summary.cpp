#include "classify/gpu_summary.hpp"

#include <array>
#include <cstdio>

namespace wt {
namespace {
constexpr std::size_t kTypes = 7;
std::size_t slot(WorkloadType t) { return static_cast<std::size_t>(t); }
}  // namespace

Verdict summarize_windows(const std::vector<WindowVerdict>& windows, const std::vector<Verdict>& best,
                          const WindowFeatures& whole) {
  Verdict v;
  v.features = whole;
  if (windows.empty()) {
    v.reasons.push_back("No window had enough samples for a verdict.");
    return v;
  }
  std::array<std::size_t, kTypes> count{};
  std::array<double, kTypes> conf_sum{};
  std::size_t confident_training = 0;
  for (const auto& w : windows) {
    ++count[slot(w.type)];
    conf_sum[slot(w.type)] += w.confidence;
    // The model's own P(TRAINING) where it gives one: the bar was set on that, not on the
    // calibrated confidence, which reads lower in the range where the model is over-sure.
    if (w.type == WorkloadType::Training && w.training_score.value_or(w.confidence) >= kTrainingJobMinConfidence)
      ++confident_training;
  }
  const std::size_t idle = count[slot(WorkloadType::Idle)];
  const std::size_t active = windows.size() - idle;
  char buf[200];
  if (active == 0) {
    v.type = WorkloadType::Idle;
    v.confidence = conf_sum[slot(WorkloadType::Idle)] / static_cast<double>(idle);
    v.reasons.push_back(idle == 1 ? "The only window is IDLE." : "All " + std::to_string(idle) + " windows are IDLE.");
  } else {
    std::size_t winner = slot(WorkloadType::Unknown);
    double winner_mean = -1;
    for (std::size_t t = 0; t < kTypes; ++t) {
      if (t == slot(WorkloadType::Idle) || count[t] == 0) continue;
      const double mean = conf_sum[t] / static_cast<double>(count[t]);
      if (count[t] > count[winner] || (count[t] == count[winner] && mean > winner_mean) || winner_mean < 0) {
        winner = t;
        winner_mean = mean;
      }
    }
    const bool training_overrides =
        winner != slot(WorkloadType::Training) && confident_training >= kTrainingJobMinWindows &&
        static_cast<double>(confident_training) >= kTrainingJobShare * static_cast<double>(active);
    if (training_overrides) {
      winner = slot(WorkloadType::Training);
      winner_mean = conf_sum[winner] / static_cast<double>(count[winner]);
    }
    const double share = static_cast<double>(count[winner]) / static_cast<double>(active);
    v.type = static_cast<WorkloadType>(winner);
    v.confidence = share * winner_mean;
    const std::string not_counted =
        idle == 0 ? "" : ", " + std::to_string(idle) + (idle == 1 ? " idle window" : " idle windows") + " not counted";
    std::snprintf(buf, sizeof buf, "%s in %zu of %zu active windows (%.0f%%)%s.", std::string(to_string(v.type)).c_str(),
                  count[winner], active, 100.0 * share, not_counted.c_str());
    v.reasons.push_back(buf);
    if (training_overrides)
      v.reasons.push_back("Confident TRAINING windows hold at least " +
                          std::to_string(static_cast<int>(kTrainingJobShare * 100)) +
                          "% of the active windows: reported as TRAINING though another class holds more.");
  }
  double score_sum = 0;
  std::size_t scored = 0;
  for (const auto& w : windows)
    if (w.training_score && (active == 0 || w.type != WorkloadType::Idle)) {
      score_sum += *w.training_score;
      ++scored;
    }
  if (scored) v.training_score = score_sum / static_cast<double>(scored);
  if (slot(v.type) < best.size())
    for (const auto& r : best[slot(v.type)].reasons) v.reasons.push_back("Most confident window: " + r);
  return v;
}

Verdict summarize_job(const std::vector<const std::vector<WindowVerdict>*>& gpu_windows) {
  std::vector<WindowVerdict> pooled;
  for (const auto* w : gpu_windows) pooled.insert(pooled.end(), w->begin(), w->end());
  return summarize_windows(pooled, {}, WindowFeatures{});
}

}  // namespace wt
