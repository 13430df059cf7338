// How the simulated telemetry is read, which changes what a poll sees between two polls.
#pragma once

namespace wt::sim {

enum class Reader {
  // WorkloadTruth's own NVML reader: the driver's buffered samples since the previous poll,
  // averaged, so utilization and power cover the whole interval.
  IntervalMean,
  // nvidia-smi --query-gpu (and the exporters built like it): the driver's latest sample only,
  // utilization over its last sample period, power as nvmlDeviceGetPowerUsage gives it (an
  // instant on GA100 and older parts, a one-second average on later ones).
  LatestSample,
};

}  // namespace wt::sim
