// What each GPU's owner declared it runs: from --declared and from a mapping file, re-read when
// it changes. Keys name a GPU (index, HOST/INDEX or UUID) or what runs on it (process:NAME, container:ID,
// pod:NAME, slurm:JOBID). Format and precedence: docs/watch.md ("Declared labels").
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classify/verdict.hpp"
#include "core/file_stamp.hpp"
#include "core/sample.hpp"
#include "watch/process_identity.hpp"

namespace wt::watch {

struct Declaration {
  WorkloadType type;
  std::string key;  // the key that matched, as written: "0", "GPU-5f3c...", "process:python"
  friend bool operator==(const Declaration&, const Declaration&) = default;
};

struct DeclaredLookup {
  std::optional<Declaration> declaration;
  // Set when the GPU's processes are declared differently at the deciding level; the GPU then
  // has no declaration. Names each key, its type and the PIDs it matched.
  std::string conflict;
};

class DeclaredLabels {
 public:
  // Checks the key's form; false (with `why` set) when it is malformed.
  bool set(const std::string& key, WorkloadType type, std::string& why);
  // Precedence: GPU UUID > HOST/INDEX > GPU index (on every host) > pod > Slurm job > container >
  // process. At the first of the process levels any of `processes` matches, they must agree, or
  // the answer is a conflict.
  DeclaredLookup lookup(const GpuIdentity& gpu, std::span<const ProcessIdentity> processes = {}) const;
  bool empty() const { return gpus_.empty() && !has_process_keys(); }
  // Whether any key names a process, container, pod or Slurm job (so the GPU's processes need
  // resolving).
  bool has_process_keys() const {
    return !pods_.empty() || !slurm_jobs_.empty() || !containers_.empty() || !names_.empty();
  }
  friend bool operator==(const DeclaredLabels&, const DeclaredLabels&) = default;

 private:
  struct Entry {
    std::string key;  // as written
    WorkloadType type;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  // By GPU index, HOST/INDEX or UUID; pod name; Slurm job ID; container ID prefix (lower case); process
  // name (15 chars).
  std::map<std::string, Entry> gpus_, pods_, slurm_jobs_, containers_, names_;
};

// The declaration that what runs on a GPU makes of itself, keyed `key`: "label:NAME" for a label
// on its series (`watch --declared-label NAME`), "env:NAME" for a variable in its processes'
// environment (`--declared-env NAME`); `values` as they were read. Every value must name the same
// workload type, or the answer is a conflict (pods or processes sharing the GPU that say
// different things). Values that name no type are left out and listed in `ignored`.
DeclaredLookup lookup_declared_values(const std::string& key, std::span<const std::string> values,
                                      std::vector<std::string>& ignored);

// "KEY=type" items of --declared; throws std::invalid_argument (a usage error).
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
  std::string path_;
  FileStamp stamp_;
  DeclaredLabels labels_;
};

}  // namespace wt::watch
