// One telemetry reading of one GPU: the unit every source produces.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/signal.hpp"

namespace wt {

struct GpuIdentity {
  int index = 0;           // nvidia-smi index (or position in the poll when the source had none)
  std::string uuid;        // "" when unknown
  std::string name;        // product name, "" when unknown
  std::string pci_bus_id;  // "" when unknown
  // The node the GPU is in, where the source names it (dcgm-exporter's Hostname label, else
  // Prometheus's instance): one source may read several. "" for the machine's own GPUs.
  std::string host;

  // Stable key that tells GPUs apart within one source.
  std::string key() const {
    if (!uuid.empty()) return uuid;
    return (host.empty() ? "" : host + "/") + (pci_bus_id.empty() ? std::to_string(index) : pci_bus_id);
  }
  // How people name the GPU: its index, after its host where it has one ("node1/0").
  std::string label() const { return host_index_label(host, index); }
  static std::string host_index_label(const std::string& host, int index) {
    return (host.empty() ? "" : host + "/") + std::to_string(index);
  }
  friend bool operator==(const GpuIdentity&, const GpuIdentity&) = default;
};

// Identities are shared, not copied per sample: a source makes one per GPU.
using GpuRef = std::shared_ptr<const GpuIdentity>;

// What windows and features need of one reading: when, and the signals.
struct Reading {
  // Seconds since 1970-01-01 of the recording's wall clock. Recorded nvidia-smi logs carry
  // local time without a zone; it is read as if it were UTC, so differences are exact.
  double time_s = 0;
  SignalValues values;
};

// The IDs of the processes running on a GPU (compute and graphics), as a source last listed
// them. Shared like identities: a source re-lists them every few seconds, not per sample.
using ProcessIds = std::vector<std::uint32_t>;
using ProcessIdsRef = std::shared_ptr<const ProcessIds>;

// The Kubernetes pods a source attributes a GPU to (dcgm-exporter's `pod` label), shared the
// same way; sources that list PIDs instead leave it null.
using PodNames = std::vector<std::string>;
using PodNamesRef = std::shared_ptr<const PodNames>;

// A pod as WorkloadTruth names it: NAMESPACE/NAME where its namespace is known (a pod's name is
// unique only within its namespace: two teams' `vllm-0` are two jobs), else NAME.
inline std::string pod_name(std::string_view name_space, std::string_view pod) {
  return name_space.empty() ? std::string(pod) : std::string(name_space) + "/" + std::string(pod);
}

// What a GPU's owners declared it runs, where the source reads that beside the telemetry (a pod
// label that dcgm-exporter copies onto the GPU's series, named by `watch --declared-label`): the
// values as written, sorted, once each (several where pods with other labels share the GPU);
// shared like pods. watch checks them against its verdicts; sources do not judge them.
using DeclaredValues = std::vector<std::string>;
using DeclaredValuesRef = std::shared_ptr<const DeclaredValues>;

// A reading of an identified GPU: the unit every source produces. A per-GPU stage (the
// windower) keeps only the Reading part, sliced off without touching the shared identity.
struct Sample : Reading {
  GpuRef gpu;
  ProcessIdsRef processes{};     // null when the source cannot list them (replays, simulations)
  PodNamesRef pods{};            // null unless the source names the GPU's pods
  DeclaredValuesRef declared{};  // null unless the source is asked for a declaration label
};

}  // namespace wt
