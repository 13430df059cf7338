// What AmdSource reads AMD GPUs through: AMD SMI (libamd_smi, amd_smi_reader.cpp) or ROCm SMI
// (librocm_smi64, rocm_smi_reader.cpp). A reader loads its library, lists the GPUs and reads one
// GPU's signals per call, in the project's units; AmdSource does the polling, the lost-GPU
// detection and the reporting for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"

namespace wt {

// No candidate name of a vendor library could be loaded: it is not installed (as opposed to
// installed but unusable, which is a plain NoTelemetryError).
class LibraryNotFound : public NoTelemetryError {
 public:
  using NoTelemetryError::NoTelemetryError;
};

// A call that failed with a real error (not "not supported"), and the library's reason.
struct FailedCall {
  std::string call;
  std::string why;
};
using FailedCalls = std::vector<FailedCall>;

class AmdGpuReader {
 public:
  virtual ~AmdGpuReader() = default;
  // Which library, e.g. "AMD SMI 26.1.0 (libamd_smi.so)".
  virtual std::string library() const = 0;
  virtual std::size_t gpu_count() const = 0;
  // Name, uuid and PCI address of GPU i (< gpu_count()); the index is left to the caller.
  virtual GpuIdentity identity(std::size_t i) const = 0;
  // One poll of GPU i. A reading the GPU does not support stays absent; a call that fails
  // otherwise leaves its signals absent and is added to `failed`. PCIe only when `pcie`.
  virtual void read(std::size_t i, bool pcie, SignalValues& v, FailedCalls& failed) = 0;
};

// Each throws LibraryNotFound when no name loads, NoTelemetryError (one line) when the library
// is unusable or does not start. The names are dlopen names, tried in order.
std::unique_ptr<AmdGpuReader> open_amd_smi(const std::vector<std::string>& names);
std::unique_ptr<AmdGpuReader> open_rocm_smi(const std::vector<std::string>& names);

// The mean power between two readings of a GPU's energy accumulator, which both libraries
// expose alike (a counter, its resolution in µJ, a timestamp in ns). Unlike the driver's short
// power average it covers the whole interval between polls.
class EnergyRate {
 public:
  // Watts since the previous reading; nullopt for the first, and when the counter went back
  // (driver reloaded) or time did not advance.
  std::optional<double> update(std::uint64_t count, float resolution_uj, std::uint64_t time_ns);
  // The counter could not be read: the next reading starts afresh.
  void reset() { last_.reset(); }

 private:
  struct Reading {
    double uj;
    std::uint64_t time_ns;
  };
  std::optional<Reading> last_;
};

}  // namespace wt
