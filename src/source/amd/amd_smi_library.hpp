// AMD SMI (libamd_smi), loaded with dlopen at run time. Debian 12 has no amdsmi header, so the
// few types, constants and struct layouts used are declared here by hand from the public
// include/amd_smi/amdsmi.h of ROCm/amdsmi, read at two library versions:
//   AMDSMI_LIB_VERSION 24.6.1 (year 24, major 6; commit 057d688b of ROCm/amdsmi)
//   AMDSMI_LIB_VERSION 26.1.0 (major 26; its year field dropped)
// The major version changes with every ABI break (the header says so), and the structs read
// here did change between them (amdsmi_power_info_t, amdsmi_asic_info_t, amdsmi_version_t), so
// only those two majors are read; any other is refused (AmdSource then uses ROCm SMI). The
// static_asserts pin every struct to the size and offsets of the header it comes from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wt {

namespace amdsmi {

using amdsmi_status_t = std::uint32_t;  // a C enum holding 0xFFFFFFFF: unsigned int-sized
inline constexpr amdsmi_status_t AMDSMI_STATUS_SUCCESS = 0;
inline constexpr amdsmi_status_t AMDSMI_STATUS_INVAL = 1;
inline constexpr amdsmi_status_t AMDSMI_STATUS_NOT_SUPPORTED = 2;
inline constexpr amdsmi_status_t AMDSMI_STATUS_NOT_YET_IMPLEMENTED = 3;
inline constexpr amdsmi_status_t AMDSMI_STATUS_NO_PERM = 10;
inline constexpr amdsmi_status_t AMDSMI_STATUS_FILE_ERROR = 14;
inline constexpr amdsmi_status_t AMDSMI_STATUS_INIT_ERROR = 18;
inline constexpr amdsmi_status_t AMDSMI_STATUS_NOT_FOUND = 31;
inline constexpr amdsmi_status_t AMDSMI_STATUS_DRIVER_NOT_LOADED = 34;
inline constexpr amdsmi_status_t AMDSMI_STATUS_UNKNOWN_ERROR = 0xFFFFFFFF;

inline constexpr std::uint64_t AMDSMI_INIT_AMD_GPUS = 1U << 1;

using amdsmi_processor_handle = void*;
using amdsmi_socket_handle = void*;

using amdsmi_clk_type_t = std::uint32_t;
inline constexpr amdsmi_clk_type_t AMDSMI_CLK_TYPE_GFX = 0;
inline constexpr amdsmi_clk_type_t AMDSMI_CLK_TYPE_MEM = 4;

using amdsmi_temperature_type_t = std::uint32_t;
inline constexpr amdsmi_temperature_type_t AMDSMI_TEMPERATURE_TYPE_EDGE = 0;
inline constexpr amdsmi_temperature_type_t AMDSMI_TEMPERATURE_TYPE_HOTSPOT = 1;  // = _JUNCTION

using amdsmi_temperature_metric_t = std::uint32_t;
inline constexpr amdsmi_temperature_metric_t AMDSMI_TEMP_CURRENT = 0;

using amdsmi_memory_type_t = std::uint32_t;
inline constexpr amdsmi_memory_type_t AMDSMI_MEM_TYPE_VRAM = 0;

inline constexpr std::uint32_t AMDSMI_GPU_UUID_SIZE = 38;

// amdsmi_version_t: 24.x has the year first, 26 drops it. Both are 24 bytes with `build` at
// offset 16, so one zeroed buffer serves and the first word tells them apart (see
// AmdSmiLibrary::read_version).
struct amdsmi_version_v24_t {
  std::uint32_t year, major, minor, release;
  const char* build;
};
struct amdsmi_version_v26_t {
  std::uint32_t major, minor, release;
  const char* build;
};
static_assert(sizeof(amdsmi_version_v24_t) == 24 && offsetof(amdsmi_version_v24_t, build) == 16);
static_assert(sizeof(amdsmi_version_v26_t) == 24 && offsetof(amdsmi_version_v26_t, build) == 16);

// amdsmi_engine_usage_t, the same in both (%). Older libraries (major 1) had mm_activity[8]
// here, which moves nothing read.
struct amdsmi_engine_usage_t {
  std::uint32_t gfx_activity, umc_activity, mm_activity;
  std::uint32_t reserved[13];
};
static_assert(sizeof(amdsmi_engine_usage_t) == 64);

// amdsmi_power_info_t (W). MI300 fills current_socket_power, earlier GPUs average_socket_power;
// the other is a "not supported" sentinel.
struct amdsmi_power_info_v6_t {
  std::uint32_t current_socket_power, average_socket_power;
  std::uint32_t gfx_voltage, soc_voltage, mem_voltage;  // mV
  std::uint32_t power_limit;
  std::uint32_t reserved[11];
};
struct amdsmi_power_info_v26_t {
  std::uint64_t socket_power;
  std::uint32_t current_socket_power, average_socket_power;
  std::uint64_t gfx_voltage, soc_voltage, mem_voltage;  // mV
  std::uint32_t power_limit;
  std::uint64_t reserved[18];
};
static_assert(sizeof(amdsmi_power_info_v6_t) == 68 && offsetof(amdsmi_power_info_v6_t, average_socket_power) == 4);
static_assert(sizeof(amdsmi_power_info_v26_t) == 192 && offsetof(amdsmi_power_info_v26_t, current_socket_power) == 8 &&
              offsetof(amdsmi_power_info_v26_t, average_socket_power) == 12 &&
              offsetof(amdsmi_power_info_v26_t, power_limit) == 40);

// amdsmi_power_cap_info_t, the same in both (µW).
struct amdsmi_power_cap_info_t {
  std::uint64_t power_cap, default_power_cap, dpm_cap, min_power_cap, max_power_cap;
  std::uint64_t reserved[3];
};
static_assert(sizeof(amdsmi_power_cap_info_t) == 64);

// amdsmi_clk_info_t, the same in both (MHz).
struct amdsmi_clk_info_t {
  std::uint32_t clk, min_clk, max_clk;
  std::uint8_t clk_locked, clk_deep_sleep;
  std::uint32_t reserved[4];
};
static_assert(sizeof(amdsmi_clk_info_t) == 32 && offsetof(amdsmi_clk_info_t, reserved) == 16);

// amdsmi_asic_info_t: market_name comes first in both, but the strings after it grew.
struct amdsmi_asic_info_v6_t {
  char market_name[256];
  std::uint32_t vendor_id;
  char vendor_name[64];
  std::uint32_t subvendor_id;
  std::uint64_t device_id;
  std::uint32_t rev_id;
  char asic_serial[32];
  std::uint32_t oam_id;
  std::uint32_t reserved[18];
};
struct amdsmi_asic_info_v26_t {
  char market_name[256];
  std::uint32_t vendor_id;
  char vendor_name[256];
  std::uint32_t subvendor_id;
  std::uint64_t device_id;
  std::uint32_t rev_id;
  char asic_serial[256];
  std::uint32_t oam_id, num_of_compute_units;
  std::uint64_t target_graphics_version;
  std::uint32_t subsystem_id;
  std::uint32_t reserved[21];
};
static_assert(sizeof(amdsmi_asic_info_v6_t) == 448 && offsetof(amdsmi_asic_info_v6_t, device_id) == 328);
static_assert(sizeof(amdsmi_asic_info_v26_t) == 896 &&
              offsetof(amdsmi_asic_info_v26_t, target_graphics_version) == 800);

// amdsmi_bdf_t: a uint64_t of bit fields, function 0-2, device 3-7, bus 8-15, domain 16-63.
using amdsmi_bdf_t = std::uint64_t;

// What the library is handed for the structs whose layout differs: room for either.
union PowerInfoBuffer {
  amdsmi_power_info_v6_t v6;
  amdsmi_power_info_v26_t v26;
};
union AsicInfoBuffer {
  amdsmi_asic_info_v6_t v6;
  amdsmi_asic_info_v26_t v26;
};

}  // namespace amdsmi

// The loaded library and its entry points. Construction loads the first of the candidate
// names that dlopen finds, checks the version, calls amdsmi_init(AMDSMI_INIT_AMD_GPUS) and lists
// the GPUs; the destructor calls amdsmi_shut_down and unloads it. Optional entry points are
// null when missing.
class AmdSmiLibrary {
 public:
  // The struct layouts read, by library major version.
  enum class Layout { V6, V26 };

  // Names tried in order: the unversioned name of ROCm's own packages, then sonames.
  static std::vector<std::string> default_names();

  // Throws LibraryNotFound when no candidate loads; NoTelemetryError (one line) when it is
  // not AMD SMI, its version is one whose layouts are not known here, or amdsmi_init fails.
  explicit AmdSmiLibrary(const std::vector<std::string>& names);
  ~AmdSmiLibrary();
  AmdSmiLibrary(const AmdSmiLibrary&) = delete;
  AmdSmiLibrary& operator=(const AmdSmiLibrary&) = delete;

  // amdsmi_status_code_to_string's text, e.g. "AMDSMI_STATUS_NOT_SUPPORTED".
  std::string error_string(amdsmi::amdsmi_status_t code) const;
  const std::string& name() const { return name_; }
  // As `amd-smi version` prints it: "24.6.1" (year.major.minor) or "26.1.0".
  const std::string& version() const { return version_; }
  Layout layout() const { return layout_; }
  // Every GPU of every socket, in the library's order.
  const std::vector<amdsmi::amdsmi_processor_handle>& gpus() const { return gpus_; }

  template <class Signature>
  using Fn = Signature*;
  using Status = amdsmi::amdsmi_status_t;
  using Handle = amdsmi::amdsmi_processor_handle;

  // Optional.
  Fn<Status(Handle, void*)> get_gpu_asic_info = nullptr;  // an AsicInfoBuffer
  Fn<Status(Handle, unsigned*, char*)> get_gpu_device_uuid = nullptr;
  Fn<Status(Handle, amdsmi::amdsmi_bdf_t*)> get_gpu_device_bdf = nullptr;
  Fn<Status(Handle, amdsmi::amdsmi_engine_usage_t*)> get_gpu_activity = nullptr;
  Fn<Status(Handle, amdsmi::amdsmi_memory_type_t, std::uint64_t*)> get_gpu_memory_usage = nullptr;  // bytes
  Fn<Status(Handle, amdsmi::amdsmi_memory_type_t, std::uint64_t*)> get_gpu_memory_total = nullptr;  // bytes
  Fn<Status(Handle, void*)> get_power_info = nullptr;                                               // a PowerInfoBuffer
  Fn<Status(Handle, std::uint32_t, amdsmi::amdsmi_power_cap_info_t*)> get_power_cap_info = nullptr;
  // counter, its resolution in µJ, timestamp in ns (ROCm SMI's accumulator, passed through).
  Fn<Status(Handle, std::uint64_t*, float*, std::uint64_t*)> get_energy_count = nullptr;
  Fn<Status(Handle, amdsmi::amdsmi_clk_type_t, amdsmi::amdsmi_clk_info_t*)> get_clock_info = nullptr;
  // degrees C (the library divides ROCm SMI's millidegrees)
  Fn<Status(Handle, amdsmi::amdsmi_temperature_type_t, amdsmi::amdsmi_temperature_metric_t, std::int64_t*)>
      get_temp_metric = nullptr;
  // Packets sent and received over about one second (it sleeps that long), and the packet size.
  Fn<Status(Handle, std::uint64_t*, std::uint64_t*, std::uint64_t*)> get_gpu_pci_throughput = nullptr;

 private:
  void fail(const std::string& why);  // unloads, then throws NoTelemetryError
  void read_version();

  void* handle_ = nullptr;
  bool initialized_ = false;
  std::string name_;
  std::string version_;
  Layout layout_ = Layout::V26;
  std::vector<amdsmi::amdsmi_processor_handle> gpus_;
  Fn<Status()> shut_down_ = nullptr;
  Fn<Status(Status, const char**)> status_to_string_ = nullptr;
};

}  // namespace wt
