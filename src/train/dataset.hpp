// Labelled feature rows for training and evaluating the trained classifier.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "classify/trained_classifier.hpp"
#include "source/telemetry_source.hpp"
#include "window/windower.hpp"

namespace wt {

struct LabelledWindow {
  ModelFeatures x;
  WorkloadType label;
  std::string group;  // what a held-out split keeps together: scenario family, evasion family, source
  std::string gpu_model;
  float weight = 1;  // how many windows this one counts as in training (real traces: train --real-weight)
  // Rows of one GPU of one trace share this, and follow each other in time order: what a
  // GPU's belief (ModelBundle::window_stay) is carried along when calibrating.
  std::uint64_t sequence = 0;
  double time_s = 0;  // the window's last reading: how long a GPU's belief had to fade
};

// A window with (almost) no compute is IDLE whatever the job is: the idle padding of a
// disguised training run, the context-only second GPU of a one-GPU job. Labelling such
// windows with the job's class would teach the model that idle looks like training.
inline constexpr double kIdleWindowMaxUtilPct = 2.0;

// Windows every GPU of `source` and appends one row per window, labelled `label` (or IDLE,
// see above), each GPU's rows with a `sequence` no other rows of `out` have. Returns the
// number of rows added.
std::size_t add_windows(TelemetrySource& source, WorkloadType label, const std::string& group,
                        const WindowSpec& spec, const GpuContextFn& context, std::vector<LabelledWindow>& out);

// The label in a real trace's file name: "<label>__<source>__<run>.csv" -> TRAINING ...
std::optional<WorkloadType> label_from_file_name(const std::string& file_name);

}  // namespace wt
