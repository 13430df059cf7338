// What each GPU's owner declared it runs: from --declared (GPU index = type) and from a mapping
// file keyed by GPU index or UUID, re-read when it changes. Format: docs/watch.md.
#pragma once

#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "classify/verdict.hpp"
#include "core/sample.hpp"

namespace wt::watch {

class DeclaredLabels {
 public:
  // Keys: a GPU index ("0") or a UUID. A UUID match wins over an index match.
  void set(const std::string& key, WorkloadType type) { by_key_[key] = type; }
  std::optional<WorkloadType> lookup(const GpuIdentity& gpu) const;
  bool empty() const { return by_key_.empty(); }
  friend bool operator==(const DeclaredLabels&, const DeclaredLabels&) = default;

 private:
  std::map<std::string, WorkloadType> by_key_;
};

// "0=inference" items of --declared; throws std::invalid_argument (a usage error).
DeclaredLabels parse_declared_flags(const std::vector<std::string>& items);

// A mapping file: a JSON object {"KEY": "type", ...}, or lines "KEY=type" ('#' comments, blank
// lines). Throws InputError naming the file and line.
DeclaredLabels parse_mapping(const std::string& text, const std::string& origin);
DeclaredLabels load_mapping_file(const std::string& path);

// Re-reads a mapping file when its modification time or size changes.
class MappingFile {
 public:
  // Reads it now; throws InputError when it is missing or malformed.
  explicit MappingFile(std::string path);
  // Re-reads it if it changed. A file that turned bad keeps the previous mapping and returns
  // a warning; nullopt when nothing went wrong.
  std::optional<std::string> refresh();
  const DeclaredLabels& labels() const { return labels_; }

 private:
  struct Stamp {
    std::timespec mtime{};
    long long size = -1;
    bool operator==(const Stamp& o) const {
      return mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec && size == o.size;
    }
  };
  std::optional<Stamp> stamp() const;

  std::string path_;
  Stamp stamp_;
  DeclaredLabels labels_;
};

}  // namespace wt::watch
