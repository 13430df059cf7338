#include "watch/declared_labels.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/diagnostic.hpp"
#include "core/json_parse.hpp"

namespace wt::watch {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

constexpr std::size_t kCommLength = 15;          // the kernel keeps this much of a process name
constexpr std::size_t kMinContainerPrefix = 12;  // as `docker ps` shows an ID
constexpr std::size_t kContainerIdLength = 64;

bool is_hex(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Parses "KEY=type" into `labels`; false with `why` set when malformed.
bool parse_item(const std::string& item, DeclaredLabels& labels, std::string& why) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) {
    why = "'" + item + "' is not KEY=type";
    return false;
  }
  const std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
  if (key.empty()) {
    why = "'" + item + "' has no key (a GPU index or UUID, process:, container:, pod: or slurm:) before '='";
    return false;
  }
  const auto type = parse_workload_type(value);
  if (!type) {
    why = "'" + value + "' is not a workload type (" + workload_type_names() + ")";
    return false;
  }
  return labels.set(key, *type, why);
}

// "KEY=TYPE (pid 1, 2)" for each key, joined with "; "; "(named by the source)" for a pod a
// source attributed the GPU to (PID 0: it comes with no process).
std::string describe_conflict(const std::vector<std::pair<std::string, std::uint32_t>>& hits,
                              const std::map<std::string, WorkloadType>& types) {
  std::string text;
  for (const auto& [key, type] : types) {
    std::string pids;
    bool named = false;
    for (const auto& hit : hits)
      if (hit.first == key) {
        if (hit.second == 0)
          named = true;
        else
          pids += (pids.empty() ? " " : ", ") + std::to_string(hit.second);
      }
    text += (text.empty() ? "" : "; ") + key + "=" + std::string(to_string(type)) +
            (pids.empty() ? "" : " (pid" + pids + ")") + (named ? " (named by the source)" : "");
  }
  return text;
}

}  // namespace

DeclaredLookup lookup_declared_values(const std::string& key, std::span<const std::string> values,
                                      std::vector<std::string>& ignored) {
  std::map<std::string, WorkloadType> types;  // by "KEY=value" as written
  for (const std::string& v : values) {
    if (const auto type = parse_workload_type(v))
      types[key + "=" + v] = *type;
    else
      ignored.push_back(v);
  }
  if (types.empty()) return {};
  const WorkloadType type = types.begin()->second;
  if (std::all_of(types.begin(), types.end(), [type](const auto& kv) { return kv.second == type; }))
    return {Declaration{type, key}, {}};
  std::string conflict;
  for (const auto& kv : types) conflict += (conflict.empty() ? "" : "; ") + kv.first;
  return {std::nullopt, conflict};
}

bool DeclaredLabels::set(const std::string& key, WorkloadType type, std::string& why) {
  const Entry entry{key, type};
  const auto colon = key.find(':');
  const std::string kind = colon == std::string::npos ? "" : key.substr(0, colon);
  if (kind != "process" && kind != "container" && kind != "pod" && kind != "slurm") {
    // A GPU index, UUID (GPU-..., MIG-...) or HOST/INDEX (a host may be an address:port).
    if (colon != std::string::npos && key.find('/') == std::string::npos) {
      why = "'" + key + "': unknown key kind '" + kind +
            ":' (process:, container:, pod:, slurm:, or a GPU index, HOST/INDEX or UUID)";
      return false;
    }
    gpus_[key] = entry;
    return true;
  }
  std::string value = trim(key.substr(colon + 1));
  if (value.empty()) {
    why = "'" + key + "' names no " + kind;
    return false;
  }
  if (kind == "process") {
    names_[value.substr(0, kCommLength)] = entry;
  } else if (kind == "pod") {
    const auto slash = value.find('/');
    if (slash != std::string::npos &&
        (slash == 0 || slash + 1 == value.size() || value.find('/', slash + 1) != std::string::npos)) {
      why = "'" + key + "': a pod is NAME (in any namespace) or NAMESPACE/NAME";
      return false;
    }
    pods_[value] = entry;
  } else if (kind == "slurm") {
    if (!std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      why = "'" + key + "': a Slurm job is its numeric ID (an array task's own ID, as squeue -o %A shows it)";
      return false;
    }
    slurm_jobs_[value] = entry;
  } else {
    // As Kubernetes reports it (containerd://ID, docker://ID, cri-o://ID) or as docker does.
    if (const auto scheme = value.find("://"); scheme != std::string::npos) value.erase(0, scheme + 3);
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (value.size() < kMinContainerPrefix || value.size() > kContainerIdLength || !is_hex(value)) {
      why = "'" + key + "': a container ID is 12 to 64 hex digits (the full ID or a prefix)";
      return false;
    }
    containers_[value] = entry;
  }
  return true;
}

DeclaredLookup DeclaredLabels::lookup(const GpuIdentity& gpu, std::span<const ProcessIdentity> processes) const {
  auto found = [](const Entry& e) { return DeclaredLookup{Declaration{e.type, e.key}, {}}; };
  if (!gpu.uuid.empty())
    if (auto it = gpus_.find(gpu.uuid); it != gpus_.end()) return found(it->second);
  if (!gpu.host.empty())
    if (auto it = gpus_.find(gpu.label()); it != gpus_.end()) return found(it->second);
  if (auto it = gpus_.find(std::to_string(gpu.index)); it != gpus_.end()) return found(it->second);

  auto exact = [](const std::map<std::string, Entry>& keys, const std::string& value) -> const Entry* {
    const auto it = value.empty() ? keys.end() : keys.find(value);
    return it == keys.end() ? nullptr : &it->second;
  };
  // The longest key that is a prefix of the container's ID: the most specific one.
  auto container = [this](const std::string& id) -> const Entry* {
    const Entry* best = nullptr;
    std::size_t best_length = 0;
    for (const auto& kv : containers_)
      if (!id.empty() && id.starts_with(kv.first) && kv.first.size() > best_length) {
        best = &kv.second;
        best_length = kv.first.size();
      }
    return best;
  };
  // A pod by NAMESPACE/NAME, else by its name alone (a key that names no namespace).
  auto pod = [this, &exact](const std::string& name) -> const Entry* {
    if (const Entry* e = exact(pods_, name)) return e;
    const auto slash = name.find('/');
    return slash == std::string::npos ? nullptr : exact(pods_, name.substr(slash + 1));
  };
  // Pods, then Slurm jobs, then containers, then process names: the first level any process
  // matches decides.
  for (int level = 0; level < 4; ++level) {
    std::vector<std::pair<std::string, std::uint32_t>> hits;  // key, PID
    std::map<std::string, WorkloadType> types;                // by key
    for (const ProcessIdentity& p : processes) {
      const Entry* e = level == 0   ? pod(p.pod)
                       : level == 1 ? exact(slurm_jobs_, p.slurm_job)
                       : level == 2 ? container(p.container_id)
                                    : exact(names_, p.name);
      if (e == nullptr) continue;
      hits.emplace_back(e->key, p.pid);
      types[e->key] = e->type;
    }
    if (types.empty()) continue;
    const WorkloadType type = types.begin()->second;
    if (std::any_of(types.begin(), types.end(), [type](const auto& kv) { return kv.second != type; }))
      return {std::nullopt, describe_conflict(hits, types)};
    std::string keys;
    for (const auto& kv : types) keys += (keys.empty() ? "" : ", ") + kv.first;
    return {Declaration{type, keys}, {}};
  }
  return {};
}

DeclaredLabels parse_declared_flags(const std::vector<std::string>& items) {
  DeclaredLabels labels;
  for (const std::string& item : items) {
    if (std::string why; !parse_item(item, labels, why)) throw std::invalid_argument("--declared: " + why);
  }
  return labels;
}

DeclaredLabels parse_mapping(const std::string& text, const std::string& origin) {
  DeclaredLabels labels;
  if (trim(text).starts_with("{")) {
    std::string parse_error;
    const nlohmann::json j = parse_json(text, &parse_error);
    if (j.is_discarded()) throw InputError(origin + ": not valid JSON (" + parse_error + ")");
    for (const auto& [key, value] : j.items()) {
      const auto type = value.is_string() ? parse_workload_type(value.get<std::string>()) : std::nullopt;
      if (!type) throw InputError(origin + ": \"" + key + "\": " + value.dump() + " is not a workload type");
      if (std::string why; !labels.set(trim(key), *type, why)) throw InputError(origin + ": " + why);
    }
    return labels;
  }
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (std::string why; !parse_item(line, labels, why)) throw InputError(at(origin, n) + ": " + why);
  }
  return labels;
}

DeclaredLabels load_mapping_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the declared-label mapping file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_mapping(text.str(), path);
}

MappingFile::MappingFile(std::string path) : path_(std::move(path)) {
  stamp_ = file_stamp(path_);
  labels_ = load_mapping_file(path_);
}

std::optional<std::string> MappingFile::refresh() {
  const FileStamp now = file_stamp(path_);
  if (!now.exists()) {
    if (!stamp_.exists()) return std::nullopt;  // already warned
    stamp_ = now;
    return path_ + ": cannot be read any more; keeping the previous declared labels";
  }
  if (now == stamp_) return std::nullopt;
  stamp_ = now;
  try {
    labels_ = load_mapping_file(path_);
  } catch (const InputError& e) {
    return std::string(e.what()) + "; keeping the previous declared labels";
  }
  return std::nullopt;
}

}  // namespace wt::watch
