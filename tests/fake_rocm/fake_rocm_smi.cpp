// A stand-in librocm_smi64.so that replays a text fixture, so AmdSource is tested end to end
// (dlopen, struct layouts of ROCm 5 and 6, unit conversion, errors, lost GPUs) on machines
// without a GPU. Tests reach it with the normal library name through LD_LIBRARY_PATH.
//
// Environment:
//   FAKE_RSMI_FIXTURE=FILE     the fixture, read by rsmi_init (required unless the next is set)
//   FAKE_RSMI_INIT_ERROR=CODE  rsmi_init fails with this rsmi_status_t (8 = init error)
//
// Fixture format: one record a line, tokens separated by blanks; '#' starts a comment line.
//   version MAJOR [LAYOUT]         what rsmi_version_get reports (default 5), and the layout of
//                                  rsmi_frequencies_t that rsmi_dev_gpu_clk_freq_get writes:
//                                  6 = ROCm 6's (has_deep_sleep first, 33 slots), 5 = ROCm 5's;
//                                  by default 6 when MAJOR is 6 or more
//   gpu UNIQUE_ID BDFID NAME...    one per GPU, in index order; UNIQUE_ID and BDFID in hex
//                                  (BDFID as rsmi_dev_pci_id_get packs it), either may be '-'
//                                  (not supported); NAME is the rest of the line
//   poll GPU T_S BUSY MEM_BUSY VRAM_USED VRAM_TOTAL POWER_AVE POWER_CAP ENERGY TEMP_EDGE
//        TEMP_JUNCTION SCLK MCLK PCIE_SENT PCIE_RECEIVED PCIE_PACKET
//                                  one reading of GPU (an index), on one line; each GPU's
//                                  lines in poll order, lines of different GPUs interleaved freely
//   poll GPU lost                  GPU is gone from this poll on: every call on it then returns
//                                  RSMI_STATUS_FILE_ERROR, as when its sysfs files vanish
// Values are raw ROCm SMI units, exactly what the library would return: T_S seconds (the energy
// counter's timestamp, in ns), BUSY/MEM_BUSY %, VRAM_* bytes, POWER_AVE/POWER_CAP µW, ENERGY
// the accumulator in units of kEnergyResolutionUj, TEMP_* millidegrees C, SCLK/MCLK Hz (the
// current level of a two-level table), PCIE_SENT/RECEIVED packets in a second, PCIE_PACKET
// bytes. Any value may be '-' for RSMI_STATUS_NOT_SUPPORTED or '!' for RSMI_STATUS_PERMISSION
// (a real failure, which AmdSource reports). VRAM_USED and VRAM_TOTAL are separate calls.
//
// Each rsmi_dev_busy_percent_get call (the first read of every AmdSource poll) moves that GPU
// to its next poll line; the other calls answer from the current one. After the last line it
// repeats unchanged, timestamps included, so the energy-based power stops there.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_common/fixture_records.hpp"
#include "source/amd/rocm_smi_library.hpp"

using namespace wt::rsmi;
using wt::fake::parse_number;

namespace {

constexpr rsmi_status_t RSMI_STATUS_UNKNOWN_ERROR = 0xFFFFFFFF;
constexpr float kEnergyResolutionUj = 15.3F;  // what MI200-series GPUs report
constexpr std::uint64_t kLowClockHz = 500'000'000;

enum Col {
  kBusy,
  kMemBusy,
  kVramUsed,
  kVramTotal,
  kPowerAve,
  kPowerCap,
  kEnergy,
  kTempEdge,
  kTempJunction,
  kSclk,
  kMclk,
  kPcieSent,
  kPcieReceived,
  kPciePacket,
  kNumCols
};

// A value, or the status the call returns instead.
struct Value {
  rsmi_status_t status = RSMI_STATUS_SUCCESS;
  std::uint64_t x = 0;
};

struct Poll {
  bool lost = false;
  std::uint64_t time_ns = 0;
  Value v[kNumCols];
};

struct Gpu {
  std::optional<std::uint64_t> unique_id, bdfid;
  std::string name;
  std::vector<Poll> polls;
  std::size_t cursor = 0;
  bool started = false;
  bool lost = false;
  const Poll& now() const { return polls[cursor]; }
};

bool g_initialized = false;
std::uint32_t g_major = 5;
bool g_layout_v6 = false;
std::vector<Gpu> g_gpus;

std::optional<std::uint64_t> parse_optional_hex(const std::string& token) {
  if (token == "-") return std::nullopt;
  return parse_number(token, 16);
}


void load(const char* path) {
  g_gpus.clear();
  g_major = 5;
  g_layout_v6 = false;
  wt::fake::read_records(path, [](const std::string& kind, std::istringstream& in) {
    if (kind == "version") {
      std::string major, layout;
      in >> major >> layout;
      g_major = static_cast<std::uint32_t>(parse_number(major));
      g_layout_v6 = layout.empty() ? g_major >= 6 : parse_number(layout) == 6;
    } else if (kind == "gpu") {
      Gpu g;
      std::string unique_id, bdfid;
      in >> unique_id >> bdfid >> std::ws;
      g.unique_id = parse_optional_hex(unique_id);
      g.bdfid = parse_optional_hex(bdfid);
      std::getline(in, g.name);
      if (g.name.empty()) throw std::runtime_error("gpu needs UNIQUE_ID BDFID NAME");
      g_gpus.push_back(std::move(g));
    } else if (kind == "poll") {
      std::size_t index = g_gpus.size();
      in >> index;
      if (index >= g_gpus.size()) throw std::runtime_error("poll names an undeclared GPU");
      g_gpus[index].polls.push_back(
          wt::fake::parse_status_poll<Poll>(in, RSMI_STATUS_NOT_SUPPORTED, RSMI_STATUS_PERMISSION));
    } else {
      throw std::runtime_error("unknown record '" + kind + "'");
    }
  });
  for (const Gpu& g : g_gpus)
    if (g.polls.empty()) throw std::runtime_error("GPU " + g.name + " has no poll lines");
}

// The GPU of a device index, or null (with `rc` set) when there is none to answer.
Gpu* gpu_of(std::uint32_t index, rsmi_status_t& rc) {
  rc = RSMI_STATUS_SUCCESS;
  if (!g_initialized) {
    rc = RSMI_STATUS_INIT_ERROR;
    return nullptr;
  }
  if (index >= g_gpus.size()) {
    rc = RSMI_STATUS_INVALID_ARGS;
    return nullptr;
  }
  Gpu& g = g_gpus[index];
  if (g.lost) {
    rc = RSMI_STATUS_FILE_ERROR;
    return nullptr;
  }
  return &g;
}

template <class T>
rsmi_status_t answer(std::uint32_t index, Col col, T* out) {
  rsmi_status_t rc = RSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(index, rc);
  if (g == nullptr) return rc;
  if (out == nullptr) return RSMI_STATUS_INVALID_ARGS;
  const Value& v = g->now().v[col];
  if (v.status != RSMI_STATUS_SUCCESS) return v.status;
  *out = static_cast<T>(v.x);
  return RSMI_STATUS_SUCCESS;
}

template <class Frequencies>
void fill(Frequencies& f, std::uint64_t hz) {
  f.num_supported = 2;
  f.current = 1;
  f.frequency[0] = kLowClockHz;
  f.frequency[1] = hz;
}

}  // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

// Lets a test check that the loader found this fake and not a real ROCm library.
FAKE_API int wt_fake_rocm_smi() { return 1; }

FAKE_API rsmi_status_t rsmi_init(std::uint64_t) {
  if (const char* code = std::getenv("FAKE_RSMI_INIT_ERROR"))
    return static_cast<rsmi_status_t>(std::strtoul(code, nullptr, 10));
  const char* path = std::getenv("FAKE_RSMI_FIXTURE");
  try {
    if (path == nullptr) throw std::runtime_error("FAKE_RSMI_FIXTURE is not set");
    load(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake ROCm SMI: %s: %s\n", path ? path : "(no fixture)", e.what());
    return RSMI_STATUS_INIT_ERROR;
  }
  g_initialized = true;
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_shut_down() {
  g_initialized = false;
  g_gpus.clear();
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_status_string(rsmi_status_t status, const char** text) {
  if (text == nullptr) return RSMI_STATUS_INVALID_ARGS;
  switch (status) {  // the real library's leading words
    case RSMI_STATUS_SUCCESS:
      *text = "RSMI_STATUS_SUCCESS: The function has been executed successfully.";
      break;
    case RSMI_STATUS_INVALID_ARGS:
      *text = "RSMI_STATUS_INVALID_ARGS: The provided arguments do not meet the preconditions required for the input.";
      break;
    case RSMI_STATUS_NOT_SUPPORTED:
      *text = "RSMI_STATUS_NOT_SUPPORTED: This function is not supported in the current environment.";
      break;
    case RSMI_STATUS_FILE_ERROR:
      *text = "RSMI_STATUS_FILE_ERROR: There was an error in finding or opening a file or directory.";
      break;
    case RSMI_STATUS_PERMISSION:
      *text = "RSMI_STATUS_PERMISSION: The user ID of the calling process does not have sufficient permission.";
      break;
    case RSMI_STATUS_INIT_ERROR:
      *text = "RSMI_STATUS_INIT_ERROR: An error occurred during initialization, during monitor discovery.";
      break;
    default:
      *text = "An unknown error occurred";
      return RSMI_STATUS_UNKNOWN_ERROR;
  }
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_version_get(rsmi_version_t* version) {
  if (version == nullptr) return RSMI_STATUS_INVALID_ARGS;
  *version = {g_major, 0, 0, "fake"};
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_num_monitor_devices(std::uint32_t* count) {
  if (!g_initialized) return RSMI_STATUS_INIT_ERROR;
  if (count == nullptr) return RSMI_STATUS_INVALID_ARGS;
  *count = static_cast<std::uint32_t>(g_gpus.size());
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_dev_name_get(std::uint32_t index, char* name, std::size_t length) {
  rsmi_status_t rc = RSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(index, rc);
  if (g == nullptr) return rc;
  if (name == nullptr || length == 0) return RSMI_STATUS_INVALID_ARGS;
  std::snprintf(name, length, "%s", g->name.c_str());
  return g->name.size() < length ? RSMI_STATUS_SUCCESS : RSMI_STATUS_INVALID_ARGS;
}

FAKE_API rsmi_status_t rsmi_dev_unique_id_get(std::uint32_t index, std::uint64_t* id) {
  rsmi_status_t rc = RSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(index, rc);
  if (g == nullptr) return rc;
  if (id == nullptr) return RSMI_STATUS_INVALID_ARGS;
  if (!g->unique_id) return RSMI_STATUS_NOT_SUPPORTED;
  *id = *g->unique_id;
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_dev_pci_id_get(std::uint32_t index, std::uint64_t* bdfid) {
  rsmi_status_t rc = RSMI_STATUS_SUCCESS;
  const Gpu* g = gpu_of(index, rc);
  if (g == nullptr) return rc;
  if (bdfid == nullptr) return RSMI_STATUS_INVALID_ARGS;
  if (!g->bdfid) return RSMI_STATUS_NOT_SUPPORTED;
  *bdfid = *g->bdfid;
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_dev_busy_percent_get(std::uint32_t index, std::uint32_t* pct) {
  if (g_initialized && index < g_gpus.size() && !g_gpus[index].lost) {  // the tick: next poll line
    Gpu& g = g_gpus[index];
    if (g.started && g.cursor + 1 < g.polls.size()) ++g.cursor;
    g.started = true;
    g.lost = g.now().lost;
  }
  return answer(index, kBusy, pct);
}

FAKE_API rsmi_status_t rsmi_dev_memory_busy_percent_get(std::uint32_t index, std::uint32_t* pct) {
  return answer(index, kMemBusy, pct);
}

FAKE_API rsmi_status_t rsmi_dev_memory_usage_get(std::uint32_t index, rsmi_memory_type_t type, std::uint64_t* used) {
  if (type != RSMI_MEM_TYPE_VRAM) return RSMI_STATUS_NOT_SUPPORTED;  // GTT and visible VRAM are not modelled
  return answer(index, kVramUsed, used);
}

FAKE_API rsmi_status_t rsmi_dev_memory_total_get(std::uint32_t index, rsmi_memory_type_t type, std::uint64_t* total) {
  if (type != RSMI_MEM_TYPE_VRAM) return RSMI_STATUS_NOT_SUPPORTED;
  return answer(index, kVramTotal, total);
}

FAKE_API rsmi_status_t rsmi_dev_power_ave_get(std::uint32_t index, std::uint32_t sensor, std::uint64_t* uw) {
  if (sensor != 0) return RSMI_STATUS_INVALID_ARGS;
  return answer(index, kPowerAve, uw);
}

FAKE_API rsmi_status_t rsmi_dev_power_cap_get(std::uint32_t index, std::uint32_t sensor, std::uint64_t* uw) {
  if (sensor != 0) return RSMI_STATUS_INVALID_ARGS;
  return answer(index, kPowerCap, uw);
}

FAKE_API rsmi_status_t rsmi_dev_energy_count_get(std::uint32_t index, std::uint64_t* count, float* resolution,
                                                 std::uint64_t* time_ns) {
  if (const rsmi_status_t rc = answer(index, kEnergy, count); rc != RSMI_STATUS_SUCCESS) return rc;
  if (resolution == nullptr || time_ns == nullptr) return RSMI_STATUS_INVALID_ARGS;
  *resolution = kEnergyResolutionUj;
  *time_ns = g_gpus[index].now().time_ns;
  return RSMI_STATUS_SUCCESS;
}

FAKE_API rsmi_status_t rsmi_dev_temp_metric_get(std::uint32_t index, std::uint32_t sensor,
                                                rsmi_temperature_metric_t metric, std::int64_t* millidegrees) {
  if (metric != RSMI_TEMP_CURRENT) return RSMI_STATUS_NOT_SUPPORTED;
  if (sensor == RSMI_TEMP_TYPE_EDGE) return answer(index, kTempEdge, millidegrees);
  if (sensor == RSMI_TEMP_TYPE_JUNCTION) return answer(index, kTempJunction, millidegrees);
  return RSMI_STATUS_NOT_SUPPORTED;
}

// Writes the layout the fixture asks for: a reader that decodes the wrong one
// finds has_deep_sleep where num_supported should be, and the clock 8 bytes off.
FAKE_API rsmi_status_t rsmi_dev_gpu_clk_freq_get(std::uint32_t index, rsmi_clk_type_t type, void* out) {
  std::uint64_t hz = 0;
  const Col col = type == RSMI_CLK_TYPE_SYS ? kSclk : kMclk;
  if (type != RSMI_CLK_TYPE_SYS && type != RSMI_CLK_TYPE_MEM) return RSMI_STATUS_NOT_SUPPORTED;
  if (const rsmi_status_t rc = answer(index, col, &hz); rc != RSMI_STATUS_SUCCESS) return rc;
  if (g_layout_v6) {
    rsmi_frequencies_v6_t f{};
    f.has_deep_sleep = true;
    fill(f, hz);
    std::memcpy(out, &f, sizeof f);
  } else {
    rsmi_frequencies_v5_t f{};
    fill(f, hz);
    std::memcpy(out, &f, sizeof f);
  }
  return RSMI_STATUS_SUCCESS;
}

// Answers at once: the real call sleeps about a second to count packets.
FAKE_API rsmi_status_t rsmi_dev_pci_throughput_get(std::uint32_t index, std::uint64_t* sent, std::uint64_t* received,
                                                   std::uint64_t* packet) {
  if (const rsmi_status_t rc = answer(index, kPcieSent, sent); rc != RSMI_STATUS_SUCCESS) return rc;
  if (const rsmi_status_t rc = answer(index, kPcieReceived, received); rc != RSMI_STATUS_SUCCESS) return rc;
  return answer(index, kPciePacket, packet);
}
