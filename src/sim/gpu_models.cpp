#include "sim/gpu_models.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace wt::sim {

// Sources (docs/simulator.md lists them with links):
//  [DS]  the vendor's datasheet / product brief: memory, power limit, boost clock, memory clock, NVLink/IF.
//  [RT]  measured in ../shared/real-traces (V100, A100, H100) or ../shared/real-traces-b200 (B200):
//        idle and context power, parked/context clocks, context memory.
//  [EST] not in any datasheet and not in our traces: an estimate, to be replaced by a measurement.
// The last field, instant_power, is true for GA100 and older parts [NVML API reference,
// nvmlDeviceGetPowerUsage]; the traces agree: busy V100 and A100 readings scatter 6-24 % of the
// dynamic draw from poll to poll, H100, H200 and B200 readings about 1 % (docs/simulator.md).
const std::vector<GpuModel>& gpu_models() {
  static const std::vector<GpuModel> models{
      // V100 SXM2 32GB [DS: NVIDIA V100 datasheet: 300 W, 1530 MHz boost, 877 MHz HBM2, NVLink 300 GB/s].
      // Idle 42-46 W at 135 MHz, context 48-53 W at 817 MHz, memory clock 810 MHz, 32510 MiB [RT, the -LS part].
      {"Tesla V100-SXM2-32GB", "NVIDIA", 32510, 300, 44, 50, 1530, 817, 135, 877, 300, 16, 358, 0, true},
      // A100 SXM4 [DS: A100 datasheet: 400 W, 1410 MHz, 40 GB HBM2 1215 MHz / 80 GB HBM2e 1593 MHz, NVLink 600 GB/s,
      // PCIe Gen4 32 GB/s]. Idle ~52-56 W [RT: A100 inference traces before loading].
      {"NVIDIA A100-SXM4-40GB", "NVIDIA", 40960, 400, 54, 62, 1410, 1410, 210, 1215, 600, 32, 420, 0, true},
      {"NVIDIA A100-SXM4-80GB", "NVIDIA", 81920, 400, 60, 68, 1410, 1410, 210, 1593, 600, 32, 420, 0, true},
      // A100 PCIe 40GB [DS: 250 W]; idle ~30-34 W [RT: the palmetto A100 traces].
      {"NVIDIA A100-PCIE-40GB", "NVIDIA", 40960, 250, 32, 38, 1410, 1410, 210, 1215, 0, 32, 420, 0, true},
      // H100 SXM5 [DS: H100 datasheet: 700 W, 1980 MHz, 80 GB HBM3 2619 MHz, NVLink 900 GB/s, PCIe Gen5 64 GB/s].
      // Idle 69-72 W [RT: the H100 training traces before the job], memory 17 MiB idle [RT].
      {"NVIDIA H100 80GB HBM3", "NVIDIA", 81559, 700, 71, 115, 1980, 1980, 345, 2619, 900, 64, 520, 17, false},
      // H100 PCIe [DS: 350 W, 1755 MHz, HBM2e 1593 MHz]; idle [EST].
      {"NVIDIA H100 PCIe", "NVIDIA", 81559, 350, 48, 70, 1755, 1755, 345, 1593, 0, 64, 520, 17, false},
      // H200 SXM [DS: H200 product brief: 700 W, 141 GB HBM3e, NVLink 900 GB/s]; idle [EST, like H100].
      {"NVIDIA H200", "NVIDIA", 143771, 700, 75, 120, 1980, 1980, 345, 3201, 900, 64, 520, 17, false},
      // B200 [DS: HGX B200: 1000 W, NVLink 1.8 TB/s, PCIe Gen5]. 183359 MiB, idle 142-147 W at 120 MHz, context
      // ~190 W at 1965 MHz holding 2584 MiB, idle memory 717 MiB, memory clock 3996 MHz [RT].
      {"NVIDIA B200", "NVIDIA", 183359, 1000, 145, 191, 1965, 1965, 120, 3996, 1800, 64, 1867, 717, false},
      // L4 [DS: L4 datasheet: 72 W, 24 GB GDDR6, 2040 MHz boost, PCIe Gen4 x16]; idle [EST].
      {"NVIDIA L4", "NVIDIA", 23034, 72, 16, 28, 2040, 2040, 210, 6251, 0, 32, 260, 0, false},
      // GeForce RTX 4090 [DS: NVIDIA spec page: 450 W, 24 GB GDDR6X 21 Gbps (10501 MHz), 2520 MHz boost]; idle [EST].
      {"NVIDIA GeForce RTX 4090", "NVIDIA", 24564, 450, 22, 35, 2520, 2520, 210, 10501, 0, 32, 300, 280, false},
      // MI300X [DS: AMD MI300X data sheet: 750 W, 192 GB HBM3 (1300 MHz), 2100 MHz peak engine clock, Infinity
      // Fabric 896 GB/s, PCIe Gen5]; idle [EST].
      {"AMD Instinct MI300X", "AMD", 196592, 750, 140, 165, 2100, 2100, 132, 1300, 896, 64, 600, 280, false},
      // MI250X [DS: AMD MI250X data sheet: 560 W per OAM (two GCDs, each a device of 64 GB in rocm-smi, so 280 W
      // each), 1700 MHz, HBM2e 1600 MHz, Infinity Fabric 800 GB/s per OAM]; idle [EST].
      {"AMD Instinct MI250X", "AMD", 65536, 280, 45, 60, 1700, 1700, 800, 1600, 400, 32, 500, 10, false},
  };
  return models;
}

namespace {

bool has(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace

const GpuModel* find_gpu_model(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const GpuModel& m : gpu_models()) {  // exact (case-insensitive) first
    std::string lower(m.name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == n) return &m;
  }
  auto by = [](std::string_view exact) -> const GpuModel* {
    for (const GpuModel& m : gpu_models())
      if (m.name == exact) return &m;
    return nullptr;
  };
  // Most specific patterns first: "h100" must not shadow "h100 pcie", "a100" not "a100 80gb".
  if (has(n, "b200")) return by("NVIDIA B200");
  if (has(n, "h200")) return by("NVIDIA H200");
  if (has(n, "h100")) return has(n, "pcie") ? by("NVIDIA H100 PCIe") : by("NVIDIA H100 80GB HBM3");
  if (has(n, "a100")) {
    if (has(n, "80gb")) return by("NVIDIA A100-SXM4-80GB");
    if (has(n, "pcie")) return by("NVIDIA A100-PCIE-40GB");
    return by("NVIDIA A100-SXM4-40GB");  // includes the bare family name "NVIDIA A100"
  }
  if (has(n, "v100")) return by("Tesla V100-SXM2-32GB");
  if (has(n, "4090")) return by("NVIDIA GeForce RTX 4090");
  if (has(n, "mi300x")) return by("AMD Instinct MI300X");
  if (has(n, "mi250")) return by("AMD Instinct MI250X");
  if (n == "l4") return by("NVIDIA L4");
  return nullptr;
}

}  // namespace wt::sim
