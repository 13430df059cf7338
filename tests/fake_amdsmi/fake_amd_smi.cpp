// A stand-in libamd_smi.so that replays a text fixture, so AmdSource is tested end to end
// through AMD SMI (dlopen, version detection, the 24.6 and 26 struct layouts, sockets and
// processors, unit conversion, errors, lost GPUs) on machines without a GPU. Tests reach it
// with the normal library name through LD_LIBRARY_PATH.
//
// Environment:
//   FAKE_AMDSMI_FIXTURE=FILE     the fixture, read by amdsmi_init; unset, amdsmi_init fails
//                                quietly with AMDSMI_STATUS_DRIVER_NOT_LOADED (a host with the
//                                library but no driver), so ROCm SMI tests are not disturbed
//   FAKE_AMDSMI_INIT_ERROR=CODE  amdsmi_init fails with this amdsmi_status_t (18 = init error)
//
// Fixture format (tests/fake_common/fixture_records.hpp: one record a line, '#' comments):
//   version VERSION                as `amd-smi version` prints it, and what amdsmi_get_lib_version
//                                  reports: YEAR.MAJOR.MINOR below 26 (24.6.1, in the 24.x struct
//                                  with a year), MAJOR.MINOR.RELEASE from 26 on; the structs
//                                  are written in that version's layout (default 26.1.0)
//   gpu SOCKET UUID BDF NAME...    one per GPU, in the library's order; SOCKET an index (the
//                                  GPUs of a socket together, sockets in order), UUID and BDF
//                                  ("0000:c1:00.0") may be '-' (not supported); NAME the rest
//   poll GPU T_S GFX UMC VRAM_USED VRAM_TOTAL CUR_POWER AVG_POWER POWER_CAP ENERGY TEMP_EDGE
//        TEMP_HOTSPOT GFX_CLK MEM_CLK PCIE_SENT PCIE_RECEIVED PCIE_PACKET
//                                  one reading of GPU (an index), on one line
//   poll GPU lost                  GPU is gone from this poll on: every call on it then returns
//                                  AMDSMI_STATUS_FILE_ERROR, as when its sysfs files vanish
// Values are what AMD SMI returns: T_S seconds (the energy counter's timestamp, in ns), GFX/UMC
// %, VRAM_* bytes, *_POWER W, POWER_CAP µW, ENERGY the accumulator in units of
// kEnergyResolutionUj, TEMP_* degrees C, *_CLK MHz, PCIE_SENT/RECEIVED packets in a second,
// PCIE_PACKET bytes. '-' is "not supported": a struct field gets the library's sentinel
// (0xFFFF in 24.x, UINT32_MAX in 26) while its call succeeds; any other call returns
// AMDSMI_STATUS_NOT_SUPPORTED. '!' makes the call reading it fail with AMDSMI_STATUS_NO_PERM.
//
// Each amdsmi_get_gpu_activity call (the first read of every AmdSource poll) moves that GPU to
// its next poll line; the other calls answer from the current one. After the last line it
// repeats unchanged, timestamps included, so the energy-based power stops there.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_common/fixture_records.hpp"
#include "source/amd/amd_smi_library.hpp"

using namespace wt::amdsmi;
using wt::fake::parse_number;

namespace {

constexpr float kEnergyResolutionUj = 15.3F;
constexpr amdsmi_status_t AMDSMI_STATUS_NOT_INIT = 32;
constexpr amdsmi_status_t AMDSMI_STATUS_INSUFFICIENT_SIZE = 41;

enum Col {
  kGfx,
  kUmc,
  kVramUsed,
  kVramTotal,
  kCurPower,
  kAvgPower,
  kPowerCap,
  kEnergy,
  kTempEdge,
  kTempHotspot,
  kGfxClk,
  kMemClk,
  kPcieSent,
  kPcieReceived,
  kPciePacket,
  kNumCols
};

// A value, or the status the call returns instead.
struct Value {
  amdsmi_status_t status = AMDSMI_STATUS_SUCCESS;
  std::uint64_t x = 0;
};

struct Poll {
  bool lost = false;
  std::uint64_t time_ns = 0;
  Value v[kNumCols];
};

struct Gpu {
  std::size_t socket = 0;
  std::string uuid, bdf, name;  // empty: not supported
  std::vector<Poll> polls;
  std::size_t cursor = 0;
  bool started = false;
  bool lost = false;
  const Poll& now() const { return polls[cursor]; }
};

bool g_initialized = false;
std::uint32_t g_first = 26, g_second = 1, g_third = 0;  // the version's three numbers
std::vector<Gpu> g_gpus;

bool layout_v26() { return g_first >= 26; }


void load(const char* path) {
  g_gpus.clear();
  g_first = 26, g_second = 1, g_third = 0;
  wt::fake::read_records(path, [](const std::string& kind, std::istringstream& in) {
    if (kind == "version") {
      std::string text;
      in >> text;
      unsigned a = 0, b = 0, c = 0;
      if (std::sscanf(text.c_str(), "%u.%u.%u", &a, &b, &c) != 3)
        throw std::runtime_error("bad version '" + text + "'");
      g_first = a, g_second = b, g_third = c;
    } else if (kind == "gpu") {
      Gpu g;
      std::string socket;
      in >> socket >> g.uuid >> g.bdf >> std::ws;
      g.socket = parse_number(socket);
      const std::size_t last = g_gpus.empty() ? 0 : g_gpus.back().socket;
      if (g.socket != last && g.socket != last + 1) throw std::runtime_error("sockets must come in order");
      if (g.uuid == "-") g.uuid.clear();
      if (g.bdf == "-") g.bdf.clear();
      std::getline(in, g.name);
      if (g.name.empty()) throw std::runtime_error("gpu needs SOCKET UUID BDF NAME");
      g_gpus.push_back(std::move(g));
    } else if (kind == "poll") {
      std::size_t index = g_gpus.size();
      in >> index;
      if (index >= g_gpus.size()) throw std::runtime_error("poll names an undeclared GPU");
      g_gpus[index].polls.push_back(
          wt::fake::parse_status_poll<Poll>(in, AMDSMI_STATUS_NOT_SUPPORTED, AMDSMI_STATUS_NO_PERM));
    } else {
      throw std::runtime_error("unknown record '" + kind + "'");
    }
  });
  for (const Gpu& g : g_gpus)
    if (g.polls.empty()) throw std::runtime_error("GPU " + g.name + " has no poll lines");
}

std::size_t socket_count() { return g_gpus.empty() ? 0 : g_gpus.back().socket + 1; }

// Handles are small tagged integers: sockets 0x100 + index, GPUs 0x10000 + index.
amdsmi_socket_handle socket_handle(std::size_t s) { return reinterpret_cast<amdsmi_socket_handle>(0x100 + s); }
amdsmi_processor_handle gpu_handle(std::size_t i) { return reinterpret_cast<amdsmi_processor_handle>(0x10000 + i); }

// The GPU behind a handle, or null (with `rc` set) when there is none to answer.
Gpu* gpu_of(amdsmi_processor_handle handle, amdsmi_status_t& rc) {
  rc = AMDSMI_STATUS_SUCCESS;
  const auto i = reinterpret_cast<std::uintptr_t>(handle) - 0x10000;
  if (!g_initialized) {
    rc = AMDSMI_STATUS_NOT_INIT;
    return nullptr;
  }
  if (i >= g_gpus.size()) {
    rc = AMDSMI_STATUS_INVAL;
    return nullptr;
  }
  Gpu& g = g_gpus[i];
  if (g.lost) {
    rc = AMDSMI_STATUS_FILE_ERROR;
    return nullptr;
  }
  return &g;
}

// Column `col` of the current poll into `out`, or the status the call returns instead.
template <class T>
amdsmi_status_t answer(amdsmi_processor_handle handle, Col col, T* out) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (out == nullptr) return AMDSMI_STATUS_INVAL;
  const Value& v = g->now().v[col];
  if (v.status != AMDSMI_STATUS_SUCCESS) return v.status;
  *out = static_cast<T>(v.x);
  return AMDSMI_STATUS_SUCCESS;
}

// A struct field: '-' is the sentinel, '!' fails the whole call (returned through `rc`).
std::uint32_t field(const Gpu& g, Col col, amdsmi_status_t& rc) {
  const Value& v = g.now().v[col];
  if (v.status == AMDSMI_STATUS_NOT_SUPPORTED) return layout_v26() ? 0xFFFFFFFFU : 0xFFFFU;
  if (v.status != AMDSMI_STATUS_SUCCESS) rc = v.status;
  return static_cast<std::uint32_t>(v.x);
}

}  // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

// Lets a test check that the loader found this fake and not a real AMD SMI library.
FAKE_API int wt_fake_amd_smi() { return 1; }

FAKE_API amdsmi_status_t amdsmi_get_lib_version(void* out) {
  if (out == nullptr) return AMDSMI_STATUS_INVAL;
  // Asked before amdsmi_init (the reader checks the version first): the fixture says it.
  const char* path = std::getenv("FAKE_AMDSMI_FIXTURE");
  if (!g_initialized && path != nullptr) try {
      load(path);
    } catch (const std::exception&) {  // amdsmi_init reports it
    }
  static const char* build = "fake";
  if (layout_v26()) {
    const amdsmi_version_v26_t v{g_first, g_second, g_third, build};
    std::memcpy(out, &v, sizeof v);
  } else {
    const amdsmi_version_v24_t v{g_first, g_second, g_third, 0, build};
    std::memcpy(out, &v, sizeof v);
  }
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_init(std::uint64_t flags) {
  if (flags != AMDSMI_INIT_AMD_GPUS) return AMDSMI_STATUS_INVAL;
  if (const char* code = std::getenv("FAKE_AMDSMI_INIT_ERROR"))
    return static_cast<amdsmi_status_t>(std::strtoul(code, nullptr, 10));
  const char* path = std::getenv("FAKE_AMDSMI_FIXTURE");
  if (path == nullptr) return AMDSMI_STATUS_DRIVER_NOT_LOADED;
  try {
    load(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake AMD SMI: %s: %s\n", path, e.what());
    return AMDSMI_STATUS_INIT_ERROR;
  }
  g_initialized = true;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_shut_down() {
  g_initialized = false;
  for (Gpu& g : g_gpus) g.cursor = 0, g.started = false, g.lost = false;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_status_code_to_string(amdsmi_status_t status, const char** text) {
  if (text == nullptr) return AMDSMI_STATUS_INVAL;
  switch (status) {  // the real library's words
    case AMDSMI_STATUS_SUCCESS:
      *text = "AMDSMI_STATUS_SUCCESS: Call succeeded";
      break;
    case AMDSMI_STATUS_INVAL:
      *text = "AMDSMI_STATUS_INVAL: Invalid parameters";
      break;
    case AMDSMI_STATUS_NOT_SUPPORTED:
      *text = "AMDSMI_STATUS_NOT_SUPPORTED: Command not supported";
      break;
    case AMDSMI_STATUS_NO_PERM:
      *text = "AMDSMI_STATUS_NO_PERM: Permission Denied";
      break;
    case AMDSMI_STATUS_FILE_ERROR:
      *text = "AMDSMI_STATUS_FILE_ERROR: Problem accessing a file";
      break;
    case AMDSMI_STATUS_INIT_ERROR:
      *text = "AMDSMI_STATUS_INIT_ERROR: An error occurred when initializing internal data structures";
      break;
    case AMDSMI_STATUS_DRIVER_NOT_LOADED:
      *text = "AMDSMI_STATUS_DRIVER_NOT_LOADED: Processor driver not loaded";
      break;
    default:
      *text = "AMDSMI_STATUS_UNKNOWN_ERROR: An unknown error occurred";
      return AMDSMI_STATUS_UNKNOWN_ERROR;
  }
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_socket_handles(std::uint32_t* count, amdsmi_socket_handle* sockets) {
  if (!g_initialized) return AMDSMI_STATUS_NOT_INIT;
  if (count == nullptr) return AMDSMI_STATUS_INVAL;
  const std::size_t n = socket_count();
  if (sockets != nullptr)
    for (std::size_t s = 0; s < std::min<std::size_t>(n, *count); ++s) sockets[s] = socket_handle(s);
  *count = static_cast<std::uint32_t>(n);
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_processor_handles(amdsmi_socket_handle socket, std::uint32_t* count,
                                                      amdsmi_processor_handle* gpus) {
  if (!g_initialized) return AMDSMI_STATUS_NOT_INIT;
  const auto s = reinterpret_cast<std::uintptr_t>(socket) - 0x100;
  if (count == nullptr || s >= socket_count()) return AMDSMI_STATUS_INVAL;
  std::uint32_t n = 0;
  for (std::size_t i = 0; i < g_gpus.size(); ++i) {
    if (g_gpus[i].socket != s) continue;
    if (gpus != nullptr && n < *count) gpus[n] = gpu_handle(i);
    ++n;
  }
  *count = n;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_asic_info(amdsmi_processor_handle handle, void* out) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (out == nullptr) return AMDSMI_STATUS_INVAL;
  if (layout_v26()) {
    amdsmi_asic_info_v26_t a{};
    std::snprintf(a.market_name, sizeof a.market_name, "%s", g->name.c_str());
    a.vendor_id = 0x1002;
    std::memcpy(out, &a, sizeof a);
  } else {
    amdsmi_asic_info_v6_t a{};
    std::snprintf(a.market_name, sizeof a.market_name, "%s", g->name.c_str());
    a.vendor_id = 0x1002;
    std::memcpy(out, &a, sizeof a);
  }
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_device_uuid(amdsmi_processor_handle handle, unsigned* length, char* uuid) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (length == nullptr || uuid == nullptr) return AMDSMI_STATUS_INVAL;
  if (g->uuid.empty()) return AMDSMI_STATUS_NOT_SUPPORTED;
  if (g->uuid.size() + 1 > *length) return AMDSMI_STATUS_INSUFFICIENT_SIZE;
  std::memcpy(uuid, g->uuid.c_str(), g->uuid.size() + 1);
  *length = static_cast<unsigned>(g->uuid.size());
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_device_bdf(amdsmi_processor_handle handle, amdsmi_bdf_t* bdf) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (bdf == nullptr) return AMDSMI_STATUS_INVAL;
  unsigned long long domain = 0;
  unsigned bus = 0, device = 0, function = 0;
  if (g->bdf.empty() || std::sscanf(g->bdf.c_str(), "%llx:%x:%x.%x", &domain, &bus, &device, &function) != 4)
    return AMDSMI_STATUS_NOT_SUPPORTED;
  *bdf = (domain << 16) | (bus << 8) | (device << 3) | function;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_activity(amdsmi_processor_handle handle, amdsmi_engine_usage_t* usage) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  if (Gpu* g = gpu_of(handle, rc)) {  // the tick: next poll line
    if (g->started && g->cursor + 1 < g->polls.size()) ++g->cursor;
    g->started = true;
    g->lost = g->now().lost;
  }
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (usage == nullptr) return AMDSMI_STATUS_INVAL;
  amdsmi_engine_usage_t u{};
  u.gfx_activity = field(*g, kGfx, rc);
  u.umc_activity = field(*g, kUmc, rc);
  u.mm_activity = layout_v26() ? 0xFFFFFFFFU : 0xFFFFU;
  if (rc == AMDSMI_STATUS_SUCCESS) *usage = u;
  return rc;
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_memory_usage(amdsmi_processor_handle handle, amdsmi_memory_type_t type,
                                                     std::uint64_t* used) {
  if (type != AMDSMI_MEM_TYPE_VRAM) return AMDSMI_STATUS_NOT_SUPPORTED;  // GTT and visible VRAM are not modelled
  return answer(handle, kVramUsed, used);
}

FAKE_API amdsmi_status_t amdsmi_get_gpu_memory_total(amdsmi_processor_handle handle, amdsmi_memory_type_t type,
                                                     std::uint64_t* total) {
  if (type != AMDSMI_MEM_TYPE_VRAM) return AMDSMI_STATUS_NOT_SUPPORTED;
  return answer(handle, kVramTotal, total);
}

FAKE_API amdsmi_status_t amdsmi_get_power_info(amdsmi_processor_handle handle, void* out) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (out == nullptr) return AMDSMI_STATUS_INVAL;
  const std::uint32_t current = field(*g, kCurPower, rc), average = field(*g, kAvgPower, rc);
  if (rc != AMDSMI_STATUS_SUCCESS) return rc;
  if (layout_v26()) {
    amdsmi_power_info_v26_t p{};
    p.socket_power = current != 0xFFFFFFFFU ? current : average;
    p.current_socket_power = current;
    p.average_socket_power = average;
    p.power_limit = 0xFFFFFFFFU;
    std::memcpy(out, &p, sizeof p);
  } else {
    amdsmi_power_info_v6_t p{};
    p.current_socket_power = current;
    p.average_socket_power = average;
    p.power_limit = 0xFFFFU;
    std::memcpy(out, &p, sizeof p);
  }
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_power_cap_info(amdsmi_processor_handle handle, std::uint32_t sensor,
                                                   amdsmi_power_cap_info_t* info) {
  if (sensor != 0) return AMDSMI_STATUS_INVAL;
  std::uint64_t uw = 0;
  if (const amdsmi_status_t rc = answer(handle, kPowerCap, &uw); rc != AMDSMI_STATUS_SUCCESS) return rc;
  *info = {};
  info->power_cap = info->default_power_cap = info->max_power_cap = uw;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_energy_count(amdsmi_processor_handle handle, std::uint64_t* count,
                                                 float* resolution, std::uint64_t* time_ns) {
  if (const amdsmi_status_t rc = answer(handle, kEnergy, count); rc != AMDSMI_STATUS_SUCCESS) return rc;
  if (resolution == nullptr || time_ns == nullptr) return AMDSMI_STATUS_INVAL;
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  *resolution = kEnergyResolutionUj;
  *time_ns = gpu_of(handle, rc)->now().time_ns;
  return AMDSMI_STATUS_SUCCESS;
}

FAKE_API amdsmi_status_t amdsmi_get_temp_metric(amdsmi_processor_handle handle, amdsmi_temperature_type_t sensor,
                                                amdsmi_temperature_metric_t metric, std::int64_t* celsius) {
  if (metric != AMDSMI_TEMP_CURRENT) return AMDSMI_STATUS_NOT_SUPPORTED;
  if (sensor == AMDSMI_TEMPERATURE_TYPE_EDGE) return answer(handle, kTempEdge, celsius);
  if (sensor == AMDSMI_TEMPERATURE_TYPE_HOTSPOT) return answer(handle, kTempHotspot, celsius);
  return AMDSMI_STATUS_NOT_SUPPORTED;
}

FAKE_API amdsmi_status_t amdsmi_get_clock_info(amdsmi_processor_handle handle, amdsmi_clk_type_t type,
                                               amdsmi_clk_info_t* info) {
  amdsmi_status_t rc = AMDSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(handle, rc);
  if (g == nullptr) return rc;
  if (info == nullptr) return AMDSMI_STATUS_INVAL;
  if (type != AMDSMI_CLK_TYPE_GFX && type != AMDSMI_CLK_TYPE_MEM) return AMDSMI_STATUS_NOT_SUPPORTED;
  amdsmi_clk_info_t c{};
  c.clk = field(*g, type == AMDSMI_CLK_TYPE_GFX ? kGfxClk : kMemClk, rc);
  c.min_clk = 500;
  c.max_clk = 2100;
  if (rc == AMDSMI_STATUS_SUCCESS) *info = c;
  return rc;
}

// Answers at once: the real call sleeps about a second to count packets.
FAKE_API amdsmi_status_t amdsmi_get_gpu_pci_throughput(amdsmi_processor_handle handle, std::uint64_t* sent,
                                                       std::uint64_t* received, std::uint64_t* packet) {
  if (const amdsmi_status_t rc = answer(handle, kPcieSent, sent); rc != AMDSMI_STATUS_SUCCESS) return rc;
  if (const amdsmi_status_t rc = answer(handle, kPcieReceived, received); rc != AMDSMI_STATUS_SUCCESS) return rc;
  return answer(handle, kPciePacket, packet);
}
