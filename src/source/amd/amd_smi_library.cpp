#include "source/amd/amd_smi_library.hpp"

#include <dlfcn.h>

#include <cstring>

#include "source/amd/amd_gpu_reader.hpp"
#include "source/dynamic_library.hpp"

namespace wt {

using namespace amdsmi;

std::vector<std::string> AmdSmiLibrary::default_names() {
  // The soname carries the version's first number (the year up to 25, the major from 26).
  return {"libamd_smi.so", "libamd_smi.so.26", "libamd_smi.so.25", "libamd_smi.so.24"};
}

AmdSmiLibrary::AmdSmiLibrary(const std::vector<std::string>& names) {
  // ROCm installs under /opt/rocm/lib, normally in ld.so.conf; if not, LD_LIBRARY_PATH finds it.
  const LoadedLibrary lib = load_first(names);
  handle_ = lib.handle;
  name_ = lib.name;
  if (handle_ == nullptr) throw LibraryNotFound("AMD SMI library (libamd_smi.so) cannot be loaded (" + lib.why + ")");

  auto init = resolve<Status(std::uint64_t)>(handle_, "amdsmi_init");
  shut_down_ = resolve<Status()>(handle_, "amdsmi_shut_down");
  status_to_string_ = resolve<Status(Status, const char**)>(handle_, "amdsmi_status_code_to_string");
  auto sockets = resolve<Status(std::uint32_t*, amdsmi_socket_handle*)>(handle_, "amdsmi_get_socket_handles");
  auto processors = resolve<Status(amdsmi_socket_handle, std::uint32_t*, amdsmi_processor_handle*)>(
      handle_, "amdsmi_get_processor_handles");
  if (!init || !shut_down_ || !status_to_string_ || !sockets || !processors)
    fail(name_ +
         " is not a usable AMD SMI library (it lacks amdsmi_init, amdsmi_shut_down, amdsmi_status_code_to_string, "
         "amdsmi_get_socket_handles or amdsmi_get_processor_handles)");

  // Before amdsmi_init: a library whose structs are not known here is not started at all.
  read_version();

  if (const Status rc = init(AMDSMI_INIT_AMD_GPUS); rc != AMDSMI_STATUS_SUCCESS)
    fail("AMD SMI library " + name_ + " loaded, but amdsmi_init failed: " + error_string(rc) +
         " (is the amdgpu driver loaded?)");
  initialized_ = true;

  // Sockets, then the GPUs of each (an MI300X in CPX mode shows several per socket). Each
  // list is asked for its length first, then filled.
  std::uint32_t n_sockets = 0;
  Status rc = sockets(&n_sockets, nullptr);
  std::vector<amdsmi_socket_handle> socket_list(n_sockets);
  if (rc == AMDSMI_STATUS_SUCCESS && n_sockets > 0) rc = sockets(&n_sockets, socket_list.data());
  if (rc != AMDSMI_STATUS_SUCCESS) fail("AMD SMI cannot list the GPU sockets: " + error_string(rc));
  socket_list.resize(n_sockets);
  for (amdsmi_socket_handle socket : socket_list) {
    std::uint32_t n = 0;
    rc = processors(socket, &n, nullptr);
    std::vector<amdsmi_processor_handle> list(n);
    if (rc == AMDSMI_STATUS_SUCCESS && n > 0) rc = processors(socket, &n, list.data());
    if (rc != AMDSMI_STATUS_SUCCESS) fail("AMD SMI cannot list the GPUs of a socket: " + error_string(rc));
    list.resize(n);
    gpus_.insert(gpus_.end(), list.begin(), list.end());
  }

  get_gpu_asic_info = resolve<Status(Handle, void*)>(handle_, "amdsmi_get_gpu_asic_info");
  get_gpu_device_uuid = resolve<Status(Handle, unsigned*, char*)>(handle_, "amdsmi_get_gpu_device_uuid");
  get_gpu_device_bdf = resolve<Status(Handle, amdsmi_bdf_t*)>(handle_, "amdsmi_get_gpu_device_bdf");
  get_gpu_activity = resolve<Status(Handle, amdsmi_engine_usage_t*)>(handle_, "amdsmi_get_gpu_activity");
  get_gpu_memory_usage =
      resolve<Status(Handle, amdsmi_memory_type_t, std::uint64_t*)>(handle_, "amdsmi_get_gpu_memory_usage");
  get_gpu_memory_total =
      resolve<Status(Handle, amdsmi_memory_type_t, std::uint64_t*)>(handle_, "amdsmi_get_gpu_memory_total");
  get_power_info = resolve<Status(Handle, void*)>(handle_, "amdsmi_get_power_info");
  get_power_cap_info =
      resolve<Status(Handle, std::uint32_t, amdsmi_power_cap_info_t*)>(handle_, "amdsmi_get_power_cap_info");
  get_energy_count =
      resolve<Status(Handle, std::uint64_t*, float*, std::uint64_t*)>(handle_, "amdsmi_get_energy_count");
  get_clock_info = resolve<Status(Handle, amdsmi_clk_type_t, amdsmi_clk_info_t*)>(handle_, "amdsmi_get_clock_info");
  get_temp_metric = resolve<Status(Handle, amdsmi_temperature_type_t, amdsmi_temperature_metric_t, std::int64_t*)>(
      handle_, "amdsmi_get_temp_metric");
  get_gpu_pci_throughput =
      resolve<Status(Handle, std::uint64_t*, std::uint64_t*, std::uint64_t*)>(handle_, "amdsmi_get_gpu_pci_throughput");
}

// amdsmi_get_lib_version fills a 24.x struct {year, major, minor, release, build} or a 26 one
// {major, minor, release, build}. The first word is the year (23-25) in the first, the major
// (26 on) in the second, so it tells the layout; then the major tells the struct layouts.
void AmdSmiLibrary::read_version() {
  auto get = resolve<Status(void*)>(handle_, "amdsmi_get_lib_version");
  amdsmi_version_v24_t v{};
  static_assert(sizeof v == sizeof(amdsmi_version_v26_t));
  if (get == nullptr || get(&v) != AMDSMI_STATUS_SUCCESS)
    fail("AMD SMI library " + name_ + " does not tell its version (amdsmi_get_lib_version)");
  std::uint32_t major = 0;
  if (v.year >= 26) {
    amdsmi_version_v26_t v26{};
    std::memcpy(&v26, &v, sizeof v26);
    major = v26.major;
    version_ = std::to_string(v26.major) + "." + std::to_string(v26.minor) + "." + std::to_string(v26.release);
  } else {
    major = v.major;
    version_ = std::to_string(v.year) + "." + std::to_string(v.major) + "." + std::to_string(v.minor);
  }
  if (major == 6)
    layout_ = Layout::V6;
  else if (major == 26)
    layout_ = Layout::V26;
  else
    fail("AMD SMI library " + name_ + " is version " + version_ + " (ABI major " + std::to_string(major) +
         "), whose struct layouts this build does not know (it reads majors 6, as in 24.6.x, and 26)");
}

void AmdSmiLibrary::fail(const std::string& why) {
  if (initialized_) shut_down_();
  dlclose(handle_);
  throw NoTelemetryError(why);
}

AmdSmiLibrary::~AmdSmiLibrary() {
  shut_down_();
  dlclose(handle_);
}

std::string AmdSmiLibrary::error_string(amdsmi_status_t code) const {
  const char* text = nullptr;
  if (status_to_string_(code, &text) != AMDSMI_STATUS_SUCCESS || text == nullptr)
    return "AMD SMI error " + std::to_string(code);
  return text;
}

}  // namespace wt
