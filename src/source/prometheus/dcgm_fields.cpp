#include "source/prometheus/dcgm_fields.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

namespace wt {
namespace {

// What a field is, and its unit as a factor to ours. Where two fields give one signal (the
// classic utilization and the profiling counters newer exporters default to), rank 0 wins.
struct Field {
  std::string_view name;
  Signal signal;
  double scale;
  int rank;
};

// Free and reserved frame buffer are not signals; they complete the memory total below.
constexpr std::string_view kFbFree = "DCGM_FI_DEV_FB_FREE";
constexpr std::string_view kFbReserved = "DCGM_FI_DEV_FB_RESERVED";

constexpr std::array<Field, 17> kFields{{
    {"DCGM_FI_DEV_GPU_UTIL", Signal::GpuUtil, 1, 0},               // %
    {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", Signal::GpuUtil, 100, 1},    // ratio of time busy
    {"DCGM_FI_DEV_MEM_COPY_UTIL", Signal::MemUtil, 1, 0},          // %
    {"DCGM_FI_PROF_DRAM_ACTIVE", Signal::MemUtil, 100, 1},         // ratio of cycles
    {"DCGM_FI_DEV_FB_USED", Signal::MemUsed, 1, 0},                // MiB
    {"DCGM_FI_DEV_FB_TOTAL", Signal::MemTotal, 1, 0},              // MiB
    {"DCGM_FI_DEV_POWER_USAGE", Signal::Power, 1, 0},              // W
    {"DCGM_FI_DEV_ENFORCED_POWER_LIMIT", Signal::PowerLimit, 1, 0},  // W
    {"DCGM_FI_DEV_POWER_MGMT_LIMIT", Signal::PowerLimit, 1, 1},      // W
    {"DCGM_FI_DEV_GPU_TEMP", Signal::Temperature, 1, 0},           // C
    {"DCGM_FI_DEV_SM_CLOCK", Signal::SmClock, 1, 0},               // MHz
    {"DCGM_FI_DEV_MEM_CLOCK", Signal::MemClock, 1, 0},             // MHz
    {"DCGM_FI_PROF_PCIE_TX_BYTES", Signal::PcieTx, 1e-6, 0},       // bytes/s
    {"DCGM_FI_PROF_PCIE_RX_BYTES", Signal::PcieRx, 1e-6, 0},       // bytes/s
    {"DCGM_FI_DEV_PCIE_TX_THROUGHPUT", Signal::PcieTx, 1e-3, 1},   // KB/s
    {"DCGM_FI_PROF_NVLINK_TX_BYTES", Signal::NvlinkTx, 1e-6, 0},   // bytes/s
    {"DCGM_FI_PROF_NVLINK_RX_BYTES", Signal::NvlinkRx, 1e-6, 0},   // bytes/s
}};

const Field* field(std::string_view name) {
  for (const Field& f : kFields)
    if (f.name == name) return &f;
  return nullptr;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The exporter's host: its Hostname label, else the address Prometheus scraped.
std::string_view host_of(const MetricLabels& labels) {
  const auto host = label(labels, "Hostname");
  return host.empty() ? label(labels, "instance") : host;
}

// The pod a series names ("" for none; nullopt when it has no pod label: the exporter is not in
// its Kubernetes mode). Prometheus scraping the exporter without honor_labels renames the
// exporter's labels that clash with its target's (the exporter's own pod and namespace, from
// Kubernetes service discovery) to exported_pod and exported_namespace; on a GPU no pod holds
// the exporter's empty labels clash with nothing, and `pod` is the exporter's own pod, named
// like the exporter's host.
std::optional<std::string> pod_of(const MetricLabels& labels) {
  bool has_pod = false, exported = false;
  for (const auto& [k, v] : labels) {
    has_pod = has_pod || k == "pod";
    exported = exported || k == "exported_pod";
  }
  if (exported) return pod_name(label(labels, "exported_namespace"), label(labels, "exported_pod"));
  if (!has_pod) return std::nullopt;
  const auto pod = label(labels, "pod");
  if (pod.empty() || pod == label(labels, "Hostname")) return "";
  return pod_name(label(labels, "namespace"), pod);
}

// Adds `value` to a sorted list unless it is there.
void insert_once(std::vector<std::string>& sorted, std::string_view value) {
  const auto at = std::lower_bound(sorted.begin(), sorted.end(), value);
  if (at == sorted.end() || *at != value) sorted.insert(at, std::string(value));
}

// A series' GPU: its UUID (with the MIG instance, whose series share the parent's UUID), else
// host and index.
std::string series_key(const MetricLabels& labels) {
  std::string key(label(labels, "UUID"));
  if (key.empty()) key = std::string(host_of(labels)) + "/" + std::string(label(labels, "gpu"));
  if (const auto mig = label(labels, "GPU_I_ID"); !mig.empty()) key += "/mig" + std::string(mig);
  return key;
}

}  // namespace

const std::vector<std::string_view>& dcgm_metric_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v{kFbFree, kFbReserved};
    for (const Field& f : kFields) v.push_back(f.name);
    return v;
  }();
  return names;
}

DcgmReadings::DcgmReadings(std::optional<int> only_gpu, std::string declared_label)
    : only_gpu_(only_gpu), declared_label_(std::move(declared_label)), declared_label_sanitized_(declared_label_) {
  for (char& c : declared_label_sanitized_)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
}

GpuRef DcgmReadings::identity(const MetricLabels& labels) {
  const std::string key = series_key(labels);
  if (auto it = gpus_.find(key); it != gpus_.end()) return it->second;
  auto id = std::make_shared<GpuIdentity>();
  const std::string_view index = label(labels, "gpu");
  if (std::from_chars(index.data(), index.data() + index.size(), id->index).ec != std::errc{} || id->index < 0)
    id->index = 0;
  id->uuid = std::string(label(labels, "UUID"));
  id->name = std::string(label(labels, "modelName"));
  id->pci_bus_id = std::string(label(labels, "pci_bus_id"));
  id->host = std::string(host_of(labels));
  if (const auto mig = label(labels, "GPU_I_ID"); !mig.empty()) {
    id->uuid += "/mig" + std::string(mig);
    id->name += " MIG " + std::string(label(labels, "GPU_I_PROFILE"));
  }
  return gpus_[key] = std::move(id);
}

void DcgmReadings::add(const MetricPoint& p, std::int64_t time_ms, const std::string& where, Diagnostics& problems) {
  const Field* f = field(p.name);
  const bool fb_extra = p.name == kFbFree || p.name == kFbReserved;
  if (f == nullptr && !fb_extra) return;
  Partial& s = open_[{time_ms, series_key(p.labels)}];
  if (!s.gpu) s.gpu = identity(p.labels);
  if (only_gpu_ && s.gpu->index != *only_gpu_) return;  // its entry stays empty: take() skips it
  // A GPU shared by several pods has one series per pod (time-slicing); each names its pod.
  if (const auto pod = pod_of(p.labels)) {
    s.has_pod_label = true;
    if (!pod->empty()) insert_once(s.pods, *pod);
  }
  if (!declared_label_.empty()) {
    std::string_view value = label(p.labels, declared_label_);
    if (value.empty() && declared_label_sanitized_ != declared_label_)
      value = label(p.labels, declared_label_sanitized_);
    if (!value.empty()) insert_once(s.declared, value);
  }
  const double v = p.value * (f ? f->scale : 1.0);
  if (fb_extra) {
    if (std::isfinite(v) && v >= 0) (p.name == kFbFree ? s.fb_free : s.fb_reserved) = v;
    return;
  }
  const SignalInfo& si = info(f->signal);
  if (!std::isfinite(v) || v < si.min || v > si.max) {
    problems.push_back({where, p.name + " of GPU " + s.gpu->label() + ": " + number(p.value) +
                                   " is outside the plausible range; left missing"});
    return;
  }
  int& rank = s.rank[static_cast<std::size_t>(f->signal)];
  if (!s.values.has(f->signal) || f->rank < rank) {
    s.values.set(f->signal, v);
    rank = f->rank;
  }
}

std::vector<Sample> DcgmReadings::take() {
  std::vector<Sample> out;
  out.reserve(open_.size());
  for (auto& [key, s] : open_) {
    if (!s.values.has(Signal::MemTotal) && s.values.has(Signal::MemUsed) && s.fb_free >= 0)
      if (const double total = s.values.value(Signal::MemUsed) + s.fb_free + s.fb_reserved;
          total <= info(Signal::MemTotal).max)
        s.values.set(Signal::MemTotal, total);
    if (s.values.empty()) continue;
    auto [last, first] = last_.try_emplace(key.second);
    if (!first && key.first <= last->second.time_ms) continue;
    last->second.time_ms = key.first;
    // Pods are shared while they stay the same; a change of pods is news even in a repeat.
    const bool pods_changed = s.has_pod_label && (!last->second.pods || *last->second.pods != s.pods);
    if (pods_changed) last->second.pods = std::make_shared<const PodNames>(std::move(s.pods));
    const bool declared_changed =
        !declared_label_.empty() && (!last->second.declared || *last->second.declared != s.declared);
    if (declared_changed) last->second.declared = std::make_shared<const DeclaredValues>(std::move(s.declared));
    if (!first && last->second.values == s.values && !pods_changed && !declared_changed) continue;
    last->second.values = s.values;
    Sample sample;
    sample.time_s = static_cast<double>(key.first) / 1000.0;
    sample.values = s.values;
    sample.gpu = s.gpu;
    if (s.has_pod_label) sample.pods = last->second.pods;
    sample.declared = last->second.declared;
    out.push_back(std::move(sample));
  }
  open_.clear();
  // Within one time, host then GPU index order (the map orders by key string, which need not be).
  std::stable_sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) {
    return std::tie(a.time_s, a.gpu->host, a.gpu->index) < std::tie(b.time_s, b.gpu->host, b.gpu->index);
  });
  return out;
}

}  // namespace wt
