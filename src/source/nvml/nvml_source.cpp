#include "source/nvml/nvml_source.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <utility>

#include "source/nvml/nvml_library.hpp"

namespace wt {

using namespace nvml;

namespace {

// Thrown by a read that finds its GPU fallen off the bus; the poll catches it and retires the GPU.
struct GpuLost {};

// Whether an NVML call worked. Any failure but a lost GPU (not supported, no permission...)
// leaves just that signal missing: missing is reported as missing, never as zero.
bool ok(nvmlReturn_t rc) {
  if (rc == NVML_ERROR_GPU_IS_LOST) throw GpuLost{};
  return rc == NVML_SUCCESS;
}

std::optional<double> to_double(nvmlValueType_t type, const nvmlValue_t& v) {
  switch (type) {
    case NVML_VALUE_TYPE_DOUBLE:
      return v.dVal;
    case NVML_VALUE_TYPE_UNSIGNED_INT:
      return v.uiVal;
    case NVML_VALUE_TYPE_UNSIGNED_LONG:
      return static_cast<double>(v.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
      return static_cast<double>(v.ullVal);
    case NVML_VALUE_TYPE_SIGNED_LONG_LONG:
      return static_cast<double>(v.sllVal);
    case NVML_VALUE_TYPE_SIGNED_INT:
      return v.siVal;
    default:
      return std::nullopt;  // a type newer than this code: better absent than misread
  }
}

// A name or UUID; "" when the driver cannot give it.
std::string read_text(NvmlLibrary::Fn<nvmlReturn_t(nvmlDevice_t, char*, unsigned int)> fn, nvmlDevice_t device,
                      unsigned int size) {
  std::string text(size, '\0');
  if (fn == nullptr || fn(device, text.data(), size) != NVML_SUCCESS) return {};
  text.resize(std::min(text.find('\0'), text.size()));
  return text;
}

constexpr double kBytesPerMiB = 1024.0 * 1024.0;

// The PIDs a process query lists, with NVML's protocol: a call with too small an array answers
// INSUFFICIENT_SIZE and the count needed, so the array grows and the call is repeated (with
// room to spare: processes may start in between). nullopt when the call fails.
template <class Entry>
std::optional<ProcessIds> list_pids(NvmlLibrary::Fn<nvmlReturn_t(nvmlDevice_t, unsigned int*, void*)> call,
                                    nvmlDevice_t device) {
  std::vector<Entry> entries;
  for (int attempt = 0; attempt < 4; ++attempt) {
    auto count = static_cast<unsigned int>(entries.size());
    const nvmlReturn_t rc = call(device, &count, entries.empty() ? nullptr : entries.data());
    if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
      entries.resize(count + 4);
      continue;
    }
    if (!ok(rc)) return std::nullopt;
    ProcessIds pids;
    for (const Entry& e : std::span(entries).first(std::min<std::size_t>(count, entries.size()))) pids.push_back(e.pid);
    return pids;
  }
  return std::nullopt;  // still growing after every retry: try again at the next listing
}

std::optional<ProcessIds> list_pids(const NvmlLibrary::ProcessQuery& query, nvmlDevice_t device) {
  if (!query.call) return std::nullopt;
  if (query.entry_size == sizeof(nvmlProcessInfo_t)) return list_pids<nvmlProcessInfo_t>(query.call, device);
  return list_pids<nvmlProcessInfo_v1_t>(query.call, device);
}

}  // namespace

struct NvmlSource::Device {
  nvmlDevice_t handle = nullptr;
  GpuRef gpu;
  std::string where;  // "GPU 1 (GPU-5f3c...)", for diagnostics
  bool lost = false;
  // Newest driver timestamp (µs) seen in each sample buffer, indexed by nvmlSamplingType_t.
  std::array<unsigned long long, 3> last_sample_us{};
  // Previous cumulative NVLink reading (TX, RX): a rate needs two.
  struct Counter {
    double kib;
    long long time_us;
  };
  std::array<std::optional<Counter>, 2> last_nvlink;
  // Its processes as last listed (null: cannot be listed), and when to list them again.
  ProcessIdsRef processes;
  double processes_due_s = 0;
  std::optional<double> listed_compute_count;

  // Every signal the GPU offers. Throws GpuLost.
  void read(const NvmlLibrary& lib, SignalValues& v);
  // Re-lists its processes when due (`now_s`: steady clock) or when the compute-process count
  // read by read() changed. Throws GpuLost.
  void refresh_processes(const NvmlLibrary& lib, const SignalValues& v, double now_s, double every_s);

 private:
  std::optional<double> sample_mean(const NvmlLibrary& lib, nvmlSamplingType_t type);
  void read_nvlink(const NvmlLibrary& lib, SignalValues& v);
};

void NvmlSource::Device::read(const NvmlLibrary& lib, SignalValues& v) {
  nvmlUtilization_t util{};
  if (lib.device_get_utilization_rates && ok(lib.device_get_utilization_rates(handle, &util))) {
    v.set(Signal::GpuUtil, util.gpu);
    v.set(Signal::MemUtil, util.memory);
  }
  nvmlMemory_t mem{};
  if (lib.device_get_memory_info && ok(lib.device_get_memory_info(handle, &mem))) {
    v.set(Signal::MemUsed, static_cast<double>(mem.used) / kBytesPerMiB);
    v.set(Signal::MemTotal, static_cast<double>(mem.total) / kBytesPerMiB);
  }

  // The calls that return one unsigned int, divided into the signal's unit.
  auto reading = [&](Signal signal, double divisor, auto fn, auto... args) {
    unsigned int x = 0;
    if (fn && ok(fn(handle, args..., &x))) v.set(signal, x / divisor);
  };
  reading(Signal::Power, 1000, lib.device_get_power_usage);                // mW -> W
  reading(Signal::PowerLimit, 1000, lib.device_get_enforced_power_limit);  // mW -> W
  reading(Signal::Temperature, 1, lib.device_get_temperature, NVML_TEMPERATURE_GPU);
  reading(Signal::SmClock, 1, lib.device_get_clock_info, NVML_CLOCK_SM);
  reading(Signal::MemClock, 1, lib.device_get_clock_info, NVML_CLOCK_MEM);
  reading(Signal::PcieTx, 1000, lib.device_get_pcie_throughput, NVML_PCIE_UTIL_TX_BYTES);  // KB/s -> MB/s
  reading(Signal::PcieRx, 1000, lib.device_get_pcie_throughput, NVML_PCIE_UTIL_RX_BYTES);

  if (lib.compute_processes.call) {
    // Offered no room for details, NVML answers with the count: INSUFFICIENT_SIZE when there
    // are processes, SUCCESS when there are none.
    unsigned int count = 0;
    const nvmlReturn_t rc = lib.compute_processes.call(handle, &count, nullptr);
    if (rc == NVML_ERROR_INSUFFICIENT_SIZE || ok(rc)) v.set(Signal::ProcessCount, count);
  }

  read_nvlink(lib, v);

  // The instantaneous power and utilization describe only the driver's latest sample period
  // (1/6 s to 1 s); the mean of its buffered samples since the last poll covers the whole
  // interval, so a short burst between polls is not missed.
  if (auto mw = sample_mean(lib, NVML_TOTAL_POWER_SAMPLES)) v.set(Signal::Power, *mw / 1000);
  if (auto pct = sample_mean(lib, NVML_GPU_UTILIZATION_SAMPLES)) v.set(Signal::GpuUtil, *pct);
  if (auto pct = sample_mean(lib, NVML_MEMORY_UTILIZATION_SAMPLES)) v.set(Signal::MemUtil, *pct);
}

void NvmlSource::Device::refresh_processes(const NvmlLibrary& lib, const SignalValues& v, double now_s,
                                           double every_s) {
  const auto count = v.get(Signal::ProcessCount);
  if (now_s < processes_due_s && count == listed_compute_count) return;
  processes_due_s = now_s + every_s;
  listed_compute_count = count;
  auto compute = list_pids(lib.compute_processes, handle);
  auto graphics = list_pids(lib.graphics_processes, handle);
  if (!compute && !graphics) {
    processes.reset();
    return;
  }
  ProcessIds pids = compute.value_or(ProcessIds{});
  if (graphics) pids.insert(pids.end(), graphics->begin(), graphics->end());
  std::sort(pids.begin(), pids.end());  // one process may run compute and graphics work
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  if (!processes || *processes != pids) processes = std::make_shared<const ProcessIds>(std::move(pids));
}

// Mean of the driver's buffered samples newer than the last poll; nullopt on the first poll
// (the buffer then reaches back to before the run) or when there are none.
std::optional<double> NvmlSource::Device::sample_mean(const NvmlLibrary& lib, nvmlSamplingType_t type) {
  if (!lib.device_get_samples) return std::nullopt;
  unsigned long long& last = last_sample_us[static_cast<std::size_t>(type)];
  nvmlValueType_t value_type = 0;
  unsigned int count = 0;
  // A null array asks how many entries to make room for; NOT_FOUND means none are newer.
  if (!ok(lib.device_get_samples(handle, type, last, &value_type, &count, nullptr)) || count == 0) return std::nullopt;
  std::vector<nvmlSample_t> buffer(count);
  if (!ok(lib.device_get_samples(handle, type, last, &value_type, &count, buffer.data()))) return std::nullopt;

  const unsigned long long previous = last;
  double sum = 0;
  std::size_t n = 0;
  for (const nvmlSample_t& s : std::span(buffer).first(std::min<std::size_t>(count, buffer.size()))) {
    const auto x = to_double(value_type, s.sampleValue);
    if (s.timeStamp <= previous || !x) continue;
    sum += *x;
    ++n;
    last = std::max(last, s.timeStamp);
  }
  if (previous == 0 || n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

void NvmlSource::Device::read_nvlink(const NvmlLibrary& lib, SignalValues& v) {
  if (!lib.device_get_field_values) return;
  std::array<nvmlFieldValue_t, 2> fields{};
  fields[0].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
  fields[1].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
  fields[0].scopeId = fields[1].scopeId = kAllNvlinks;
  if (!ok(lib.device_get_field_values(handle, static_cast<int>(fields.size()), fields.data()))) return;

  constexpr std::array<Signal, 2> kRates{Signal::NvlinkTx, Signal::NvlinkRx};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::optional<Counter>& prev = last_nvlink[i];
    const auto kib = ok(fields[i].nvmlReturn) ? to_double(fields[i].valueType, fields[i].value) : std::nullopt;
    if (!kib) {  // no NVLink on this GPU, or not readable now
      prev.reset();
      continue;
    }
    const Counter now{*kib, fields[i].timestamp};
    // KiB x 1024 per µs = bytes per µs = MB/s. The driver's own timestamps time the interval.
    // A counter that went back (driver reloaded) gives no rate this once.
    if (prev && now.time_us > prev->time_us && now.kib >= prev->kib)
      v.set(kRates[i], (now.kib - prev->kib) * 1024.0 / static_cast<double>(now.time_us - prev->time_us));
    prev = now;
  }
}

NvmlSource::NvmlSource(NvmlOptions options)
    : PolledSource(options.samples, options.interval_s),
      options_(std::move(options)),
      lib_(std::make_unique<NvmlLibrary>(options_.library)) {
  unsigned int count = 0;
  if (const nvmlReturn_t rc = lib_->device_get_count(&count); rc != NVML_SUCCESS)
    throw NoTelemetryError("cannot count the NVIDIA GPUs: " + lib_->error_string(rc));
  gpu_count_ = count;
  if (count == 0)
    throw NoTelemetryError(
        "no NVIDIA GPU found (the driver is loaded but reports none); use --backend synthetic or "
        "--replay FILE to run without a GPU");
  if (options_.gpu && (*options_.gpu < 0 || static_cast<unsigned int>(*options_.gpu) >= count))
    throw NoTelemetryError("there is no GPU " + std::to_string(*options_.gpu) + ": this machine has " +
                           std::to_string(count) + " NVIDIA GPU" +
                           (count == 1 ? " (index 0)" : "s (indices 0-" + std::to_string(count - 1) + ")"));

  std::string last_error;
  for (unsigned int i = 0; i < count; ++i) {
    if (options_.gpu && static_cast<unsigned int>(*options_.gpu) != i) continue;
    const std::string gpu_label = "GPU " + std::to_string(i);
    Device d;
    if (const nvmlReturn_t rc = lib_->device_get_handle_by_index(i, &d.handle); rc != NVML_SUCCESS) {
      last_error = gpu_label + ": " + lib_->error_string(rc);
      report({gpu_label, "cannot be opened (" + lib_->error_string(rc) + "); not read", true});
      continue;
    }
    auto id = std::make_shared<GpuIdentity>();
    id->index = static_cast<int>(i);
    id->name = read_text(lib_->device_get_name, d.handle, NVML_DEVICE_NAME_V2_BUFFER_SIZE);
    id->uuid = read_text(lib_->device_get_uuid, d.handle, NVML_DEVICE_UUID_V2_BUFFER_SIZE);
    nvmlPciInfo_t pci{};
    if (lib_->device_get_pci_info && lib_->device_get_pci_info(d.handle, &pci) == NVML_SUCCESS)
      id->pci_bus_id.assign(pci.busId, strnlen(pci.busId, sizeof pci.busId));
    d.where = gpu_label + (id->uuid.empty() ? "" : " (" + id->uuid + ")");
    d.gpu = std::move(id);
    devices_.push_back(std::move(d));
  }
  if (devices_.empty()) throw NoTelemetryError("no NVIDIA GPU can be opened: " + last_error);
}

NvmlSource::~NvmlSource() = default;

// One sample per live GPU, all stamped with the same wall-clock time. False when every GPU is lost.
bool NvmlSource::poll(double start_s, std::vector<Sample>& out) {
  const double time_s = PollClock::wall_clock_s();
  for (Device& d : devices_) {
    if (d.lost) continue;
    Sample s{{time_s, {}}, d.gpu};
    try {
      d.read(*lib_, s.values);
      d.refresh_processes(*lib_, s.values, start_s, options_.process_refresh_s);
      s.processes = d.processes;
      out.push_back(std::move(s));
    } catch (const GpuLost&) {
      d.lost = true;
      report({d.where, "GPU is lost; no longer read", true});
    }
  }
  return !out.empty();
}

}  // namespace wt
