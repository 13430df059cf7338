#include "features/model_features.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace wt {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// One signal of the window as (time, value) pairs, skipping readings without it.
struct Series {
  std::vector<double> t, v;
  bool empty() const { return v.size() < 2; }
};

Series series(std::span<const Reading> rs, Signal s, double scale = 1.0) {
  Series out;
  for (const Reading& r : rs)
    if (r.values.has(s)) {
      out.t.push_back(r.time_s);
      out.v.push_back(r.values.value(s) * scale);
    }
  return out;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// Quantiles of a sorted copy.
struct Quantiles {
  explicit Quantiles(std::vector<double> v) : sorted(std::move(v)) { std::sort(sorted.begin(), sorted.end()); }
  double at(double q) const { return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5)]; }
  std::vector<double> sorted;
};

double correlation(const Series& a, const Series& b) {
  // Pairs where both signals were read in the same reading (same timestamp).
  std::vector<double> x, y;
  for (std::size_t i = 0, j = 0; i < a.t.size() && j < b.t.size();) {
    if (a.t[i] == b.t[j]) {
      x.push_back(a.v[i++]);
      y.push_back(b.v[j++]);
    } else if (a.t[i] < b.t[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  if (x.size() < 3) return std::nan("");
  const double mx = mean(x), my = mean(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return (sxx > 0 && syy > 0) ? sxy / std::sqrt(sxx * syy) : std::nan("");
}

double slope_per_min(const Series& s) {
  const double mt = mean(s.t), mv = mean(s.v);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < s.t.size(); ++i) {
    sxy += (s.t[i] - mt) * (s.v[i] - mv);
    sxx += (s.t[i] - mt) * (s.t[i] - mt);
  }
  return sxx > 0 ? 60.0 * sxy / sxx : std::nan("");
}

// Autocorrelation on a uniform time grid (sample-and-hold), so that its lags are seconds,
// whatever the sampling rate. Returns the highest peak at lags from 1 s to half the window
// and that lag: an iteration rhythm (training steps, collective phases) shows as a strong peak.
struct Periodicity {
  double peak = std::nan(""), period_s = std::nan("");
};

Periodicity periodicity(const Series& s) {
  const double span = s.t.back() - s.t.front();
  if (span < 4) return {};
  std::vector<double> dts;
  for (std::size_t i = 1; i < s.t.size(); ++i) dts.push_back(s.t[i] - s.t[i - 1]);
  std::nth_element(dts.begin(), dts.begin() + static_cast<std::ptrdiff_t>(dts.size() / 2), dts.end());
  const double step = std::max({dts[dts.size() / 2], 0.25, span / 256});
  const auto n = static_cast<std::size_t>(span / step) + 1;
  if (n < 8) return {};
  std::vector<double> g(n);
  for (std::size_t k = 0, i = 0; k < n; ++k) {
    const double t = s.t.front() + static_cast<double>(k) * step;
    while (i + 1 < s.t.size() && s.t[i + 1] <= t) ++i;
    g[k] = s.v[i];
  }
  const double m = mean(g);
  double var = 0;
  for (double& x : g) {
    x -= m;
    var += x * x;
  }
  if (var <= 0) return {0.0, std::nan("")};
  Periodicity best{-1, std::nan("")};
  const auto min_lag = std::max<std::size_t>(2, static_cast<std::size_t>(std::ceil(1.0 / step)));
  for (std::size_t lag = min_lag; lag <= n / 2; ++lag) {
    double c = 0;
    for (std::size_t k = 0; k + lag < n; ++k) c += g[k] * g[k + lag];
    c /= var;
    if (c > best.peak) best = {c, static_cast<double>(lag) * step};
  }
  if (best.peak < -0.5) return {};
  return best;
}

float f(double x) { return std::isfinite(x) ? static_cast<float>(x) : kNaN; }

// Feature positions resolved while compiling, so a misspelt name is a build error.
consteval std::size_t at(std::string_view name) { return model_feature_index(name); }

}  // namespace

ModelFeatures compute_model_features(std::span<const Reading> rs, const GpuContext& gpu) {
  ModelFeatures out;
  out.fill(kNaN);
  auto set = [&out](std::size_t index, double value) { out[index] = f(value); };

  // Telemetry first, then the model table: the reported limit is the one in force.
  const Series limit_s = series(rs, Signal::PowerLimit);
  const std::optional<double> limit = !limit_s.v.empty() ? std::optional(mean(limit_s.v)) : gpu.power_limit_w;
  const Series total_s = series(rs, Signal::MemTotal);
  const std::optional<double> total = !total_s.v.empty() ? std::optional(mean(total_s.v)) : gpu.memory_total_mib;

  const Series util = series(rs, Signal::GpuUtil);
  if (!util.empty()) {
    const Quantiles q(util.v);
    const double busy = static_cast<double>(std::count_if(util.v.begin(), util.v.end(), [](double x) { return x >= 80; }));
    const double idle = static_cast<double>(std::count_if(util.v.begin(), util.v.end(), [](double x) { return x <= 5; }));
    std::size_t crossings = 0;
    for (std::size_t i = 1; i < util.v.size(); ++i) crossings += (util.v[i - 1] < 50) != (util.v[i] < 50);
    const double n = static_cast<double>(util.v.size());
    const double minutes = (util.t.back() - util.t.front()) / 60.0;
    set(at("util_mean"), mean(util.v));
    set(at("util_std"), stddev(util.v));
    set(at("util_p10"), q.at(0.1));
    set(at("util_p50"), q.at(0.5));
    set(at("util_p90"), q.at(0.9));
    set(at("util_busy_frac"), busy / n);
    set(at("util_idle_frac"), idle / n);
    if (minutes > 0) set(at("util_crossings_per_min"), static_cast<double>(crossings) / minutes);
    const Periodicity p = periodicity(util);
    set(at("util_acf_peak"), p.peak);
    set(at("util_acf_period_s"), p.period_s);
  }

  const Series memutil = series(rs, Signal::MemUtil);
  if (!memutil.empty()) {
    set(at("memutil_mean"), mean(memutil.v));
    set(at("memutil_std"), stddev(memutil.v));
    if (!util.empty()) {
      set(at("memutil_per_util"), mean(memutil.v) / (mean(util.v) + 1.0));
      set(at("util_memutil_corr"), correlation(util, memutil));
    }
  }

  const Series power = series(rs, Signal::Power);
  if (!power.empty() && limit && *limit > 0) {
    Series frac = power;
    for (double& x : frac.v) x /= *limit;
    const Quantiles q(frac.v);
    set(at("power_frac_mean"), mean(frac.v));
    set(at("power_frac_std"), stddev(frac.v));
    set(at("power_frac_p10"), q.at(0.1));
    set(at("power_frac_p90"), q.at(0.9));
    if (!util.empty()) set(at("power_per_util"), mean(frac.v) / (mean(util.v) / 100.0 + 0.05));
    if (gpu.idle_power_w && *limit > *gpu.idle_power_w)
      set(at("power_above_idle"), (mean(power.v) - *gpu.idle_power_w) / (*limit - *gpu.idle_power_w));
    set(at("power_acf_peak"), periodicity(frac).peak);
  }
  if (!power.empty() && !util.empty()) set(at("util_power_corr"), correlation(util, power));

  const Series mem = series(rs, Signal::MemUsed);
  if (!mem.empty() && total && *total > 0) {
    const auto [lo, hi] = std::minmax_element(mem.v.begin(), mem.v.end());
    std::size_t flat = 0;
    for (std::size_t i = 1; i < mem.v.size(); ++i) flat += std::abs(mem.v[i] - mem.v[i - 1]) < 1.0;
    set(at("mem_frac_mean"), mean(mem.v) / *total);
    set(at("mem_slope_frac_per_min"), slope_per_min(mem) / *total);
    set(at("mem_range_frac"), (*hi - *lo) / *total);
    set(at("mem_flat_frac"), static_cast<double>(flat) / static_cast<double>(mem.v.size() - 1));
  }

  const Series sm = series(rs, Signal::SmClock);
  if (!sm.empty()) {
    const double m = mean(sm.v);
    if (gpu.max_sm_clock_mhz) set(at("sm_clock_frac"), m / *gpu.max_sm_clock_mhz);
    if (m > 0) set(at("sm_clock_cv"), stddev(sm.v) / m);
  }
  const Series temp = series(rs, Signal::Temperature);
  if (!temp.empty()) set(at("temp_slope_per_min"), slope_per_min(temp));

  auto sum_mean = [&](Signal a, Signal b) {
    const Series x = series(rs, a), y = series(rs, b);
    if (x.v.empty() && y.v.empty()) return std::nan("");
    return (x.v.empty() ? 0.0 : mean(x.v)) + (y.v.empty() ? 0.0 : mean(y.v));
  };
  set(at("pcie_log_mbps"), std::log1p(sum_mean(Signal::PcieTx, Signal::PcieRx)));
  set(at("nvlink_log_mbps"), std::log1p(sum_mean(Signal::NvlinkTx, Signal::NvlinkRx)));
  const Series procs = series(rs, Signal::ProcessCount);
  if (!procs.v.empty()) set(at("process_count"), mean(procs.v));
  return out;
}

}  // namespace wt
