// Directories of labelled real traces: which file holds what, and their windows for training.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "train/dataset.hpp"

namespace wt {

// The file in a trace directory that labels its traces (see list_real_traces).
inline constexpr std::string_view kRealTraceManifest = "MANIFEST.csv";

struct RealTrace {
  std::string path, file, source;
  std::string run;  // the file name less its "<label>__<source>__" and ".csv": "run1"
  WorkloadType label;
};

// The labelled traces of `dir`, sorted by file name. A MANIFEST.csv in `dir` (a header with
// `file` and `label` columns, optionally `source`) labels the files it lists; any other .csv is
// labelled by its name, "<label>__<source>__<run>.csv", and skipped without one. The source is
// the manifest's `source` column, else the name's middle part, else the directory's name.
// Throws InputError naming the manifest and line for an unknown label, a missing file or a
// path that leaves `dir`.
std::vector<RealTrace> list_real_traces(const std::string& dir);

// The training-row group of a real source's windows: "real:<source>".
std::string real_group(const std::string& source);

// Windows of every labelled trace in `dir` (group = real_group(source)), each counting `weight`
// windows in training. Returns the files read.
std::size_t add_real_traces(const std::string& dir, const WindowSpec& window, std::vector<LabelledWindow>& out,
                            float weight = 1);

}  // namespace wt
