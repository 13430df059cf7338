// Live NVIDIA GPUs through NVML, loaded at run time (no NVIDIA header or library at build time).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source/polled_source.hpp"

namespace wt {

class NvmlLibrary;  // the dlopen'ed symbol table (nvml_library.hpp)

struct NvmlOptions {
  std::size_t samples = 30;   // polls; 0 = until stopped
  double interval_s = 1.0;    // between polls
  std::optional<int> gpu;     // only this index
  // dlopen name; resolved through the usual library search path (LD_LIBRARY_PATH too).
  std::string library = "libnvidia-ml.so.1";
  // Seconds between listings of each GPU's processes (sooner when the compute-process count
  // changes): the lists cost a driver call each, and who runs on a GPU changes seldom.
  double process_refresh_s = 5.0;
};

class NvmlSource final : public PolledSource {
 public:
  // Throws NoTelemetryError (with a one-line reason) when the library, the driver or a GPU
  // is missing.
  explicit NvmlSource(NvmlOptions options);
  ~NvmlSource() override;
  std::string describe() const override { return "nvml"; }
  // How many GPUs the driver reports (read or not).
  std::size_t gpu_count() const { return gpu_count_; }

 private:
  struct Device;
  bool poll(double start_s, std::vector<Sample>& out) override;

  NvmlOptions options_;
  std::unique_ptr<NvmlLibrary> lib_;
  std::vector<Device> devices_;
  std::size_t gpu_count_ = 0;
};

}  // namespace wt
