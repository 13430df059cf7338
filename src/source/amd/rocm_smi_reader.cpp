// AMD GPUs read through ROCm SMI (librocm_smi64): calls, units and conversions in docs/amd.md.
#include <cinttypes>
#include <cstdio>

#include "source/amd/amd_gpu_reader.hpp"
#include "source/amd/rocm_smi_library.hpp"

namespace wt {

using namespace rsmi;

namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;

// "0000:03:00.0" from ROCm SMI's BDFID (domain in bits 32-63, bus 8-15, device 3-7, function 0-2),
// as `rocm-smi --showbus` prints it.
std::string format_bdf(std::uint64_t bdfid) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", static_cast<unsigned>(bdfid >> 32),
                static_cast<unsigned>((bdfid >> 8) & 0xff), static_cast<unsigned>((bdfid >> 3) & 0x1f),
                static_cast<unsigned>(bdfid & 0x7));
  return text;
}

std::string format_unique_id(std::uint64_t id) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, id);
  return text;
}

// The current frequency of a table read in ROCm 6's layout (v6) or 5's; nullopt when the
// table is impossible in that layout.
std::optional<std::uint64_t> current_hz(const FrequencyBuffer& f, bool v6) {
  const std::uint32_t n = v6 ? f.v6.num_supported : f.v5.num_supported;
  const std::uint32_t current = v6 ? f.v6.current : f.v5.current;
  if (n > (v6 ? kMaxFrequenciesV6 : kMaxFrequenciesV5) || current >= n) return std::nullopt;
  const std::uint64_t hz = v6 ? f.v6.frequency[current] : f.v5.frequency[current];
  if (hz == 0) return std::nullopt;
  return hz;
}

class RocmSmiReader final : public AmdGpuReader {
 public:
  explicit RocmSmiReader(const std::vector<std::string>& names) : lib_(names) {
    std::uint32_t count = 0;
    if (const rsmi_status_t rc = lib_.num_monitor_devices(&count); rc != RSMI_STATUS_SUCCESS)
      throw NoTelemetryError("ROCm SMI cannot count the AMD GPUs: " + lib_.error_string(rc));
    energy_.resize(count);
  }

  std::string library() const override {
    return "ROCm SMI " + std::to_string(lib_.major_version()) + " (" + lib_.name() + ")";
  }
  std::size_t gpu_count() const override { return energy_.size(); }

  GpuIdentity identity(std::size_t i) const override {
    const auto dv = static_cast<std::uint32_t>(i);
    GpuIdentity id;
    std::string name(256, '\0');
    if (lib_.dev_name_get && lib_.dev_name_get(dv, name.data(), name.size()) == RSMI_STATUS_SUCCESS)
      id.name = name.substr(0, name.find('\0'));
    std::uint64_t x = 0;
    if (lib_.dev_unique_id_get && lib_.dev_unique_id_get(dv, &x) == RSMI_STATUS_SUCCESS && x != 0)
      id.uuid = format_unique_id(x);
    if (lib_.dev_pci_id_get && lib_.dev_pci_id_get(dv, &x) == RSMI_STATUS_SUCCESS) id.pci_bus_id = format_bdf(x);
    return id;
  }

  void read(std::size_t i, bool pcie, SignalValues& v, FailedCalls& failed) override;

 private:
  RocmSmiLibrary lib_;
  std::vector<EnergyRate> energy_;  // per GPU
};

void RocmSmiReader::read(std::size_t i, bool pcie, SignalValues& v, FailedCalls& failed) {
  const auto dv = static_cast<std::uint32_t>(i);
  // Whether a call worked. "Not supported" (this GPU or kernel lacks it) just leaves the signal
  // missing, never zero; any other failure is also noted for a diagnostic.
  auto ok = [&](rsmi_status_t rc, const char* call) {
    if (rc == RSMI_STATUS_SUCCESS) return true;
    if (rc != RSMI_STATUS_NOT_SUPPORTED && rc != RSMI_STATUS_NOT_YET_IMPLEMENTED)
      failed.push_back({call, lib_.error_string(rc)});
    return false;
  };

  std::uint32_t pct = 0;
  if (lib_.dev_busy_percent_get && ok(lib_.dev_busy_percent_get(dv, &pct), "rsmi_dev_busy_percent_get"))
    v.set(Signal::GpuUtil, pct);
  if (lib_.dev_memory_busy_percent_get &&
      ok(lib_.dev_memory_busy_percent_get(dv, &pct), "rsmi_dev_memory_busy_percent_get"))
    v.set(Signal::MemUtil, pct);

  std::uint64_t x = 0;
  if (lib_.dev_memory_usage_get &&
      ok(lib_.dev_memory_usage_get(dv, RSMI_MEM_TYPE_VRAM, &x), "rsmi_dev_memory_usage_get"))
    v.set(Signal::MemUsed, static_cast<double>(x) / kBytesPerMiB);
  if (lib_.dev_memory_total_get &&
      ok(lib_.dev_memory_total_get(dv, RSMI_MEM_TYPE_VRAM, &x), "rsmi_dev_memory_total_get"))
    v.set(Signal::MemTotal, static_cast<double>(x) / kBytesPerMiB);

  if (lib_.dev_power_ave_get && ok(lib_.dev_power_ave_get(dv, 0, &x), "rsmi_dev_power_ave_get"))
    v.set(Signal::Power, static_cast<double>(x) / 1e6);  // µW -> W
  if (lib_.dev_power_cap_get && ok(lib_.dev_power_cap_get(dv, 0, &x), "rsmi_dev_power_cap_get"))
    v.set(Signal::PowerLimit, static_cast<double>(x) / 1e6);

  // The energy counter's mean over the whole interval is preferred to power_ave when there are
  // two readings.
  if (lib_.dev_energy_count_get) {
    std::uint64_t count = 0, time_ns = 0;
    float resolution_uj = 0;
    if (ok(lib_.dev_energy_count_get(dv, &count, &resolution_uj, &time_ns), "rsmi_dev_energy_count_get") &&
        resolution_uj > 0) {
      if (const auto watts = energy_[i].update(count, resolution_uj, time_ns)) v.set(Signal::Power, *watts);
    } else {
      energy_[i].reset();
    }
  }

  // The edge sensor is what rocm-smi shows first; MI200/MI300 have none, so junction stands in.
  if (lib_.dev_temp_metric_get) {
    std::int64_t mc = 0;
    rsmi_status_t rc = lib_.dev_temp_metric_get(dv, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &mc);
    if (rc == RSMI_STATUS_NOT_SUPPORTED)
      rc = lib_.dev_temp_metric_get(dv, RSMI_TEMP_TYPE_JUNCTION, RSMI_TEMP_CURRENT, &mc);
    if (ok(rc, "rsmi_dev_temp_metric_get")) v.set(Signal::Temperature, static_cast<double>(mc) / 1000);
  }

  if (lib_.dev_gpu_clk_freq_get) {
    auto clock = [&](Signal signal, rsmi_clk_type_t type) {
      FrequencyBuffer f{};
      if (!ok(lib_.dev_gpu_clk_freq_get(dv, type, &f), "rsmi_dev_gpu_clk_freq_get")) return;
      // Decoded with the layout the version implies; when that gives an impossible table and
      // the other layout a possible one, the other is right (a distribution build whose
      // version does not tell ROCm 5 from 6). The two never both look possible: ROCm 6's
      // has_deep_sleep read as num_supported is 0 or 1, below the real count read as current.
      const bool v6 = lib_.expects_frequencies_v6();
      std::optional<std::uint64_t> hz = current_hz(f, v6);
      if (!hz) hz = current_hz(f, !v6);
      if (!hz) {
        failed.push_back({"rsmi_dev_gpu_clk_freq_get", "no current level in the frequency table"});
        return;
      }
      v.set(signal, static_cast<double>(*hz) / 1e6);
    };
    clock(Signal::SmClock, RSMI_CLK_TYPE_SYS);
    clock(Signal::MemClock, RSMI_CLK_TYPE_MEM);
  }

  if (pcie && lib_.dev_pci_throughput_get) {
    std::uint64_t sent = 0, received = 0, packet = 0;
    if (ok(lib_.dev_pci_throughput_get(dv, &sent, &received, &packet), "rsmi_dev_pci_throughput_get")) {
      // Packets over one second times the largest packet size: the estimate rocm-smi prints too.
      v.set(Signal::PcieTx, static_cast<double>(sent * packet) / 1e6);
      v.set(Signal::PcieRx, static_cast<double>(received * packet) / 1e6);
    }
  }
}

}  // namespace

std::unique_ptr<AmdGpuReader> open_rocm_smi(const std::vector<std::string>& names) {
  return std::make_unique<RocmSmiReader>(names);
}

}  // namespace wt
