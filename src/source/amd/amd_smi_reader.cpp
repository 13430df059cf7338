// AMD GPUs read through AMD SMI (libamd_smi): calls, units and conversions in docs/amd.md.
#include <cstdio>
#include <cstring>

#include "source/amd/amd_gpu_reader.hpp"
#include "source/amd/amd_smi_library.hpp"

namespace wt {

using namespace amdsmi;

namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;

// A 32-bit field the library could not fill: 26 documents UINT32_MAX; 6.x passes the GPU
// metrics table's 16-bit "not available" (0xFFFF) through. Neither is a real %, W or MHz.
bool filled(std::uint32_t x) { return x != 0xFFFFFFFFU && x != 0xFFFFU; }

// "0000:c1:00.0" from amdsmi_bdf_t (function bits 0-2, device 3-7, bus 8-15, domain 16-63).
std::string format_bdf(amdsmi_bdf_t bdf) {
  char text[40];
  std::snprintf(text, sizeof text, "%04llx:%02x:%02x.%x", static_cast<unsigned long long>(bdf >> 16),
                static_cast<unsigned>((bdf >> 8) & 0xff), static_cast<unsigned>((bdf >> 3) & 0x1f),
                static_cast<unsigned>(bdf & 0x7));
  return text;
}

class AmdSmiReader final : public AmdGpuReader {
 public:
  explicit AmdSmiReader(const std::vector<std::string>& names) : lib_(names), energy_(lib_.gpus().size()) {}

  std::string library() const override { return "AMD SMI " + lib_.version() + " (" + lib_.name() + ")"; }
  std::size_t gpu_count() const override { return lib_.gpus().size(); }
  GpuIdentity identity(std::size_t i) const override;
  void read(std::size_t i, bool pcie, SignalValues& v, FailedCalls& failed) override;

 private:
  AmdSmiLibrary lib_;
  std::vector<EnergyRate> energy_;  // per GPU
};

GpuIdentity AmdSmiReader::identity(std::size_t i) const {
  const AmdSmiLibrary::Handle gpu = lib_.gpus()[i];
  GpuIdentity id;
  if (lib_.get_gpu_asic_info) {
    AsicInfoBuffer asic{};
    if (lib_.get_gpu_asic_info(gpu, &asic) == AMDSMI_STATUS_SUCCESS)  // market_name leads in both layouts
      id.name.assign(asic.v6.market_name, strnlen(asic.v6.market_name, sizeof asic.v6.market_name));
  }
  if (lib_.get_gpu_device_uuid) {
    char uuid[AMDSMI_GPU_UUID_SIZE + 1] = {};
    unsigned length = AMDSMI_GPU_UUID_SIZE;
    if (lib_.get_gpu_device_uuid(gpu, &length, uuid) == AMDSMI_STATUS_SUCCESS) id.uuid = uuid;
  }
  amdsmi_bdf_t bdf = 0;
  if (lib_.get_gpu_device_bdf && lib_.get_gpu_device_bdf(gpu, &bdf) == AMDSMI_STATUS_SUCCESS)
    id.pci_bus_id = format_bdf(bdf);
  return id;
}

void AmdSmiReader::read(std::size_t i, bool pcie, SignalValues& v, FailedCalls& failed) {
  const AmdSmiLibrary::Handle gpu = lib_.gpus()[i];
  // Whether a call worked. "Not supported" leaves the signal missing, never zero; any other
  // failure is also noted for a diagnostic.
  auto ok = [&](amdsmi_status_t rc, const char* call) {
    if (rc == AMDSMI_STATUS_SUCCESS) return true;
    if (rc != AMDSMI_STATUS_NOT_SUPPORTED && rc != AMDSMI_STATUS_NOT_YET_IMPLEMENTED)
      failed.push_back({call, lib_.error_string(rc)});
    return false;
  };

  if (lib_.get_gpu_activity) {
    amdsmi_engine_usage_t usage{};
    if (ok(lib_.get_gpu_activity(gpu, &usage), "amdsmi_get_gpu_activity")) {
      if (filled(usage.gfx_activity)) v.set(Signal::GpuUtil, usage.gfx_activity);
      if (filled(usage.umc_activity)) v.set(Signal::MemUtil, usage.umc_activity);
    }
  }

  std::uint64_t bytes = 0;
  if (lib_.get_gpu_memory_usage &&
      ok(lib_.get_gpu_memory_usage(gpu, AMDSMI_MEM_TYPE_VRAM, &bytes), "amdsmi_get_gpu_memory_usage"))
    v.set(Signal::MemUsed, static_cast<double>(bytes) / kBytesPerMiB);
  if (lib_.get_gpu_memory_total &&
      ok(lib_.get_gpu_memory_total(gpu, AMDSMI_MEM_TYPE_VRAM, &bytes), "amdsmi_get_gpu_memory_total"))
    v.set(Signal::MemTotal, static_cast<double>(bytes) / kBytesPerMiB);

  // The average socket power where the GPU keeps one (MI200 and earlier, Radeon); MI300 only
  // fills the current one.
  if (lib_.get_power_info) {
    PowerInfoBuffer p{};
    if (ok(lib_.get_power_info(gpu, &p), "amdsmi_get_power_info")) {
      const bool v6 = lib_.layout() == AmdSmiLibrary::Layout::V6;
      const std::uint32_t average = v6 ? p.v6.average_socket_power : p.v26.average_socket_power;
      const std::uint32_t current = v6 ? p.v6.current_socket_power : p.v26.current_socket_power;
      if (filled(average))
        v.set(Signal::Power, average);
      else if (filled(current))
        v.set(Signal::Power, current);
    }
  }
  if (lib_.get_power_cap_info) {
    amdsmi_power_cap_info_t cap{};
    if (ok(lib_.get_power_cap_info(gpu, 0, &cap), "amdsmi_get_power_cap_info") && cap.power_cap > 0)
      v.set(Signal::PowerLimit, static_cast<double>(cap.power_cap) / 1e6);  // µW -> W
  }
  // As with ROCm SMI: the energy counter's mean over the interval wins from the second poll on.
  if (lib_.get_energy_count) {
    std::uint64_t count = 0, time_ns = 0;
    float resolution_uj = 0;
    if (ok(lib_.get_energy_count(gpu, &count, &resolution_uj, &time_ns), "amdsmi_get_energy_count") &&
        resolution_uj > 0) {
      if (const auto watts = energy_[i].update(count, resolution_uj, time_ns)) v.set(Signal::Power, *watts);
    } else {
      energy_[i].reset();
    }
  }

  // Edge first, as amd-smi shows it; MI200/MI300 have no edge sensor, so the hotspot stands in.
  if (lib_.get_temp_metric) {
    std::int64_t c = 0;
    AmdSmiLibrary::Status rc = lib_.get_temp_metric(gpu, AMDSMI_TEMPERATURE_TYPE_EDGE, AMDSMI_TEMP_CURRENT, &c);
    if (rc == AMDSMI_STATUS_NOT_SUPPORTED)
      rc = lib_.get_temp_metric(gpu, AMDSMI_TEMPERATURE_TYPE_HOTSPOT, AMDSMI_TEMP_CURRENT, &c);
    if (ok(rc, "amdsmi_get_temp_metric")) v.set(Signal::Temperature, static_cast<double>(c));
  }

  if (lib_.get_clock_info) {
    auto clock = [&](Signal signal, amdsmi_clk_type_t type) {
      amdsmi_clk_info_t info{};
      if (ok(lib_.get_clock_info(gpu, type, &info), "amdsmi_get_clock_info") && filled(info.clk) && info.clk > 0)
        v.set(signal, info.clk);
    };
    clock(Signal::SmClock, AMDSMI_CLK_TYPE_GFX);
    clock(Signal::MemClock, AMDSMI_CLK_TYPE_MEM);
  }

  // ROCm SMI's rsmi_dev_pci_throughput_get underneath: it sleeps about a second, so AmdSource
  // asks for it only at slow polling.
  if (pcie && lib_.get_gpu_pci_throughput) {
    std::uint64_t sent = 0, received = 0, packet = 0;
    if (ok(lib_.get_gpu_pci_throughput(gpu, &sent, &received, &packet), "amdsmi_get_gpu_pci_throughput")) {
      v.set(Signal::PcieTx, static_cast<double>(sent * packet) / 1e6);  // packets in a second x size -> MB/s
      v.set(Signal::PcieRx, static_cast<double>(received * packet) / 1e6);
    }
  }
}

}  // namespace

std::unique_ptr<AmdGpuReader> open_amd_smi(const std::vector<std::string>& names) {
  return std::make_unique<AmdSmiReader>(names);
}

}  // namespace wt
