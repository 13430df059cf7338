#include "watch/declared_labels.hpp"

#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/diagnostic.hpp"

namespace wt::watch {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Parses "KEY=type"; nullopt with `why` set when malformed.
std::optional<std::pair<std::string, WorkloadType>> parse_item(const std::string& item, std::string& why) {
  const auto eq = item.find('=');
  if (eq == std::string::npos) {
    why = "'" + item + "' is not KEY=type";
    return std::nullopt;
  }
  const std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
  if (key.empty()) {
    why = "'" + item + "' has no GPU index or UUID before '='";
    return std::nullopt;
  }
  const auto type = parse_workload_type(value);
  if (!type) {
    why = "'" + value + "' is not a workload type (training, inference, idle, hpc, mining, graphics, unknown)";
    return std::nullopt;
  }
  return std::pair{key, *type};
}

}  // namespace

std::optional<WorkloadType> DeclaredLabels::lookup(const GpuIdentity& gpu) const {
  if (!gpu.uuid.empty())
    if (auto it = by_key_.find(gpu.uuid); it != by_key_.end()) return it->second;
  if (auto it = by_key_.find(std::to_string(gpu.index)); it != by_key_.end()) return it->second;
  return std::nullopt;
}

DeclaredLabels parse_declared_flags(const std::vector<std::string>& items) {
  DeclaredLabels labels;
  for (const std::string& item : items) {
    std::string why;
    const auto kv = parse_item(item, why);
    if (!kv) throw std::invalid_argument("--declared: " + why);
    labels.set(kv->first, kv->second);
  }
  return labels;
}

DeclaredLabels parse_mapping(const std::string& text, const std::string& origin) {
  DeclaredLabels labels;
  if (trim(text).starts_with("{")) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(origin + ": not valid JSON (" + e.what() + ")");
    }
    for (const auto& [key, value] : j.items()) {
      const auto type = value.is_string() ? parse_workload_type(value.get<std::string>()) : std::nullopt;
      if (!type) throw InputError(origin + ": \"" + key + "\": " + value.dump() + " is not a workload type");
      labels.set(key, *type);
    }
    return labels;
  }
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::string why;
    const auto kv = parse_item(line, why);
    if (!kv) throw InputError(at(origin, n) + ": " + why);
    labels.set(kv->first, kv->second);
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
  stamp_ = stamp().value_or(Stamp{});
  labels_ = load_mapping_file(path_);
}

std::optional<MappingFile::Stamp> MappingFile::stamp() const {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return std::nullopt;
  return Stamp{st.st_mtim, static_cast<long long>(st.st_size)};
}

std::optional<std::string> MappingFile::refresh() {
  const auto now = stamp();
  if (!now) {
    if (stamp_.size < 0) return std::nullopt;  // already warned
    stamp_ = Stamp{};
    return path_ + ": cannot be read any more; keeping the previous declared labels";
  }
  if (*now == stamp_) return std::nullopt;
  stamp_ = *now;
  try {
    labels_ = load_mapping_file(path_);
  } catch (const InputError& e) {
    return std::string(e.what()) + "; keeping the previous declared labels";
  }
  return std::nullopt;
}

}  // namespace wt::watch
