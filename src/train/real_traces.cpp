#include "train/real_traces.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/diagnostic.hpp"
#include "features/gpu_context.hpp"
#include "core/line_reader.hpp"
#include "source/replay/nvidia_smi_csv.hpp"
#include "source/replay/replay_source.hpp"

namespace wt {
namespace {

namespace fs = std::filesystem;

// A trace of `dir` named `file`: its source is the given one, else the middle part of
// "<label>__<source>__<run>.csv", else the directory's name; its run is the name without that
// label and source, and without ".csv".
RealTrace make_trace(const fs::path& dir, const std::string& file, std::string given_source, WorkloadType label) {
  const auto first = file.find("__");
  const auto second = first == std::string::npos ? first : file.find("__", first + 2);
  const bool named = second != std::string::npos && second > first + 2;
  std::string run = named ? file.substr(second + 2) : file;
  if (run.ends_with(".csv")) run.resize(run.size() - 4);
  std::string source = !given_source.empty() ? std::move(given_source)
                       : named                ? file.substr(first + 2, second - first - 2)
                                              : dir.filename().string();
  return {(dir / file).string(), file, std::move(source), std::move(run), label};
}

// file -> trace, from dir/MANIFEST.csv.
std::map<std::string, RealTrace> read_manifest(const fs::path& dir) {
  std::map<std::string, RealTrace> out;
  const fs::path path = dir / kRealTraceManifest;
  LineReader in(path.string());
  const std::string where = path.string() + ":";
  std::vector<std::string_view> fields;
  std::string_view line;
  int file_col = -1, label_col = -1, source_col = -1;
  while (true) {
    const auto status = in.next(line);
    if (status == LineReader::Status::End) break;
    const std::string at = where + std::to_string(in.line_number()) + ": ";
    if (status == LineReader::Status::TooLong) throw InputError(at + "line too long");
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    split_csv(line, fields);
    if (file_col < 0) {  // the header
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string_view name = fields[i];
        if (name == "file") file_col = static_cast<int>(i);
        if (name == "label") label_col = static_cast<int>(i);
        if (name == "source") source_col = static_cast<int>(i);
      }
      if (file_col < 0 || label_col < 0) throw InputError(at + "the header needs a 'file' and a 'label' column");
      continue;
    }
    const auto need = static_cast<std::size_t>(std::max({file_col, label_col, source_col}));
    if (fields.size() <= need) throw InputError(at + "expected at least " + std::to_string(need + 1) + " fields");
    const std::string file(fields[static_cast<std::size_t>(file_col)]);
    const std::string label_text(fields[static_cast<std::size_t>(label_col)]);
    const auto label = parse_workload_type(label_text);
    if (!label)
      throw InputError(at + "unknown label '" + label_text + "' (expected one of " + workload_type_names() + ")");
    const fs::path rel(file);
    if (file.empty() || rel.is_absolute() || rel.filename() != rel)
      throw InputError(at + "'" + file + "' must be a file name in " + dir.string());
    if (!fs::is_regular_file(dir / rel)) throw InputError(at + "'" + file + "' is not in " + dir.string());
    std::string given = source_col >= 0 ? std::string(fields[static_cast<std::size_t>(source_col)]) : "";
    out[file] = make_trace(dir, file, std::move(given), *label);
  }
  return out;
}

}  // namespace

std::vector<RealTrace> list_real_traces(const std::string& dir) {
  const fs::path root(dir);
  std::map<std::string, RealTrace> traces;
  if (fs::exists(root / kRealTraceManifest)) traces = read_manifest(root);
  for (const auto& e : fs::directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".csv" || name == kRealTraceManifest || traces.contains(name)) continue;
    const auto label = label_from_file_name(name);
    if (!label) continue;
    traces[name] = make_trace(root, name, "", *label);
  }
  std::vector<RealTrace> out;
  for (auto& [name, t] : traces) out.push_back(std::move(t));
  return out;
}

std::string real_group(const std::string& source) { return "real:" + source; }

std::size_t add_real_traces(const std::string& dir, const WindowSpec& window, std::vector<LabelledWindow>& out,
                            float weight) {
  const std::size_t before = out.size();
  std::size_t files = 0;
  for (const RealTrace& t : list_real_traces(dir)) {
    ReplaySource src(t.path);
    add_windows(src, t.label, real_group(t.source), window, gpu_context_for, out);
    ++files;
  }
  for (std::size_t i = before; i < out.size(); ++i) out[i].weight = weight;
  return files;
}

}  // namespace wt
