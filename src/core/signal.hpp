// The telemetry signals WorkloadTruth reads, with their units and plausible ranges.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace wt {

enum class Signal : std::uint8_t {
  GpuUtil,       // % of time a kernel ran (nvidia-smi utilization.gpu)
  MemUtil,       // % of time device memory was read/written (utilization.memory)
  MemUsed,       // MiB
  MemTotal,      // MiB
  Power,         // W, board power draw
  PowerLimit,    // W, enforced power limit (lets classifiers normalise across GPU models)
  Temperature,   // degrees C, GPU core
  SmClock,       // MHz
  MemClock,      // MHz
  PcieTx,        // MB/s
  PcieRx,        // MB/s
  NvlinkTx,      // MB/s, all links together
  NvlinkRx,      // MB/s
  ProcessCount,  // compute processes running on the GPU
};
inline constexpr std::size_t kSignalCount = 14;

struct SignalInfo {
  Signal signal;
  std::string_view key;   // snake_case name used in JSON and the JSONL trace format
  std::string_view unit;  // unit as nvidia-smi prints it ("" when it prints none)
  double min;             // values outside [min, max] are rejected as absurd
  double max;
};

// Bounds are generous physical limits, not typical values: they exist to reject
// corrupted input (a 1e9 W reading), never to clip real telemetry.
inline constexpr std::array<SignalInfo, kSignalCount> kSignals{{
    {Signal::GpuUtil, "gpu_util_pct", "%", 0, 100},
    {Signal::MemUtil, "mem_util_pct", "%", 0, 100},
    {Signal::MemUsed, "mem_used_mib", "MiB", 0, 16.0 * 1024 * 1024},
    {Signal::MemTotal, "mem_total_mib", "MiB", 0, 16.0 * 1024 * 1024},
    {Signal::Power, "power_w", "W", 0, 5000},
    {Signal::PowerLimit, "power_limit_w", "W", 0, 5000},
    {Signal::Temperature, "temperature_c", "", -60, 250},
    {Signal::SmClock, "sm_clock_mhz", "MHz", 0, 10000},
    {Signal::MemClock, "mem_clock_mhz", "MHz", 0, 50000},
    {Signal::PcieTx, "pcie_tx_mbps", "MB/s", 0, 1e6},
    {Signal::PcieRx, "pcie_rx_mbps", "MB/s", 0, 1e6},
    {Signal::NvlinkTx, "nvlink_tx_mbps", "MB/s", 0, 1e7},
    {Signal::NvlinkRx, "nvlink_rx_mbps", "MB/s", 0, 1e7},
    {Signal::ProcessCount, "process_count", "", 0, 1e6},
}};

constexpr const SignalInfo& info(Signal s) { return kSignals[static_cast<std::size_t>(s)]; }

// "" when `v` is within the signal's bounds, else "V is outside the plausible range MIN..MAX",
// for the readers' messages.
inline std::string implausible(Signal s, double v) {
  const SignalInfo& si = info(s);
  if (v >= si.min && v <= si.max) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%g is outside the plausible range %lld..%lld", v, static_cast<long long>(si.min),
                static_cast<long long>(si.max));
  return buf;
}

// Every signal of one reading. A signal the source did not report is absent, never zero:
// "no power reading" and "0 W" must stay distinguishable.
class SignalValues {
 public:
  std::optional<double> get(Signal s) const {
    if (!has(s)) return std::nullopt;
    return values_[idx(s)];
  }
  bool has(Signal s) const { return (present_ >> idx(s)) & 1U; }
  void set(Signal s, double v) {
    values_[idx(s)] = v;
    present_ |= static_cast<std::uint16_t>(1U << idx(s));
  }
  void clear(Signal s) { present_ &= static_cast<std::uint16_t>(~(1U << idx(s))); }
  // Value of a signal known to be present (check has() first).
  double value(Signal s) const { return values_[idx(s)]; }
  bool empty() const { return present_ == 0; }

  friend bool operator==(const SignalValues& a, const SignalValues& b) {
    if (a.present_ != b.present_) return false;
    for (std::size_t i = 0; i < kSignalCount; ++i)
      if ((a.present_ >> i & 1U) && a.values_[i] != b.values_[i]) return false;
    return true;
  }

 private:
  static constexpr std::size_t idx(Signal s) { return static_cast<std::size_t>(s); }
  std::array<double, kSignalCount> values_{};
  std::uint16_t present_ = 0;
};

}  // namespace wt
