// A stand-in libnvidia-ml.so.1 that replays a text fixture, so NvmlSource is tested end to end
// (dlopen, symbol fallback, struct layouts, unit conversion, lost GPUs) on machines without a GPU.
// Tests reach it with the normal library name through LD_LIBRARY_PATH.
//
// Environment:
//   FAKE_NVML_FIXTURE=FILE     the fixture, read by nvmlInit (required unless the next is set)
//   FAKE_NVML_INIT_ERROR=CODE  nvmlInit fails with this nvmlReturn_t (9 = driver not loaded)
//
// Fixture format: one record a line, tokens separated by blanks; '#' starts a comment line.
//   gpu  UUID PCI_BUS_ID NAME...      one per GPU, in index order; PCI_BUS_ID may be '-' (not
//                                     supported); NAME is the rest of the line
//   poll GPU T_S UTIL MEM_UTIL MEM_USED MEM_TOTAL POWER POWER_LIMIT TEMP SM_CLOCK MEM_CLOCK
//        PCIE_TX PCIE_RX NVLINK_TX NVLINK_RX PROCS POWER_SAMPLES UTIL_SAMPLES MEM_UTIL_SAMPLES
//                                     one reading of GPU (an index), on one line; each GPU's
//                                     lines in poll order, lines of different GPUs interleaved freely
//   poll GPU lost                     GPU is lost from this poll on: every call on it then
//                                     returns NVML_ERROR_GPU_IS_LOST
//   pids GPU compute|graphics [PID,...]
//                                     the processes on GPU from its next poll line on (none
//                                     before the first such record); PROCS of each poll line
//                                     must equal the number of compute PIDs then in force
// Values are raw NVML units, exactly what the driver would return: T_S driver-clock seconds
// (offset by kEpochS; times NVLink counters and samples), UTIL/MEM_UTIL %, MEM_* bytes,
// POWER/POWER_LIMIT mW, TEMP C, clocks MHz, PCIE_* KB/s, NVLINK_* cumulative KiB over all
// links, PROCS compute processes (see pids). *_SAMPLES: the driver's sub-second sample buffer for this
// poll, comma-separated (mW or %), stamped 1 ms apart ending at T_S. Any value may be '-' for
// NVML_ERROR_NOT_SUPPORTED; a '-' in UTIL or MEM_UTIL fails the utilization call, and in
// MEM_USED or MEM_TOTAL the memory call, since NVML returns each pair from one call.
//
// Each nvmlDeviceGetUtilizationRates call (the first read of every NvmlSource poll) moves that
// GPU to its next poll line; the other calls answer from the current one. After the last line
// it repeats unchanged, timestamps included, so NVLink rates and sample means stop there.
//
// Exported names deliberately mix versions, to exercise NvmlLibrary's fallback: nvmlInit_v2
// but plain nvmlDeviceGetCount, nvmlDeviceGetHandleByIndex_v2,
// nvmlDeviceGetComputeRunningProcesses_v2 (no _v3; nvmlProcessInfo_t entries) and the plain
// nvmlDeviceGetGraphicsRunningProcesses (nvmlProcessInfo_v1_t entries).

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_common/fixture_records.hpp"
#include "source/nvml/nvml_library.hpp"

using namespace wt::nvml;

namespace {

constexpr nvmlReturn_t NVML_ERROR_UNINITIALIZED = 1;
constexpr nvmlReturn_t NVML_ERROR_INVALID_ARGUMENT = 2;
constexpr nvmlReturn_t NVML_ERROR_UNKNOWN = 999;
constexpr double kEpochS = 1'700'000'000;  // fixture time 0, as driver timestamps count from 1970

// Numeric columns of a poll line after GPU and T_S, in order.
enum Col {
  kUtil,
  kMemUtil,
  kMemUsed,
  kMemTotal,
  kPower,
  kPowerLimit,
  kTemp,
  kSmClock,
  kMemClock,
  kPcieTx,
  kPcieRx,
  kNvlinkTx,
  kNvlinkRx,
  kProcs,
  kNumCols
};

using Value = std::optional<unsigned long long>;  // nullopt: not supported
using Samples = std::optional<std::vector<unsigned int>>;

using Pids = std::vector<unsigned int>;

struct Poll {
  bool lost = false;
  long long time_us = 0;
  std::array<Value, kNumCols> v{};
  std::array<Samples, 3> samples{};  // indexed by nvmlSamplingType_t
  Pids compute_pids, graphics_pids;
};

struct Gpu {
  std::string uuid, pci_bus_id, name;
  Pids compute_pids, graphics_pids;  // in force for the next poll line read
  std::vector<Poll> polls;
  std::size_t cursor = 0;  // current poll; moved by nvmlDeviceGetUtilizationRates
  bool started = false;    // until the first move, which stays on the first poll line
  bool lost = false;
  const Poll& now() const { return polls[cursor]; }
};

bool g_initialized = false;
std::vector<Gpu> g_gpus;

// Throws std::runtime_error naming what is wrong; nvmlInit turns that into NVML_ERROR_UNKNOWN.
Poll parse_poll(std::istringstream& in) {
  Poll p;
  std::string token;
  in >> token;
  if (token == "lost") {
    p.lost = true;
    return p;
  }
  p.time_us = static_cast<long long>((kEpochS + std::stod(token)) * 1e6);
  for (Value& v : p.v) {
    if (!(in >> token)) throw std::runtime_error("too few values");
    if (token != "-") v = wt::fake::parse_number(token);
  }
  for (Samples& s : p.samples) {
    if (!(in >> token)) throw std::runtime_error("too few sample lists");
    if (token == "-") continue;
    s.emplace();
    std::istringstream list(token);
    for (std::string item; std::getline(list, item, ',');)
      s->push_back(static_cast<unsigned int>(wt::fake::parse_number(item)));
  }
  if (in >> token) throw std::runtime_error("extra value '" + token + "'");
  return p;
}

// "compute|graphics [PID,...]" of a pids record.
void parse_pids(std::istringstream& in, Gpu& g) {
  std::string kind, list, extra;
  in >> kind >> list;
  if (kind != "compute" && kind != "graphics") throw std::runtime_error("pids needs compute or graphics");
  if (in >> extra) throw std::runtime_error("extra value '" + extra + "'");
  Pids& pids = kind == "compute" ? g.compute_pids : g.graphics_pids;
  pids.clear();
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');)
    pids.push_back(static_cast<unsigned int>(wt::fake::parse_number(item)));
}

void load(const char* path) {
  g_gpus.clear();
  wt::fake::read_records(path, [](const std::string& kind, std::istringstream& in) {
    if (kind == "gpu") {
      Gpu g;
      in >> g.uuid >> g.pci_bus_id >> std::ws;
      std::getline(in, g.name);
      if (g.name.empty()) throw std::runtime_error("gpu needs UUID PCI_BUS_ID NAME");
      g_gpus.push_back(std::move(g));
    } else if (kind == "poll" || kind == "pids") {
      std::size_t index = g_gpus.size();
      in >> index;
      if (index >= g_gpus.size()) throw std::runtime_error(kind + " names an undeclared GPU");
      Gpu& g = g_gpus[index];
      if (kind == "pids") return parse_pids(in, g);
      Poll p = parse_poll(in);
      if (!p.lost && p.v[kProcs] && *p.v[kProcs] != g.compute_pids.size())
        throw std::runtime_error("PROCS is not the number of compute PIDs in force");
      p.compute_pids = g.compute_pids;
      p.graphics_pids = g.graphics_pids;
      g.polls.push_back(std::move(p));
    } else {
      throw std::runtime_error("unknown record '" + kind + "'");
    }
  });
  for (const Gpu& g : g_gpus)
    if (g.polls.empty()) throw std::runtime_error("GPU " + g.uuid + " has no poll lines");
}

// The GPU behind a handle, or null when NVML is not initialized or the handle is not ours.
Gpu* gpu_of(nvmlDevice_t device) {
  if (!g_initialized) return nullptr;
  for (Gpu& g : g_gpus)
    if (reinterpret_cast<nvmlDevice_t>(&g) == device) return &g;
  return nullptr;
}

// Status of a call on `device` before it reads anything: unknown handle, lost GPU, or success.
nvmlReturn_t check(nvmlDevice_t device) {
  const Gpu* g = gpu_of(device);
  if (g == nullptr) return g_initialized ? NVML_ERROR_INVALID_ARGUMENT : NVML_ERROR_UNINITIALIZED;
  return g->lost ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
}

// Writes the value of column `col` of the current poll to `out` as NVML would.
nvmlReturn_t answer(nvmlDevice_t device, Col col, unsigned int* out) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  if (out == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  const Value& v = gpu_of(device)->now().v[col];
  if (!v) return NVML_ERROR_NOT_SUPPORTED;
  *out = static_cast<unsigned int>(*v);
  return NVML_SUCCESS;
}

nvmlReturn_t copy_text(const std::string& text, char* out, unsigned int length) {
  if (out == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  if (text.size() >= length) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return NVML_SUCCESS;
}

}  // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

// Lets a test check that the loader found this fake and not a real driver's library.
FAKE_API int wt_fake_nvml() { return 1; }

FAKE_API nvmlReturn_t nvmlInit_v2() {
  if (const char* code = std::getenv("FAKE_NVML_INIT_ERROR")) return std::atoi(code);
  const char* path = std::getenv("FAKE_NVML_FIXTURE");
  try {
    if (path == nullptr) throw std::runtime_error("FAKE_NVML_FIXTURE is not set");
    load(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake NVML: %s: %s\n", path ? path : "(no fixture)", e.what());
    return NVML_ERROR_UNKNOWN;
  }
  g_initialized = true;
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlShutdown() {
  g_initialized = false;
  g_gpus.clear();
  return NVML_SUCCESS;
}

FAKE_API const char* nvmlErrorString(nvmlReturn_t rc) {
  switch (rc) {  // the real library's wording
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_UNINITIALIZED:
      return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_NOT_FOUND:
      return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST:
      return "GPU is lost";
    default:
      return "Unknown Error";
  }
}

FAKE_API nvmlReturn_t nvmlDeviceGetCount(unsigned int* count) {
  if (!g_initialized) return NVML_ERROR_UNINITIALIZED;
  if (count == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *count = static_cast<unsigned int>(g_gpus.size());
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (!g_initialized) return NVML_ERROR_UNINITIALIZED;
  if (device == nullptr || index >= g_gpus.size()) return NVML_ERROR_INVALID_ARGUMENT;
  *device = reinterpret_cast<nvmlDevice_t>(&g_gpus[index]);
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  return copy_text(gpu_of(device)->name, name, length);
}

FAKE_API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  return copy_text(gpu_of(device)->uuid, uuid, length);
}

FAKE_API nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  if (pci == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  const std::string& bus_id = gpu_of(device)->pci_bus_id;
  if (bus_id == "-") return NVML_ERROR_NOT_SUPPORTED;
  *pci = {};
  return copy_text(bus_id, pci->busId, sizeof pci->busId);
}

FAKE_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* util) {
  Gpu* g = gpu_of(device);
  if (g != nullptr && !g->lost) {  // the tick: move to the next poll line
    if (g->started && g->cursor + 1 < g->polls.size()) ++g->cursor;
    g->started = true;
    g->lost = g->now().lost;
  }
  unsigned int gpu = 0, memory = 0;
  if (const nvmlReturn_t rc = answer(device, kUtil, &gpu); rc != NVML_SUCCESS) return rc;
  if (const nvmlReturn_t rc = answer(device, kMemUtil, &memory); rc != NVML_SUCCESS) return rc;
  if (util == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *util = {gpu, memory};
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  if (memory == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  const Poll& p = gpu_of(device)->now();
  if (!p.v[kMemUsed] || !p.v[kMemTotal]) return NVML_ERROR_NOT_SUPPORTED;
  *memory = {*p.v[kMemTotal], *p.v[kMemTotal] - std::min(*p.v[kMemUsed], *p.v[kMemTotal]), *p.v[kMemUsed]};
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* mw) {
  return answer(device, kPower, mw);
}

FAKE_API nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int* mw) {
  return answer(device, kPowerLimit, mw);
}

FAKE_API nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensor,
                                               unsigned int* temp) {
  if (sensor != NVML_TEMPERATURE_GPU) return NVML_ERROR_INVALID_ARGUMENT;
  return answer(device, kTemp, temp);
}

FAKE_API nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* mhz) {
  if (type == NVML_CLOCK_SM) return answer(device, kSmClock, mhz);
  if (type == NVML_CLOCK_MEM) return answer(device, kMemClock, mhz);
  return NVML_ERROR_INVALID_ARGUMENT;  // graphics and video clocks are not modelled
}

FAKE_API nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, nvmlPcieUtilCounter_t counter,
                                                  unsigned int* kbps) {
  if (counter == NVML_PCIE_UTIL_TX_BYTES) return answer(device, kPcieTx, kbps);
  if (counter == NVML_PCIE_UTIL_RX_BYTES) return answer(device, kPcieRx, kbps);
  return NVML_ERROR_INVALID_ARGUMENT;
}

// Only the all-links NVLink data counters are modelled; any other field is not supported.
FAKE_API nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int count, nvmlFieldValue_t* values) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  if (count < 0 || (count > 0 && values == nullptr)) return NVML_ERROR_INVALID_ARGUMENT;
  const Poll& p = gpu_of(device)->now();
  for (nvmlFieldValue_t& f : std::span(values, static_cast<std::size_t>(count))) {
    const bool tx = f.fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
    const bool rx = f.fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
    const Value& v = p.v[tx ? kNvlinkTx : kNvlinkRx];
    f.timestamp = p.time_us;
    f.latencyUsec = 0;
    f.nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
    if ((tx || rx) && f.scopeId == kAllNvlinks && v) {
      f.valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
      f.value.ullVal = *v;
      f.nvmlReturn = NVML_SUCCESS;
    }
  }
  return NVML_SUCCESS;
}

// Like the driver: with *count too small for every process, INSUFFICIENT_SIZE and the count
// needed (SUCCESS and 0 when there are none); otherwise the entries and their count.
template <class Entry>
nvmlReturn_t running_processes(nvmlDevice_t device, Pids Poll::*which, unsigned int* count, Entry* infos) {
  unsigned int procs = 0;
  if (const nvmlReturn_t rc = answer(device, kProcs, &procs); rc != NVML_SUCCESS) return rc;
  if (count == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  const Pids& pids = gpu_of(device)->now().*which;
  const bool fits = *count >= pids.size();
  if (fits && !pids.empty() && infos == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *count = static_cast<unsigned int>(pids.size());
  if (!fits) return NVML_ERROR_INSUFFICIENT_SIZE;
  for (std::size_t i = 0; i < pids.size(); ++i) {
    infos[i] = {};
    infos[i].pid = pids[i];
    infos[i].usedGpuMemory = 1ULL << 30;
  }
  return NVML_SUCCESS;
}

FAKE_API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int* count,
                                                              nvmlProcessInfo_t* infos) {
  return running_processes(device, &Poll::compute_pids, count, infos);
}

// Not supported where the poll's PROCS is '-', like the compute call.
FAKE_API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device, unsigned int* count,
                                                            nvmlProcessInfo_v1_t* infos) {
  return running_processes(device, &Poll::graphics_pids, count, infos);
}

// The buffer holds the samples of every poll line reached so far; like the driver, only those
// newer than last_seen are returned, NOT_FOUND when there are none.
FAKE_API nvmlReturn_t nvmlDeviceGetSamples(nvmlDevice_t device, nvmlSamplingType_t type, unsigned long long last_seen,
                                           nvmlValueType_t* value_type, unsigned int* count, nvmlSample_t* samples) {
  if (const nvmlReturn_t rc = check(device); rc != NVML_SUCCESS) return rc;
  if (type < 0 || type > NVML_MEMORY_UTILIZATION_SAMPLES || value_type == nullptr || count == nullptr)
    return NVML_ERROR_INVALID_ARGUMENT;
  const Gpu& g = *gpu_of(device);
  const auto slot = static_cast<std::size_t>(type);
  if (!g.now().samples[slot]) return NVML_ERROR_NOT_SUPPORTED;

  std::vector<nvmlSample_t> fresh;
  for (std::size_t i = 0; i <= g.cursor; ++i) {
    const Poll& p = g.polls[i];
    if (p.lost || !p.samples[slot]) continue;
    const std::vector<unsigned int>& values = *p.samples[slot];
    for (std::size_t k = 0; k < values.size(); ++k) {
      const auto stamp = static_cast<unsigned long long>(p.time_us) - (values.size() - 1 - k) * 1000;
      nvmlSample_t s{};
      s.timeStamp = stamp;
      s.sampleValue.uiVal = values[k];
      if (stamp > last_seen) fresh.push_back(s);
    }
  }
  *value_type = NVML_VALUE_TYPE_UNSIGNED_INT;
  if (fresh.empty()) return NVML_ERROR_NOT_FOUND;
  if (samples == nullptr) {  // a size query
    *count = static_cast<unsigned int>(fresh.size());
    return NVML_SUCCESS;
  }
  if (*count == 0) return NVML_ERROR_INVALID_ARGUMENT;
  *count = std::min(*count, static_cast<unsigned int>(fresh.size()));
  std::copy_n(fresh.begin(), *count, samples);
  return NVML_SUCCESS;
}
