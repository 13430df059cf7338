// Real vs simulated feature distributions, per class: how well the simulator's families cover
// what real GPUs show, measured on the same windows the classifier sees.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "train/dataset.hpp"

namespace wt {

// The model features the calibration report compares (a subset of kModelFeatureNames).
const std::vector<std::string_view>& calibration_features();

struct FeatureSpread {
  std::size_t n = 0;  // windows where the feature is defined (signals present)
  double p10 = 0, p50 = 0, p90 = 0;
  double p02 = 0, p98 = 0;
};

struct FeatureComparison {
  FeatureSpread real, sim;
  // Share of real windows whose value lies within the simulated p2..p98: how much of the real
  // spread the simulator covers (NaN when either side has no values).
  double covered = 0;
};

struct ClassComparison {
  std::string key;  // class name, or "CLASS real:<source>" when split by source
  std::size_t real_windows = 0, sim_windows = 0;
  std::vector<std::pair<std::string_view, FeatureComparison>> features;  // in calibration_features() order
};

// One comparison per class found in `real` (or per real source, with `by_group`), against the
// simulated rows of the same class.
std::vector<ClassComparison> compare_distributions(const std::vector<LabelledWindow>& real,
                                                   const std::vector<LabelledWindow>& sim, bool by_group);

}  // namespace wt
