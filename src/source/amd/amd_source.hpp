// Live AMD GPUs (Instinct, Radeon) through AMD SMI where it is installed, else ROCm SMI; both
// loaded at run time (no ROCm header or library at build time). What is read, from which call
// and in which unit: docs/amd.md.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source/polled_source.hpp"

namespace wt {

class AmdGpuReader;  // the library behind the GPUs (amd_gpu_reader.hpp)

struct AmdOptions {
  std::size_t samples = 30;  // polls; 0 = until stopped
  double interval_s = 1.0;   // between polls
  std::optional<int> gpu;    // only this GPU index (the library's order)
  // dlopen names, tried in order (empty = each library's default_names()). AMD SMI is tried
  // first; ROCm SMI when AMD SMI is missing, refuses or sees no GPU.
  std::vector<std::string> amd_smi_libraries;
  std::vector<std::string> rocm_smi_libraries;
  // The PCIe throughput calls measure by sleeping about a second, so PCIe traffic is read
  // only when polls are at least this far apart; faster polling reports it missing.
  double pcie_min_interval_s = 2.0;
  // Where the amdgpu driver lists each GPU's compute processes (kfd_processes.hpp), and how
  // often it is read; the PIDs ride on the samples (for watch's process and pod keys).
  std::string kfd_root = "/sys/class/kfd/kfd";
  double process_refresh_s = 5.0;
};

class AmdSource final : public PolledSource {
 public:
  // Throws NoTelemetryError (with a one-line reason) when no library, driver or GPU is there.
  explicit AmdSource(AmdOptions options);
  ~AmdSource() override;
  std::string describe() const override { return "amd"; }
  // How many GPUs the library reports (read or not).
  std::size_t gpu_count() const { return gpu_count_; }
  // Which library the GPUs are read through, e.g. "AMD SMI 26.1.0 (libamd_smi.so)".
  std::string library() const;

 private:
  struct Device;
  bool poll(double start_s, std::vector<Sample>& out) override;
  // Re-lists every GPU's processes when due (`now_s`: steady clock).
  void refresh_processes(double now_s);

  AmdOptions options_;
  std::unique_ptr<AmdGpuReader> reader_;
  std::vector<Device> devices_;
  std::size_t gpu_count_ = 0;
  bool read_pcie_ = false;
  double processes_due_s_ = 0;
};

}  // namespace wt
