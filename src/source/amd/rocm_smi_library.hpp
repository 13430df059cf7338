// ROCm SMI (librocm_smi64), loaded with dlopen at run time. No ROCm header is needed to build:
// the few types, constants and struct layouts used are declared here from the public
// rocm_smi.h. tests/rocm_smi_abi_test.cpp checks them against Debian's librocm-smi-dev header
// (ROCm 5.2); the ROCm 6 layout of rsmi_frequencies_t, which that header predates, is pinned
// by the static_asserts below (see docs/amd.md for where it comes from).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wt {

namespace rsmi {

using rsmi_status_t = std::uint32_t;  // a C enum holding 0xFFFFFFFF: unsigned int-sized
inline constexpr rsmi_status_t RSMI_STATUS_SUCCESS = 0;
inline constexpr rsmi_status_t RSMI_STATUS_INVALID_ARGS = 1;
inline constexpr rsmi_status_t RSMI_STATUS_NOT_SUPPORTED = 2;
inline constexpr rsmi_status_t RSMI_STATUS_FILE_ERROR = 3;
inline constexpr rsmi_status_t RSMI_STATUS_PERMISSION = 4;
inline constexpr rsmi_status_t RSMI_STATUS_INIT_ERROR = 8;
inline constexpr rsmi_status_t RSMI_STATUS_NOT_YET_IMPLEMENTED = 9;
inline constexpr rsmi_status_t RSMI_STATUS_NOT_FOUND = 10;

using rsmi_clk_type_t = std::uint32_t;
inline constexpr rsmi_clk_type_t RSMI_CLK_TYPE_SYS = 0;  // SCLK, the shader clock
inline constexpr rsmi_clk_type_t RSMI_CLK_TYPE_MEM = 4;  // MCLK

using rsmi_memory_type_t = std::uint32_t;
inline constexpr rsmi_memory_type_t RSMI_MEM_TYPE_VRAM = 0;

using rsmi_temperature_metric_t = std::uint32_t;
inline constexpr rsmi_temperature_metric_t RSMI_TEMP_CURRENT = 0;

// rsmi_temperature_type_t, passed as a plain uint32_t sensor index.
inline constexpr std::uint32_t RSMI_TEMP_TYPE_EDGE = 0;
inline constexpr std::uint32_t RSMI_TEMP_TYPE_JUNCTION = 1;

struct rsmi_version_t {
  std::uint32_t major;
  std::uint32_t minor;
  std::uint32_t patch;
  const char* build;
};

// rsmi_frequencies_t up to ROCm 5.x (rsmi_version_get major <= 5).
inline constexpr std::size_t kMaxFrequenciesV5 = 32;
struct rsmi_frequencies_v5_t {
  std::uint32_t num_supported;
  std::uint32_t current;                       // index into frequency
  std::uint64_t frequency[kMaxFrequenciesV5];  // Hz
};

// rsmi_frequencies_t from ROCm 6 (major >= 6): a deep-sleep flag first, and one more slot
// (32 levels + the sleep frequency). Read with the 5.x layout it would put the flag where
// num_supported is and shift everything by 8 bytes.
inline constexpr std::size_t kMaxFrequenciesV6 = 33;
struct rsmi_frequencies_v6_t {
  bool has_deep_sleep;
  std::uint32_t num_supported;
  std::uint32_t current;
  std::uint64_t frequency[kMaxFrequenciesV6];
};

static_assert(sizeof(rsmi_frequencies_v5_t) == 264 && offsetof(rsmi_frequencies_v5_t, frequency) == 8);
static_assert(sizeof(rsmi_frequencies_v6_t) == 280 && offsetof(rsmi_frequencies_v6_t, num_supported) == 4 &&
              offsetof(rsmi_frequencies_v6_t, frequency) == 16);
static_assert(sizeof(rsmi_version_t) == 24);

// What rsmi_dev_gpu_clk_freq_get is handed: room for either layout, so a library of the
// other version can never write past it; it is decoded by the version the library reports.
union FrequencyBuffer {
  rsmi_frequencies_v5_t v5;
  rsmi_frequencies_v6_t v6;
};

}  // namespace rsmi

// The loaded library and its entry points. Construction loads the first of the candidate
// names that dlopen finds, calls rsmi_init(0) and reads the library version; the destructor
// calls rsmi_shut_down and unloads it. Optional entry points are null when missing.
class RocmSmiLibrary {
 public:
  // Names tried in order. The unversioned name comes from ROCm's own packages (and Debian's
  // -dev); the versioned ones are what a runtime-only install has (1: Debian, 5-7: ROCm).
  static std::vector<std::string> default_names();

  // Throws LibraryNotFound when no candidate loads; NoTelemetryError (one line) when it is not
  // ROCm SMI or rsmi_init fails.
  explicit RocmSmiLibrary(const std::vector<std::string>& names);
  ~RocmSmiLibrary();
  RocmSmiLibrary(const RocmSmiLibrary&) = delete;
  RocmSmiLibrary& operator=(const RocmSmiLibrary&) = delete;

  // rsmi_status_string's text, e.g. "RSMI_STATUS_NOT_SUPPORTED: ...".
  std::string error_string(rsmi::rsmi_status_t code) const;
  const std::string& name() const { return name_; }
  // rsmi_version_get's major version; 0 when the library does not say. ROCm's own builds
  // report the ROCm generation (5; 6 for ROCm 6.0; 7 for 6.1 and later), but distribution
  // builds may report their soname instead (Debian's 5.2 says 1).
  std::uint32_t major_version() const { return major_; }
  // Whether the version implies ROCm 6's rsmi_frequencies_t. Only a hint: see AmdSource.
  bool expects_frequencies_v6() const { return major_ >= 6; }

  template <class Signature>
  using Fn = Signature*;
  using Status = rsmi::rsmi_status_t;

  // Required: never null.
  Fn<Status(std::uint32_t*)> num_monitor_devices = nullptr;

  // Optional.
  Fn<Status(std::uint32_t, char*, std::size_t)> dev_name_get = nullptr;
  Fn<Status(std::uint32_t, std::uint64_t*)> dev_unique_id_get = nullptr;
  Fn<Status(std::uint32_t, std::uint64_t*)> dev_pci_id_get = nullptr;
  Fn<Status(std::uint32_t, std::uint32_t*)> dev_busy_percent_get = nullptr;
  Fn<Status(std::uint32_t, std::uint32_t*)> dev_memory_busy_percent_get = nullptr;
  Fn<Status(std::uint32_t, rsmi::rsmi_memory_type_t, std::uint64_t*)> dev_memory_usage_get = nullptr;  // bytes
  Fn<Status(std::uint32_t, rsmi::rsmi_memory_type_t, std::uint64_t*)> dev_memory_total_get = nullptr;  // bytes
  Fn<Status(std::uint32_t, std::uint32_t, std::uint64_t*)> dev_power_ave_get = nullptr;                // µW
  Fn<Status(std::uint32_t, std::uint32_t, std::uint64_t*)> dev_power_cap_get = nullptr;                // µW
  // counter, its resolution in µJ, timestamp in ns.
  Fn<Status(std::uint32_t, std::uint64_t*, float*, std::uint64_t*)> dev_energy_count_get = nullptr;
  // millidegrees C
  Fn<Status(std::uint32_t, std::uint32_t, rsmi::rsmi_temperature_metric_t, std::int64_t*)> dev_temp_metric_get =
      nullptr;
  // Filled with rsmi_frequencies_t of the library's layout; hand it a FrequencyBuffer.
  Fn<Status(std::uint32_t, rsmi::rsmi_clk_type_t, void*)> dev_gpu_clk_freq_get = nullptr;
  // Packets sent and received over about one second (it sleeps that long), and the packet size.
  Fn<Status(std::uint32_t, std::uint64_t*, std::uint64_t*, std::uint64_t*)> dev_pci_throughput_get = nullptr;

 private:
  void* handle_ = nullptr;
  std::string name_;
  std::uint32_t major_ = 0;
  Fn<Status()> shut_down_ = nullptr;
  Fn<Status(Status, const char**)> status_string_ = nullptr;
};

}  // namespace wt
