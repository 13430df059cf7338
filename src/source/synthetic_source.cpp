#include "source/synthetic_source.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace wt {

const std::vector<SyntheticProfile>& synthetic_profiles() {
  static const std::vector<SyntheticProfile> profiles{
      {"training", 88, 4, 70, 6, 18000, 120, 38000, 340, 12, 1},
      {"inference", 35, 28, 22, 5, 9000, 0, 9500, 160, 55, 1},
      {"idle", 1, 1, 0.5, 0.5, 400, 0, 400, 35, 5, 0},
  };
  return profiles;
}

const SyntheticProfile* find_synthetic_profile(std::string_view name) {
  for (const auto& p : synthetic_profiles())
    if (p.name == name) return &p;
  return nullptr;
}

SyntheticSource::SyntheticSource(SyntheticOptions options)
    : options_(std::move(options)), profile_(find_synthetic_profile(options_.profile)), rng_(options_.seed) {
  if (profile_ == nullptr) throw std::invalid_argument("unknown synthetic profile '" + options_.profile + "'");
  // The seed tool simulated an A100 40 GB.
  gpu_ = std::make_shared<GpuIdentity>(GpuIdentity{0, "GPU-synthetic-0", "NVIDIA A100-SXM4-40GB", "", ""});
}

bool SyntheticSource::next(Sample& out) {
  if (produced_ >= options_.samples) return false;
  if (options_.interval_s > 0 && produced_ > 0)
    std::this_thread::sleep_for(std::chrono::duration<double>(options_.interval_s));

  const SyntheticProfile& p = *profile_;
  const double i = static_cast<double>(produced_);
  auto gauss = [this](double mean, double sd) { return std::normal_distribution<double>(mean, sd)(rng_); };
  auto pct = [](double v) { return std::clamp(v, 0.0, 100.0); };

  out.time_s = options_.start_time_s + i * (options_.interval_s > 0 ? options_.interval_s : 1.0);
  out.gpu = gpu_;
  out.values = {};
  out.values.set(Signal::GpuUtil, pct(gauss(p.util_mean, p.util_std)));
  out.values.set(Signal::MemUtil, pct(gauss(p.mem_util_mean, p.mem_util_std)));
  out.values.set(Signal::MemUsed, std::min(p.mem_base_mib + p.mem_growth_mib * i, p.mem_ceiling_mib));
  out.values.set(Signal::MemTotal, 40960);
  out.values.set(Signal::Power, std::max(0.0, gauss(p.power_mean, p.power_std)));
  out.values.set(Signal::ProcessCount, p.processes);
  ++produced_;
  return true;
}

}  // namespace wt
