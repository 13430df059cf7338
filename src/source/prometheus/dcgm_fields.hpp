// DCGM field metrics (as dcgm-exporter names them, and as Prometheus stores them) turned into
// samples: which field is which signal, in which unit, and which GPU a series belongs to.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"
#include "source/prometheus/exposition.hpp"

namespace wt {

// The DCGM metric names read, for a Prometheus selector.
const std::vector<std::string_view>& dcgm_metric_names();

// Collects metric points into one sample per GPU and timestamp. Identities are kept across
// calls, so each GPU has one shared identity for the whole run.
class DcgmReadings {
 public:
  // `only_gpu`: keep that GPU index's points alone (on each host). `declared_label`: the label
  // whose values each sample carries as its `declared` ("": none), looked for as written and as
  // dcgm-exporter names a pod label (every character but [A-Za-z0-9_] made '_':
  // workloadtruth.io/declared is workloadtruth_io_declared).
  explicit DcgmReadings(std::optional<int> only_gpu = std::nullopt, std::string declared_label = "");

  // Adds a point taken at time_ms (ignored unless it is a DCGM field read here). A value
  // outside the signal's plausible range (or not finite) is left missing, with a diagnostic.
  void add(const MetricPoint& p, std::int64_t time_ms, const std::string& where, Diagnostics& problems);

  // The samples added so far, in time order (host, then GPU index, within a time); forgets them.
  // A GPU's sample no newer than its last one taken is dropped: queries that overlap (Prometheus
  // followed as it fills, to catch scrapes stored late) give each sample once.
  // Memory total comes from the free + used (+ reserved) frame buffer where no total is given.
  // A sample equal in every signal to its GPU's previous one is dropped: dcgm-exporter refreshes
  // its values every collect interval (30 s by default), and a scrape between two refreshes
  // repeats the last, which would pass for a GPU holding perfectly still.
  std::vector<Sample> take();

 private:
  struct Partial {
    GpuRef gpu;
    SignalValues values;
    std::array<int, kSignalCount> rank{};  // of the field that set each signal (a lower one wins)
    double fb_free = -1, fb_reserved = 0;
    bool has_pod_label = false;  // the exporter maps GPUs to pods (its Kubernetes mode)
    PodNames pods;               // the pods its series name (NAMESPACE/NAME), sorted, once each
    DeclaredValues declared;     // the declared label's values on its series, sorted, once each
  };
  GpuRef identity(const MetricLabels& labels);

  std::map<std::string, GpuRef> gpus_;                            // by series key
  std::map<std::pair<std::int64_t, std::string>, Partial> open_;  // by (time, GPU key)
  // Each GPU's last sample taken: to drop repeats, and to share its pods (and declared values)
  // while they do not change.
  struct Last {
    SignalValues values;
    PodNamesRef pods;
    DeclaredValuesRef declared;
    std::int64_t time_ms = 0;
  };
  std::map<std::string, Last> last_;
  std::optional<int> only_gpu_;
  std::string declared_label_, declared_label_sanitized_;
};

}  // namespace wt
