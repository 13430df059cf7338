#include "source/nvml/nvml_library.hpp"

#include <dlfcn.h>

#include <type_traits>

#include "core/diagnostic.hpp"
#include "source/dynamic_library.hpp"

namespace wt {

namespace {

// The newest of NAME_v3, NAME_v2 (both fill nvmlProcessInfo_t) and NAME (nvmlProcessInfo_v1_t).
NvmlLibrary::ProcessQuery resolve_processes(void* handle, const std::string& name) {
  using Call = std::remove_pointer_t<decltype(NvmlLibrary::ProcessQuery::call)>;
  if (auto* f = resolve<Call>(handle, {(name + "_v3").c_str(), (name + "_v2").c_str()}))
    return {f, sizeof(nvml::nvmlProcessInfo_t)};
  if (auto* f = resolve<Call>(handle, {name.c_str()})) return {f, sizeof(nvml::nvmlProcessInfo_v1_t)};
  return {};
}

}  // namespace

NvmlLibrary::NvmlLibrary(const std::string& name) {
  const LoadedLibrary lib = load_first({name});
  handle_ = lib.handle;
  if (handle_ == nullptr) {
    throw NoTelemetryError("NVIDIA driver library " + name + " cannot be loaded (" + lib.why +
                           "): is the NVIDIA driver installed? Use --backend synthetic or --replay FILE to run "
                           "without a GPU.");
  }

  auto init = resolve<Return()>(handle_, {"nvmlInit_v2", "nvmlInit"});
  shutdown_ = resolve<Return()>(handle_, {"nvmlShutdown"});
  error_string_ = resolve<const char*(Return)>(handle_, {"nvmlErrorString"});
  device_get_count = resolve<Return(unsigned int*)>(handle_, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  device_get_handle_by_index =
      resolve<Return(unsigned int, Device*)>(handle_, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
  if (!init || !shutdown_ || !error_string_ || !device_get_count || !device_get_handle_by_index) {
    dlclose(handle_);
    throw NoTelemetryError(name +
                           " is not a usable NVIDIA NVML library (it lacks nvmlInit, nvmlShutdown, "
                           "nvmlErrorString or the device enumeration calls)");
  }

  const Return rc = init();
  if (rc != nvml::NVML_SUCCESS) {
    // error_string needs the library loaded, so the message is built before unloading it.
    std::string msg = "NVIDIA driver library " + name + " loaded, but nvmlInit failed: " + error_string(rc) +
                      " (NVML error " + std::to_string(rc) +
                      "); use --backend synthetic or --replay FILE to run without a GPU.";
    dlclose(handle_);
    throw NoTelemetryError(msg);
  }

  device_get_name = resolve<Return(Device, char*, unsigned int)>(handle_, {"nvmlDeviceGetName"});
  device_get_uuid = resolve<Return(Device, char*, unsigned int)>(handle_, {"nvmlDeviceGetUUID"});
  // Only _v3: older entry points fill a different nvmlPciInfo_t layout.
  device_get_pci_info = resolve<Return(Device, nvml::nvmlPciInfo_t*)>(handle_, {"nvmlDeviceGetPciInfo_v3"});
  device_get_utilization_rates =
      resolve<Return(Device, nvml::nvmlUtilization_t*)>(handle_, {"nvmlDeviceGetUtilizationRates"});
  device_get_memory_info = resolve<Return(Device, nvml::nvmlMemory_t*)>(handle_, {"nvmlDeviceGetMemoryInfo"});
  device_get_power_usage = resolve<Return(Device, unsigned int*)>(handle_, {"nvmlDeviceGetPowerUsage"});
  device_get_enforced_power_limit =
      resolve<Return(Device, unsigned int*)>(handle_, {"nvmlDeviceGetEnforcedPowerLimit"});
  device_get_temperature =
      resolve<Return(Device, nvml::nvmlTemperatureSensors_t, unsigned int*)>(handle_, {"nvmlDeviceGetTemperature"});
  device_get_clock_info =
      resolve<Return(Device, nvml::nvmlClockType_t, unsigned int*)>(handle_, {"nvmlDeviceGetClockInfo"});
  device_get_pcie_throughput =
      resolve<Return(Device, nvml::nvmlPcieUtilCounter_t, unsigned int*)>(handle_, {"nvmlDeviceGetPcieThroughput"});
  device_get_field_values =
      resolve<Return(Device, int, nvml::nvmlFieldValue_t*)>(handle_, {"nvmlDeviceGetFieldValues"});
  compute_processes = resolve_processes(handle_, "nvmlDeviceGetComputeRunningProcesses");
  graphics_processes = resolve_processes(handle_, "nvmlDeviceGetGraphicsRunningProcesses");
  device_get_samples = resolve<Return(Device, nvml::nvmlSamplingType_t, unsigned long long, nvml::nvmlValueType_t*,
                                      unsigned int*, nvml::nvmlSample_t*)>(handle_, {"nvmlDeviceGetSamples"});
}

NvmlLibrary::~NvmlLibrary() {
  shutdown_();
  dlclose(handle_);
}

std::string NvmlLibrary::error_string(nvml::nvmlReturn_t code) const {
  const char* text = error_string_(code);
  return text ? text : "NVML error " + std::to_string(code);
}

}  // namespace wt
