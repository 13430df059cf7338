// The seed tool's vote-counting rules, ported for parity (`--classifier rules`).
#pragma once

#include "classify/classifier.hpp"

namespace wt {

// Thresholds exactly as the seed tool used them (../shared/PROTOTYPE.md).
namespace rules {
inline constexpr double kIdleMaxUtilPct = 5;        // IDLE: mean GPU utilization at most this...
inline constexpr double kIdleMaxPowerW = 50;        // ...and mean power at most this
inline constexpr double kIdleConfidenceSlope = 0.3; // IDLE confidence = 1 - 0.3 * util / 5
inline constexpr double kTrainMinUtilPct = 65;      // training keeps the GPU busy...
inline constexpr double kTrainMaxUtilStdPct = 15;   // ...steadily,
inline constexpr double kTrainMinMemSlope = 5;      // its memory grows (MiB per sample),
inline constexpr double kTrainMaxPowerStdW = 25;    // and its power is steady.
inline constexpr double kInferMaxUtilPct = 70;      // inference is lighter on average,
inline constexpr double kInferMinUtilStdPct = 12;   // bursty with requests,
inline constexpr double kInferMaxMemSlope = 5;      // keeps memory flat (below this slope),
inline constexpr double kInferMinPowerStdW = 20;    // and its power swings.
inline constexpr double kVotesPerSide = 4;          // confidence = winning votes / 4
inline constexpr double kTieConfidence = 0.5;       // a tie is UNKNOWN at 0.5
}  // namespace rules

class RuleClassifier final : public Classifier {
 public:
  std::string_view name() const override { return "rules"; }
  Verdict classify(const WindowInput& window) const override { return decide(compute_features(window.readings)); }
  // The rules themselves, on the seed tool's features.
  Verdict decide(const WindowFeatures& features) const;
};

}  // namespace wt
