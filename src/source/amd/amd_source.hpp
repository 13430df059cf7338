// Live AMD GPUs (Instinct, Radeon) through ROCm SMI, loaded at run time (no ROCm header or
// library at build time). What is read, from which call and in which unit: docs/amd.md.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "source/poll_clock.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

class RocmSmiLibrary;  // the dlopen'ed symbol table (rocm_smi_library.hpp)

struct AmdOptions {
  std::size_t samples = 30;  // polls; 0 = until stopped
  double interval_s = 1.0;   // between polls
  std::optional<int> gpu;    // only this ROCm SMI device index
  // dlopen names, tried in order (empty = RocmSmiLibrary::default_names()).
  std::vector<std::string> libraries;
  // rsmi_dev_pci_throughput_get measures by sleeping about a second, so PCIe traffic is read
  // only when polls are at least this far apart; faster polling reports it missing.
  double pcie_min_interval_s = 2.0;
};

class AmdSource final : public TelemetrySource {
 public:
  // Throws NoTelemetryError (with a one-line reason) when the library, the driver or a GPU
  // is missing.
  explicit AmdSource(AmdOptions options);
  ~AmdSource() override;
  bool next(Sample& out) override;
  std::string describe() const override { return "amd"; }
  // How many GPUs ROCm SMI reports (read or not).
  std::size_t gpu_count() const { return gpu_count_; }

 private:
  struct Device;
  bool poll();

  AmdOptions options_;
  std::unique_ptr<RocmSmiLibrary> lib_;
  std::vector<Device> devices_;
  std::size_t gpu_count_ = 0;
  bool read_pcie_ = false;
  std::vector<Sample> pending_;  // one poll's samples, handed out one by one
  std::size_t pending_pos_ = 0;
  std::size_t polls_ = 0;
  PollClock clock_;
};

}  // namespace wt
