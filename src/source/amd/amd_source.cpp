#include "source/amd/amd_source.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <utility>

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

}  // namespace

struct AmdSource::Device {
  std::uint32_t index = 0;
  GpuRef gpu;
  std::string where;  // "GPU 1 (0x3c2e...)", for diagnostics
  bool lost = false;
  std::set<std::string> reported;  // calls whose failure was already reported
  struct Energy {
    double uj;
    std::uint64_t time_ns;
  };
  std::optional<Energy> last_energy;

  // One poll's readings. Calls that fail with a real error (not "not supported") are listed in
  // `failed` as "call: reason"; the signal they read is left missing.
  void read(const RocmSmiLibrary& lib, bool pcie, SignalValues& v,
            std::vector<std::pair<std::string, std::string>>& failed);
};

void AmdSource::Device::read(const RocmSmiLibrary& lib, bool pcie, SignalValues& v,
                             std::vector<std::pair<std::string, std::string>>& failed) {
  // Whether a call worked. "Not supported" (this GPU or kernel lacks it) just leaves the signal
  // missing, never zero; any other failure is also noted for a diagnostic.
  auto ok = [&](rsmi_status_t rc, const char* call) {
    if (rc == RSMI_STATUS_SUCCESS) return true;
    if (rc != RSMI_STATUS_NOT_SUPPORTED && rc != RSMI_STATUS_NOT_YET_IMPLEMENTED)
      failed.emplace_back(call, lib.error_string(rc));
    return false;
  };

  std::uint32_t pct = 0;
  if (lib.dev_busy_percent_get && ok(lib.dev_busy_percent_get(index, &pct), "rsmi_dev_busy_percent_get"))
    v.set(Signal::GpuUtil, pct);
  if (lib.dev_memory_busy_percent_get &&
      ok(lib.dev_memory_busy_percent_get(index, &pct), "rsmi_dev_memory_busy_percent_get"))
    v.set(Signal::MemUtil, pct);

  std::uint64_t x = 0;
  if (lib.dev_memory_usage_get &&
      ok(lib.dev_memory_usage_get(index, RSMI_MEM_TYPE_VRAM, &x), "rsmi_dev_memory_usage_get"))
    v.set(Signal::MemUsed, static_cast<double>(x) / kBytesPerMiB);
  if (lib.dev_memory_total_get &&
      ok(lib.dev_memory_total_get(index, RSMI_MEM_TYPE_VRAM, &x), "rsmi_dev_memory_total_get"))
    v.set(Signal::MemTotal, static_cast<double>(x) / kBytesPerMiB);

  if (lib.dev_power_ave_get && ok(lib.dev_power_ave_get(index, 0, &x), "rsmi_dev_power_ave_get"))
    v.set(Signal::Power, static_cast<double>(x) / 1e6);  // µW -> W
  if (lib.dev_power_cap_get && ok(lib.dev_power_cap_get(index, 0, &x), "rsmi_dev_power_cap_get"))
    v.set(Signal::PowerLimit, static_cast<double>(x) / 1e6);

  // The energy counter gives the mean power over the whole interval between polls, which the
  // driver's short average (power_ave) does not: preferred whenever there are two readings.
  if (lib.dev_energy_count_get) {
    std::uint64_t count = 0, time_ns = 0;
    float resolution_uj = 0;
    if (ok(lib.dev_energy_count_get(index, &count, &resolution_uj, &time_ns), "rsmi_dev_energy_count_get") &&
        resolution_uj > 0) {
      const Energy now{static_cast<double>(count) * resolution_uj, time_ns};
      // A counter that went back (driver reloaded) gives no rate this once.
      if (last_energy && now.time_ns > last_energy->time_ns && now.uj >= last_energy->uj)
        v.set(Signal::Power,
              (now.uj - last_energy->uj) * 1e3 / static_cast<double>(now.time_ns - last_energy->time_ns));
      last_energy = now;
    } else {
      last_energy.reset();
    }
  }

  // The edge sensor is what rocm-smi shows first; MI200/MI300 have none, so junction stands in.
  if (lib.dev_temp_metric_get) {
    std::int64_t mc = 0;
    rsmi_status_t rc = lib.dev_temp_metric_get(index, RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT, &mc);
    if (rc == RSMI_STATUS_NOT_SUPPORTED)
      rc = lib.dev_temp_metric_get(index, RSMI_TEMP_TYPE_JUNCTION, RSMI_TEMP_CURRENT, &mc);
    if (ok(rc, "rsmi_dev_temp_metric_get")) v.set(Signal::Temperature, static_cast<double>(mc) / 1000);
  }

  if (lib.dev_gpu_clk_freq_get) {
    auto clock = [&](Signal signal, rsmi_clk_type_t type) {
      FrequencyBuffer f{};
      if (!ok(lib.dev_gpu_clk_freq_get(index, type, &f), "rsmi_dev_gpu_clk_freq_get")) return;
      // Decoded with the layout the version implies; when that gives an impossible table and
      // the other layout a possible one, the other is right (a distribution build whose
      // version does not tell ROCm 5 from 6). The two never both look possible: ROCm 6's
      // has_deep_sleep read as num_supported is 0 or 1, below the real count read as current.
      const bool v6 = lib.expects_frequencies_v6();
      std::optional<std::uint64_t> hz = current_hz(f, v6);
      if (!hz) hz = current_hz(f, !v6);
      if (!hz) {
        failed.emplace_back("rsmi_dev_gpu_clk_freq_get", "no current level in the frequency table");
        return;
      }
      v.set(signal, static_cast<double>(*hz) / 1e6);
    };
    clock(Signal::SmClock, RSMI_CLK_TYPE_SYS);
    clock(Signal::MemClock, RSMI_CLK_TYPE_MEM);
  }

  if (pcie && lib.dev_pci_throughput_get) {
    std::uint64_t sent = 0, received = 0, packet = 0;
    if (ok(lib.dev_pci_throughput_get(index, &sent, &received, &packet), "rsmi_dev_pci_throughput_get")) {
      // Packets over one second times the largest packet size: the estimate rocm-smi prints too.
      v.set(Signal::PcieTx, static_cast<double>(sent * packet) / 1e6);
      v.set(Signal::PcieRx, static_cast<double>(received * packet) / 1e6);
    }
  }
}

AmdSource::AmdSource(AmdOptions options)
    : options_(std::move(options)),
      lib_(std::make_unique<RocmSmiLibrary>(options_.libraries.empty() ? RocmSmiLibrary::default_names()
                                                                       : options_.libraries)),
      read_pcie_(options_.interval_s >= options_.pcie_min_interval_s),
      clock_(options_.interval_s) {
  std::uint32_t count = 0;
  if (const rsmi_status_t rc = lib_->num_monitor_devices(&count); rc != RSMI_STATUS_SUCCESS)
    throw NoTelemetryError("cannot count the AMD GPUs: " + lib_->error_string(rc));
  gpu_count_ = count;
  if (count == 0)
    throw NoTelemetryError(
        "no AMD GPU found (ROCm SMI is loaded but reports none); use --backend synthetic or "
        "--replay FILE to run without a GPU");
  if (options_.gpu && (*options_.gpu < 0 || static_cast<std::uint32_t>(*options_.gpu) >= count))
    throw NoTelemetryError("there is no GPU " + std::to_string(*options_.gpu) + ": this machine has " +
                           std::to_string(count) + " AMD GPU" +
                           (count == 1 ? " (index 0)" : "s (indices 0-" + std::to_string(count - 1) + ")"));

  for (std::uint32_t i = 0; i < count; ++i) {
    if (options_.gpu && static_cast<std::uint32_t>(*options_.gpu) != i) continue;
    Device d;
    d.index = i;
    auto id = std::make_shared<GpuIdentity>();
    id->index = static_cast<int>(i);
    std::string name(256, '\0');
    if (lib_->dev_name_get && lib_->dev_name_get(i, name.data(), name.size()) == RSMI_STATUS_SUCCESS)
      id->name = name.substr(0, name.find('\0'));
    std::uint64_t x = 0;
    if (lib_->dev_unique_id_get && lib_->dev_unique_id_get(i, &x) == RSMI_STATUS_SUCCESS && x != 0)
      id->uuid = format_unique_id(x);
    if (lib_->dev_pci_id_get && lib_->dev_pci_id_get(i, &x) == RSMI_STATUS_SUCCESS) id->pci_bus_id = format_bdf(x);
    d.where = "GPU " + std::to_string(i) + (id->uuid.empty() ? "" : " (" + id->uuid + ")");
    d.gpu = std::move(id);
    devices_.push_back(std::move(d));
  }
}

AmdSource::~AmdSource() = default;

bool AmdSource::next(Sample& out) {
  if (pending_pos_ == pending_.size()) {
    if (options_.samples > 0 && polls_ >= options_.samples) return false;
    if (!poll()) return false;
  }
  out = pending_[pending_pos_++];
  return true;
}

// One sample per live GPU, all stamped with the same wall-clock time. False when every GPU is lost.
bool AmdSource::poll() {
  if (std::all_of(devices_.begin(), devices_.end(), [](const Device& d) { return d.lost; })) return false;
  clock_.wait();
  ++polls_;

  pending_.clear();
  pending_pos_ = 0;
  const double time_s = PollClock::wall_clock_s();
  for (Device& d : devices_) {
    if (d.lost) continue;
    Sample s{{time_s, {}}, d.gpu};
    std::vector<std::pair<std::string, std::string>> failed;
    d.read(*lib_, read_pcie_, s.values, failed);
    // ROCm SMI has no "GPU lost" code: a GPU that fell off the bus (or whose driver was
    // unbound) fails every call, as its sysfs files are gone. Nothing read and errors only is
    // taken to mean that.
    if (s.values.empty() && !failed.empty()) {
      d.lost = true;
      report(
          {d.where, "GPU is gone (" + failed.front().first + ": " + failed.front().second + "); no longer read", true});
      continue;
    }
    // Other failures: the signal is missing this poll; each call is reported once per GPU.
    for (const auto& [call, why] : failed)
      if (d.reported.insert(call).second)
        report({d.where, call + " failed: " + why + "; that signal is missing while it fails", true});
    pending_.push_back(std::move(s));
  }
  return !pending_.empty();
}

}  // namespace wt
