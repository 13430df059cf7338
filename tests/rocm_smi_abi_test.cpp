// Compile-time check of the hand-written ROCm SMI declarations (src/source/amd/rocm_smi_library.hpp)
// against Debian's librocm-smi-dev header (ROCm 5.2): enum values, struct layouts and the
// argument types of every entry point AmdSource calls. A mismatch fails the build. ROCm 6's
// rsmi_frequencies_t is newer than that header and is pinned in rocm_smi_library.hpp itself.
#include <rocm_smi/rocm_smi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "source/amd/rocm_smi_library.hpp"

namespace {

namespace ours = wt::rsmi;
using Lib = wt::RocmSmiLibrary;

// Two arguments are passed alike when they have the same size and are both pointers (to
// objects of one size, or void on our side) or both not; enums and their integer stand-ins
// match this way.
template <class A, class B>
constexpr bool same_abi_arg() {
  if constexpr (std::is_pointer_v<A> != std::is_pointer_v<B>) {
    return false;
  } else if constexpr (std::is_pointer_v<A>) {
    using PA = std::remove_cv_t<std::remove_pointer_t<A>>;
    using PB = std::remove_cv_t<std::remove_pointer_t<B>>;
    if constexpr (std::is_void_v<PB>)
      return true;  // our void* for a struct of either layout
    else
      return sizeof(PA) == sizeof(PB);
  } else {
    return sizeof(A) == sizeof(B) && std::is_integral_v<B> && (std::is_integral_v<A> || std::is_enum_v<A>);
  }
}

template <class R1, class... A1, class R2, class... A2>
constexpr bool same_abi(R1 (*)(A1...), R2 (*)(A2...)) {
  if constexpr (sizeof...(A1) != sizeof...(A2))
    return false;
  else
    return sizeof(R1) == sizeof(R2) && (same_abi_arg<A1, A2>() && ...);
}

// decltype of a non-static member names its declared type: our function-pointer type.
#define WT_SAME_ABI(header_fn, our_member) \
  static_assert(same_abi(&::header_fn, static_cast<decltype(Lib::our_member)>(nullptr)), #header_fn)

WT_SAME_ABI(rsmi_num_monitor_devices, num_monitor_devices);
WT_SAME_ABI(rsmi_dev_name_get, dev_name_get);
WT_SAME_ABI(rsmi_dev_unique_id_get, dev_unique_id_get);
WT_SAME_ABI(rsmi_dev_pci_id_get, dev_pci_id_get);
WT_SAME_ABI(rsmi_dev_busy_percent_get, dev_busy_percent_get);
WT_SAME_ABI(rsmi_dev_memory_busy_percent_get, dev_memory_busy_percent_get);
WT_SAME_ABI(rsmi_dev_memory_usage_get, dev_memory_usage_get);
WT_SAME_ABI(rsmi_dev_memory_total_get, dev_memory_total_get);
WT_SAME_ABI(rsmi_dev_power_ave_get, dev_power_ave_get);
WT_SAME_ABI(rsmi_dev_power_cap_get, dev_power_cap_get);
WT_SAME_ABI(rsmi_dev_energy_count_get, dev_energy_count_get);
WT_SAME_ABI(rsmi_dev_temp_metric_get, dev_temp_metric_get);
WT_SAME_ABI(rsmi_dev_gpu_clk_freq_get, dev_gpu_clk_freq_get);
WT_SAME_ABI(rsmi_dev_pci_throughput_get, dev_pci_throughput_get);
static_assert(same_abi(&::rsmi_init, static_cast<ours::rsmi_status_t (*)(std::uint64_t)>(nullptr)));
static_assert(same_abi(&::rsmi_version_get, static_cast<ours::rsmi_status_t (*)(ours::rsmi_version_t*)>(nullptr)));
static_assert(same_abi(&::rsmi_status_string,
                       static_cast<ours::rsmi_status_t (*)(ours::rsmi_status_t, const char**)>(nullptr)));

static_assert(sizeof(::rsmi_status_t) == sizeof(ours::rsmi_status_t));
static_assert(::RSMI_STATUS_SUCCESS == ours::RSMI_STATUS_SUCCESS);
static_assert(::RSMI_STATUS_INVALID_ARGS == ours::RSMI_STATUS_INVALID_ARGS);
static_assert(::RSMI_STATUS_NOT_SUPPORTED == ours::RSMI_STATUS_NOT_SUPPORTED);
static_assert(::RSMI_STATUS_FILE_ERROR == ours::RSMI_STATUS_FILE_ERROR);
static_assert(::RSMI_STATUS_PERMISSION == ours::RSMI_STATUS_PERMISSION);
static_assert(::RSMI_STATUS_INIT_ERROR == ours::RSMI_STATUS_INIT_ERROR);
static_assert(::RSMI_STATUS_NOT_YET_IMPLEMENTED == ours::RSMI_STATUS_NOT_YET_IMPLEMENTED);
static_assert(::RSMI_STATUS_NOT_FOUND == ours::RSMI_STATUS_NOT_FOUND);

static_assert(sizeof(::rsmi_clk_type_t) == sizeof(ours::rsmi_clk_type_t));
static_assert(::RSMI_CLK_TYPE_SYS == ours::RSMI_CLK_TYPE_SYS && ::RSMI_CLK_TYPE_MEM == ours::RSMI_CLK_TYPE_MEM);
static_assert(sizeof(::rsmi_memory_type_t) == sizeof(ours::rsmi_memory_type_t));
static_assert(::RSMI_MEM_TYPE_VRAM == ours::RSMI_MEM_TYPE_VRAM);
static_assert(sizeof(::rsmi_temperature_metric_t) == sizeof(ours::rsmi_temperature_metric_t));
static_assert(::RSMI_TEMP_CURRENT == ours::RSMI_TEMP_CURRENT);
static_assert(::RSMI_TEMP_TYPE_EDGE == ours::RSMI_TEMP_TYPE_EDGE);
static_assert(::RSMI_TEMP_TYPE_JUNCTION == ours::RSMI_TEMP_TYPE_JUNCTION);

static_assert(sizeof(::rsmi_version_t) == sizeof(ours::rsmi_version_t));
static_assert(offsetof(::rsmi_version_t, build) == offsetof(ours::rsmi_version_t, build));

// Debian's header is ROCm 5: its rsmi_frequencies_t is our 5.x layout.
static_assert(RSMI_MAX_NUM_FREQUENCIES == ours::kMaxFrequenciesV5);
static_assert(sizeof(::rsmi_frequencies_t) == sizeof(ours::rsmi_frequencies_v5_t));
static_assert(offsetof(::rsmi_frequencies_t, num_supported) == offsetof(ours::rsmi_frequencies_v5_t, num_supported));
static_assert(offsetof(::rsmi_frequencies_t, current) == offsetof(ours::rsmi_frequencies_v5_t, current));
static_assert(offsetof(::rsmi_frequencies_t, frequency) == offsetof(ours::rsmi_frequencies_v5_t, frequency));
static_assert(sizeof(ours::FrequencyBuffer) >= sizeof(::rsmi_frequencies_t));

}  // namespace
