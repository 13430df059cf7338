#include "classify/rule_classifier.hpp"

#include <cstdio>
#include <string>

namespace wt {
namespace {

std::string fmt(const char* pattern, double a, double b) {
  char buf[160];
  std::snprintf(buf, sizeof buf, pattern, a, b);
  return buf;
}

// One side's vote: counted when the feature is present and the test holds.
struct Ballot {
  int votes = 0;
  std::vector<std::string> reasons;
  void cast(const std::optional<double>& value, bool (*test)(double, double), double threshold,
            const char* pattern) {
    if (value && test(*value, threshold)) {
      ++votes;
      reasons.push_back(fmt(pattern, *value, threshold));
    }
  }
};

bool at_least(double v, double t) { return v >= t; }
bool at_most(double v, double t) { return v <= t; }
bool below(double v, double t) { return v < t; }

}  // namespace

Verdict RuleClassifier::decide(const WindowFeatures& f) const {
  using namespace rules;
  Verdict v;
  v.features = f;

  if (!f.avg_gpu_util_pct) {
    v.type = WorkloadType::Unknown;
    v.reasons.push_back("No GPU utilization readings: the rules cannot decide.");
    return v;
  }
  const double util = *f.avg_gpu_util_pct;
  if (util <= kIdleMaxUtilPct && (!f.avg_power_watts || *f.avg_power_watts <= kIdleMaxPowerW)) {
    v.type = WorkloadType::Idle;
    v.confidence = 1.0 - kIdleConfidenceSlope * util / kIdleMaxUtilPct;
    v.reasons.push_back(fmt("Mean GPU utilization %.1f%% is at most %.0f%%.", util, kIdleMaxUtilPct));
    if (f.avg_power_watts)
      v.reasons.push_back(fmt("Mean power %.1f W is at most %.0f W.", *f.avg_power_watts, kIdleMaxPowerW));
    else
      v.reasons.push_back("No power readings: idle decided on utilization alone.");
    return v;
  }

  Ballot train, infer;
  train.cast(f.avg_gpu_util_pct, at_least, kTrainMinUtilPct, "Mean GPU utilization %.1f%% is at least %.0f%% (training).");
  train.cast(f.std_gpu_util_pct, at_most, kTrainMaxUtilStdPct, "GPU utilization std %.1f%% is at most %.0f%%: steady load (training).");
  train.cast(f.mem_growth_mib_per_sample, at_least, kTrainMinMemSlope, "Memory grows %.1f MiB/sample, at least %.0f (training).");
  train.cast(f.std_power_watts, at_most, kTrainMaxPowerStdW, "Power std %.1f W is at most %.0f W: steady draw (training).");
  infer.cast(f.avg_gpu_util_pct, at_most, kInferMaxUtilPct, "Mean GPU utilization %.1f%% is at most %.0f%% (inference).");
  infer.cast(f.std_gpu_util_pct, at_least, kInferMinUtilStdPct, "GPU utilization std %.1f%% is at least %.0f%%: bursty load (inference).");
  infer.cast(f.mem_growth_mib_per_sample, below, kInferMaxMemSlope, "Memory grows %.1f MiB/sample, below %.0f: flat (inference).");
  infer.cast(f.std_power_watts, at_least, kInferMinPowerStdW, "Power std %.1f W is at least %.0f W: swinging draw (inference).");

  if (train.votes > infer.votes) {
    v.type = WorkloadType::Training;
    v.confidence = train.votes / kVotesPerSide;
    v.reasons = std::move(train.reasons);
  } else if (infer.votes > train.votes) {
    v.type = WorkloadType::Inference;
    v.confidence = infer.votes / kVotesPerSide;
    v.reasons = std::move(infer.reasons);
  } else {
    v.type = WorkloadType::Unknown;
    v.confidence = kTieConfidence;
    v.reasons.push_back(fmt("Training and inference rules tie at %.0f votes each (of %.0f).", train.votes, kVotesPerSide));
    for (auto* side : {&train, &infer})
      v.reasons.insert(v.reasons.end(), side->reasons.begin(), side->reasons.end());
  }
  if (!f.mem_growth_mib_per_sample)
    v.reasons.push_back("No memory readings: the memory-growth votes were not cast.");
  if (!f.std_power_watts)
    v.reasons.push_back("No power readings: the power-steadiness votes were not cast.");
  return v;
}

}  // namespace wt
