// NVML (libnvidia-ml), loaded with dlopen at run time. No NVIDIA header exists at build time, so
// the few types, constants and struct layouts used are declared here, copied from the public
// nvml.h (API version 12); the static_asserts pin the x86-64/aarch64 layouts it implies.
#pragma once

#include <climits>
#include <cstddef>
#include <string>

namespace wt {

namespace nvml {

using nvmlReturn_t = int;  // C enums are int-sized; NVML's codes never change meaning
inline constexpr nvmlReturn_t NVML_SUCCESS = 0;
inline constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
inline constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;
inline constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
inline constexpr nvmlReturn_t NVML_ERROR_DRIVER_NOT_LOADED = 9;
inline constexpr nvmlReturn_t NVML_ERROR_GPU_IS_LOST = 15;

struct nvmlDevice_st;  // opaque: NVML hands out pointers, never contents
using nvmlDevice_t = nvmlDevice_st*;

using nvmlTemperatureSensors_t = int;
inline constexpr nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU = 0;

using nvmlClockType_t = int;
inline constexpr nvmlClockType_t NVML_CLOCK_SM = 1;
inline constexpr nvmlClockType_t NVML_CLOCK_MEM = 2;

using nvmlPcieUtilCounter_t = int;  // KB/s, 1 KB granularity
inline constexpr nvmlPcieUtilCounter_t NVML_PCIE_UTIL_TX_BYTES = 0;
inline constexpr nvmlPcieUtilCounter_t NVML_PCIE_UTIL_RX_BYTES = 1;

using nvmlSamplingType_t = int;
inline constexpr nvmlSamplingType_t NVML_TOTAL_POWER_SAMPLES = 0;  // mW
inline constexpr nvmlSamplingType_t NVML_GPU_UTILIZATION_SAMPLES = 1;
inline constexpr nvmlSamplingType_t NVML_MEMORY_UTILIZATION_SAMPLES = 2;

using nvmlValueType_t = int;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_DOUBLE = 0;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_UNSIGNED_INT = 1;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_UNSIGNED_LONG = 2;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4;
inline constexpr nvmlValueType_t NVML_VALUE_TYPE_SIGNED_INT = 5;

// Field ids for nvmlDeviceGetFieldValues: cumulative KiB of NVLink payload since driver load.
inline constexpr unsigned int NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX = 138;
inline constexpr unsigned int NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX = 139;
// A throughput field's scopeId is a link id; UINT_MAX asks for the sum over all links.
inline constexpr unsigned int kAllNvlinks = UINT_MAX;

inline constexpr unsigned int NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;
inline constexpr unsigned int NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96;

struct nvmlUtilization_t {
  unsigned int gpu;     // % of the last sample period a kernel ran
  unsigned int memory;  // % of it device memory was read or written
};

struct nvmlMemory_t {  // bytes
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

union nvmlValue_t {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
};

struct nvmlSample_t {
  unsigned long long timeStamp;  // CPU time, microseconds since 1970
  nvmlValue_t sampleValue;
};

struct nvmlFieldValue_t {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;  // CPU time, microseconds since 1970
  long long latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t nvmlReturn;  // per field: value is meaningless unless NVML_SUCCESS
  nvmlValue_t value;
};

struct nvmlPciInfo_t {  // filled by nvmlDeviceGetPciInfo_v3
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];  // "00000000:3B:00.0", as nvidia-smi prints pci.bus_id
};

// Entries of nvmlDevice{Compute,Graphics}RunningProcesses: the unversioned calls fill v1, the
// _v2 and _v3 calls fill nvmlProcessInfo_t (v2, with the MIG instance ids).
struct nvmlProcessInfo_v1_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

struct nvmlProcessInfo_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};

static_assert(sizeof(nvmlValue_t) == 8);
static_assert(sizeof(nvmlSample_t) == 16);
static_assert(sizeof(nvmlFieldValue_t) == 40 && offsetof(nvmlFieldValue_t, value) == 32);
static_assert(sizeof(nvmlPciInfo_t) == 68 && offsetof(nvmlPciInfo_t, busId) == 36);
static_assert(sizeof(nvmlProcessInfo_v1_t) == 16 && sizeof(nvmlProcessInfo_t) == 24);

}  // namespace nvml

// The loaded library and its entry points. Construction loads it and calls nvmlInit; the
// destructor calls nvmlShutdown and unloads it. Optional entry points are null when this
// driver's library lacks them: the signal they read is then simply not reported.
class NvmlLibrary {
 public:
  // Throws NoTelemetryError (one line) when the library cannot be loaded, is not NVML, or
  // nvmlInit fails (no driver loaded, say).
  explicit NvmlLibrary(const std::string& name);
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  // nvmlErrorString's text, e.g. "GPU is lost".
  std::string error_string(nvml::nvmlReturn_t code) const;

  template <class Signature>
  using Fn = Signature*;
  using Device = nvml::nvmlDevice_t;
  using Return = nvml::nvmlReturn_t;

  // Required: never null.
  Fn<Return(unsigned int*)> device_get_count = nullptr;
  Fn<Return(unsigned int, Device*)> device_get_handle_by_index = nullptr;

  // Optional.
  Fn<Return(Device, char*, unsigned int)> device_get_name = nullptr;
  Fn<Return(Device, char*, unsigned int)> device_get_uuid = nullptr;
  Fn<Return(Device, nvml::nvmlPciInfo_t*)> device_get_pci_info = nullptr;
  Fn<Return(Device, nvml::nvmlUtilization_t*)> device_get_utilization_rates = nullptr;
  Fn<Return(Device, nvml::nvmlMemory_t*)> device_get_memory_info = nullptr;
  Fn<Return(Device, unsigned int*)> device_get_power_usage = nullptr;           // mW
  Fn<Return(Device, unsigned int*)> device_get_enforced_power_limit = nullptr;  // mW
  Fn<Return(Device, nvml::nvmlTemperatureSensors_t, unsigned int*)> device_get_temperature = nullptr;
  Fn<Return(Device, nvml::nvmlClockType_t, unsigned int*)> device_get_clock_info = nullptr;  // MHz
  Fn<Return(Device, nvml::nvmlPcieUtilCounter_t, unsigned int*)> device_get_pcie_throughput = nullptr;
  Fn<Return(Device, int, nvml::nvmlFieldValue_t*)> device_get_field_values = nullptr;
  // nvmlDevice{Compute,Graphics}RunningProcesses: the newest version the library has, and the
  // size of the entries it fills (sizeof nvmlProcessInfo_t or nvmlProcessInfo_v1_t).
  struct ProcessQuery {
    Fn<Return(Device, unsigned int*, void*)> call = nullptr;
    std::size_t entry_size = 0;
  };
  ProcessQuery compute_processes, graphics_processes;
  Fn<Return(Device, nvml::nvmlSamplingType_t, unsigned long long, nvml::nvmlValueType_t*, unsigned int*,
            nvml::nvmlSample_t*)>
      device_get_samples = nullptr;

 private:
  void* handle_ = nullptr;
  Fn<Return()> shutdown_ = nullptr;
  Fn<const char*(Return)> error_string_ = nullptr;
};

}  // namespace wt
