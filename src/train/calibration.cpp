#include "train/calibration.hpp"

#include <algorithm>
#include <cmath>

namespace wt {

const std::vector<std::string_view>& calibration_features() {
  static const std::vector<std::string_view> names{"util_mean",
                                                   "util_std",
                                                   "util_p10",
                                                   "power_frac_mean",
                                                   "power_frac_std",
                                                   "power_per_util",
                                                   "memutil_per_util",
                                                   "mem_frac_mean",
                                                   "mem_flat_frac",
                                                   "util_acf_peak",
                                                   "util_crossings_per_min"};
  return names;
}

namespace {

std::vector<double> defined(const std::vector<const LabelledWindow*>& rows, std::size_t f) {
  std::vector<double> v;
  for (const LabelledWindow* r : rows)
    if (std::isfinite(r->x[f])) v.push_back(r->x[f]);
  std::sort(v.begin(), v.end());
  return v;
}

FeatureSpread spread(const std::vector<double>& sorted) {
  FeatureSpread s;
  s.n = sorted.size();
  if (sorted.empty()) return s;
  auto at = [&](double q) {
    return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5)];
  };
  s.p02 = at(0.02);
  s.p10 = at(0.1);
  s.p50 = at(0.5);
  s.p90 = at(0.9);
  s.p98 = at(0.98);
  return s;
}

}  // namespace

std::vector<ClassComparison> compare_distributions(const std::vector<LabelledWindow>& real,
                                                   const std::vector<LabelledWindow>& sim, bool by_group) {
  std::map<std::string, std::vector<const LabelledWindow*>> real_by_key;
  std::map<WorkloadType, std::vector<const LabelledWindow*>> sim_by_class;
  for (const auto& r : real) {
    const std::string cls(to_string(r.label));
    real_by_key[by_group ? cls + " " + r.group : cls].push_back(&r);
  }
  for (const auto& r : sim) sim_by_class[r.label].push_back(&r);

  std::vector<ClassComparison> out;
  for (const auto& [key, rows] : real_by_key) {
    const auto& sim_rows = sim_by_class[rows.front()->label];
    ClassComparison c{key, rows.size(), sim_rows.size(), {}};
    for (std::string_view name : calibration_features()) {
      const std::size_t f = model_feature_index(name);
      const auto rv = defined(rows, f), sv = defined(sim_rows, f);
      FeatureComparison fc{spread(rv), spread(sv), std::nan("")};
      if (!rv.empty() && !sv.empty()) {
        const auto in =
            std::count_if(rv.begin(), rv.end(), [&](double x) { return x >= fc.sim.p02 && x <= fc.sim.p98; });
        fc.covered = static_cast<double>(in) / static_cast<double>(rv.size());
      }
      c.features.emplace_back(name, fc);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace wt
