#include "source/amd/rocm_smi_library.hpp"

#include <dlfcn.h>

#include "source/amd/amd_gpu_reader.hpp"
#include "source/dynamic_library.hpp"

namespace wt {

std::vector<std::string> RocmSmiLibrary::default_names() {
  return {"librocm_smi64.so", "librocm_smi64.so.7", "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1"};
}

RocmSmiLibrary::RocmSmiLibrary(const std::vector<std::string>& names) {
  // ROCm installs under /opt/rocm/lib, normally in ld.so.conf; if not, LD_LIBRARY_PATH finds it.
  const LoadedLibrary lib = load_first(names);
  handle_ = lib.handle;
  name_ = lib.name;
  if (handle_ == nullptr)
    throw LibraryNotFound("AMD ROCm SMI library (librocm_smi64.so) cannot be loaded (" + lib.why + ")");

  auto init = resolve<Status(std::uint64_t)>(handle_, "rsmi_init");
  shut_down_ = resolve<Status()>(handle_, "rsmi_shut_down");
  status_string_ = resolve<Status(Status, const char**)>(handle_, "rsmi_status_string");
  num_monitor_devices = resolve<Status(std::uint32_t*)>(handle_, "rsmi_num_monitor_devices");
  if (!init || !shut_down_ || !status_string_ || !num_monitor_devices) {
    dlclose(handle_);
    throw NoTelemetryError(name_ +
                           " is not a usable ROCm SMI library (it lacks rsmi_init, rsmi_shut_down, "
                           "rsmi_status_string or rsmi_num_monitor_devices)");
  }

  if (const Status rc = init(0); rc != rsmi::RSMI_STATUS_SUCCESS) {
    std::string msg = "AMD ROCm SMI library " + name_ + " loaded, but rsmi_init failed: " + error_string(rc) +
                      " (is the amdgpu driver loaded?)";
    dlclose(handle_);
    throw NoTelemetryError(msg);
  }

  // The struct layout of rsmi_frequencies_t depends on the version; without rsmi_version_get
  // (every 5.x and 6.x library has it) the major stays 0 and the 5.x layout is assumed.
  if (auto version_get = resolve<Status(rsmi::rsmi_version_t*)>(handle_, "rsmi_version_get")) {
    rsmi::rsmi_version_t v{};
    if (version_get(&v) == rsmi::RSMI_STATUS_SUCCESS) major_ = v.major;
  }

  dev_name_get = resolve<Status(std::uint32_t, char*, std::size_t)>(handle_, "rsmi_dev_name_get");
  dev_unique_id_get = resolve<Status(std::uint32_t, std::uint64_t*)>(handle_, "rsmi_dev_unique_id_get");
  dev_pci_id_get = resolve<Status(std::uint32_t, std::uint64_t*)>(handle_, "rsmi_dev_pci_id_get");
  dev_busy_percent_get = resolve<Status(std::uint32_t, std::uint32_t*)>(handle_, "rsmi_dev_busy_percent_get");
  dev_memory_busy_percent_get =
      resolve<Status(std::uint32_t, std::uint32_t*)>(handle_, "rsmi_dev_memory_busy_percent_get");
  dev_memory_usage_get =
      resolve<Status(std::uint32_t, rsmi::rsmi_memory_type_t, std::uint64_t*)>(handle_, "rsmi_dev_memory_usage_get");
  dev_memory_total_get =
      resolve<Status(std::uint32_t, rsmi::rsmi_memory_type_t, std::uint64_t*)>(handle_, "rsmi_dev_memory_total_get");
  dev_power_ave_get = resolve<Status(std::uint32_t, std::uint32_t, std::uint64_t*)>(handle_, "rsmi_dev_power_ave_get");
  dev_power_cap_get = resolve<Status(std::uint32_t, std::uint32_t, std::uint64_t*)>(handle_, "rsmi_dev_power_cap_get");
  dev_energy_count_get =
      resolve<Status(std::uint32_t, std::uint64_t*, float*, std::uint64_t*)>(handle_, "rsmi_dev_energy_count_get");
  dev_temp_metric_get = resolve<Status(std::uint32_t, std::uint32_t, rsmi::rsmi_temperature_metric_t, std::int64_t*)>(
      handle_, "rsmi_dev_temp_metric_get");
  dev_gpu_clk_freq_get =
      resolve<Status(std::uint32_t, rsmi::rsmi_clk_type_t, void*)>(handle_, "rsmi_dev_gpu_clk_freq_get");
  dev_pci_throughput_get = resolve<Status(std::uint32_t, std::uint64_t*, std::uint64_t*, std::uint64_t*)>(
      handle_, "rsmi_dev_pci_throughput_get");
}

RocmSmiLibrary::~RocmSmiLibrary() {
  shut_down_();
  dlclose(handle_);
}

std::string RocmSmiLibrary::error_string(rsmi::rsmi_status_t code) const {
  const char* text = nullptr;
  if (status_string_(code, &text) != rsmi::RSMI_STATUS_SUCCESS || text == nullptr)
    return "ROCm SMI error " + std::to_string(code);
  return text;
}

}  // namespace wt
