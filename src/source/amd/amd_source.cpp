#include "source/amd/amd_source.hpp"

#include <set>
#include <utility>

#include "source/amd/amd_gpu_reader.hpp"
#include "source/amd/amd_smi_library.hpp"
#include "source/amd/kfd_processes.hpp"
#include "source/amd/rocm_smi_library.hpp"

namespace wt {

namespace {

constexpr const char* kNoGpuHint = "use --backend synthetic or --replay FILE to run without a GPU";

// AMD SMI, else ROCm SMI: the first library that loads and sees a GPU. AMD SMI found but not
// used (a version whose structs are not known here, say) is noted, so that the fallback is
// visible; AMD SMI simply not installed is not.
std::unique_ptr<AmdGpuReader> open_reader(const AmdOptions& o, Diagnostics& notes) {
  struct Candidate {
    std::unique_ptr<AmdGpuReader> (*open)(const std::vector<std::string>&);
    std::vector<std::string> names;
  };
  const Candidate candidates[] = {
      {open_amd_smi, o.amd_smi_libraries.empty() ? AmdSmiLibrary::default_names() : o.amd_smi_libraries},
      {open_rocm_smi, o.rocm_smi_libraries.empty() ? RocmSmiLibrary::default_names() : o.rocm_smi_libraries}};
  std::string why;
  bool any_loaded = false, any_failed = false;
  for (const Candidate& c : candidates) {
    std::string reason;
    try {
      auto reader = c.open(c.names);
      any_loaded = true;
      if (reader->gpu_count() > 0) {
        if (!notes.empty()) notes.back().message += "; reading through " + reader->library() + " instead";
        return reader;
      }
      reason = reader->library() + " is loaded but reports no GPU";
    } catch (const LibraryNotFound& e) {
      reason = e.what();
    } catch (const NoTelemetryError& e) {
      any_loaded = any_failed = true;
      reason = e.what();
      if (c.open == open_amd_smi) notes.push_back({"amd", "AMD SMI not used: " + reason, false});
    }
    why += (why.empty() ? "" : "; ") + reason;
  }
  if (!any_loaded) throw NoTelemetryError("no AMD GPU library: " + why + "; is ROCm installed? " + kNoGpuHint);
  if (any_failed) throw NoTelemetryError("no AMD GPU telemetry (" + why + "); " + kNoGpuHint);
  throw NoTelemetryError("no AMD GPU found (" + why + "); " + kNoGpuHint);
}

}  // namespace

struct AmdSource::Device {
  std::size_t index = 0;
  GpuRef gpu;
  std::string where;  // "GPU 1 (0x3c2e...)", for diagnostics
  bool lost = false;
  std::set<std::string> reported;  // calls whose failure was already reported
  ProcessIdsRef processes;         // as last listed; null while KFD cannot be read
};

AmdSource::AmdSource(AmdOptions options)
    : PolledSource(options.samples, options.interval_s),
      options_(std::move(options)),
      read_pcie_(options_.interval_s >= options_.pcie_min_interval_s) {
  Diagnostics notes;
  reader_ = open_reader(options_, notes);
  for (Diagnostic& d : notes) report(std::move(d));
  const std::size_t count = gpu_count_ = reader_->gpu_count();
  if (options_.gpu && (*options_.gpu < 0 || static_cast<std::size_t>(*options_.gpu) >= count))
    throw NoTelemetryError("there is no GPU " + std::to_string(*options_.gpu) + ": this machine has " +
                           std::to_string(count) + " AMD GPU" +
                           (count == 1 ? " (index 0)" : "s (indices 0-" + std::to_string(count - 1) + ")"));

  for (std::size_t i = 0; i < count; ++i) {
    if (options_.gpu && static_cast<std::size_t>(*options_.gpu) != i) continue;
    Device d;
    d.index = i;
    auto id = std::make_shared<GpuIdentity>(reader_->identity(i));
    id->index = static_cast<int>(i);
    d.where = "GPU " + std::to_string(i) + (id->uuid.empty() ? "" : " (" + id->uuid + ")");
    d.gpu = std::move(id);
    devices_.push_back(std::move(d));
  }
}

AmdSource::~AmdSource() = default;

std::string AmdSource::library() const { return reader_->library(); }

void AmdSource::refresh_processes(double now_s) {
  if (now_s < processes_due_s_) return;
  processes_due_s_ = now_s + options_.process_refresh_s;
  const auto listed = list_kfd_processes(options_.kfd_root);
  for (Device& d : devices_) {
    // A GPU whose PCI address is unknown cannot be found in the list: its processes stay unknown.
    if (!listed || d.gpu->pci_bus_id.empty()) {
      d.processes.reset();
      continue;
    }
    const auto it = listed->find(d.gpu->pci_bus_id);
    const ProcessIds pids = it == listed->end() ? ProcessIds{} : it->second;
    if (!d.processes || *d.processes != pids) d.processes = std::make_shared<const ProcessIds>(pids);
  }
}

// One sample per live GPU, all stamped with the same wall-clock time. False when every GPU is lost.
bool AmdSource::poll(double start_s, std::vector<Sample>& out) {
  const double time_s = PollClock::wall_clock_s();
  refresh_processes(start_s);
  for (Device& d : devices_) {
    if (d.lost) continue;
    Sample s{{time_s, {}}, d.gpu, d.processes};
    FailedCalls failed;
    reader_->read(d.index, read_pcie_, s.values, failed);
    // Neither library has a "GPU lost" code: a GPU that fell off the bus (or whose driver was
    // unbound) fails every call, as its sysfs files are gone. Nothing read and errors only is
    // taken to mean that.
    if (s.values.empty() && !failed.empty()) {
      d.lost = true;
      report({d.where, "GPU is gone (" + failed.front().call + ": " + failed.front().why + "); no longer read", true});
      continue;
    }
    // Other failures: the signal is missing this poll; each call is reported once per GPU.
    for (const FailedCall& f : failed)
      if (d.reported.insert(f.call).second)
        report({d.where, f.call + " failed: " + f.why + "; that signal is missing while it fails", true});
    out.push_back(std::move(s));
  }
  return !out.empty();
}

}  // namespace wt
