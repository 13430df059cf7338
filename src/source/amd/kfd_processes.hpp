// The processes on each AMD GPU, as the amdgpu kernel driver's compute layer (KFD) lists them in
// sysfs: what `rocm-smi --showpids` reads, with no ROCm library and no struct that changes
// between ROCm releases. Layout (drivers/gpu/drm/amd/amdkfd, kfd_process.c and kfd_topology.c):
//   ROOT/topology/nodes/N/gpu_id         the GPU's KFD id (0 for a CPU node)
//   ROOT/topology/nodes/N/properties     "location_id L" (PCI bus << 8 | devfn), "domain D"
//   ROOT/proc/PID/vram_ID                bytes of VRAM the process holds on GPU ID
//   ROOT/proc/PID/queues/Q/gpuid         a queue the process runs on GPU ID
// ROOT is /sys/class/kfd/kfd. Only compute (ROCm/HIP) processes are there, not graphics clients.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/sample.hpp"

namespace wt {

// PIDs by each GPU's PCI address, "dddd:bb:dd.f" in lowercase hex as the AMD readers write
// GpuIdentity::pci_bus_id. A process is on a GPU where it runs a queue or holds VRAM (every
// ROCm process has an entry for every GPU, most of them empty). A GPU with no process is absent.
// nullopt when ROOT's topology cannot be read: no KFD here (not an amdgpu host, or sysfs not
// mounted where it is looked for). A process that exits while it is read is left out.
std::optional<std::map<std::string, ProcessIds>> list_kfd_processes(const std::string& root);

// "dddd:bb:dd.f" from KFD's location_id and domain.
std::string kfd_pci_address(unsigned long long location_id, unsigned long long domain);

}  // namespace wt
