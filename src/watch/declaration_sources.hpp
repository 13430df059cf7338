// A GPU's declaration from every place one can come from, in order of authority: --declared, the
// mapping file (--declared-file, re-read by its owner), then what the workload says of itself: a
// label on the GPU's series (--declared-label) or a variable in its processes' environment
// (--declared-env). The operator's word wins over the workload's. docs/watch.md, "Declared
// labels".
#pragma once

#include <functional>
#include <map>
#include <string>

#include "watch/declared_labels.hpp"
#include "watch/process_identity.hpp"

namespace wt::watch {

class DeclarationSources {
 public:
  using Warn = std::function<void(const std::string&)>;
  // `mapping` may be null (no file); `label_name` "" when no label is read; the environment
  // variable, if any, is the resolver's. Each GPU's conflict, and the values it declares itself
  // by that name no workload type, are said through `warn` when they change.
  DeclarationSources(DeclaredLabels flags, const MappingFile* mapping, std::string label_name,
                     const ProcessResolver& resolver, Warn warn);

  DeclaredLookup lookup(const GpuIdentity& gpu, const GpuOccupancy& on);

 private:
  // The workload's own word: its series' label, else its processes' variable.
  DeclaredLookup self_declared(const GpuOccupancy& on, std::span<const ProcessIdentity> processes,
                               std::vector<std::string>& ignored, std::string& ignored_key) const;

  DeclaredLabels flags_;
  const MappingFile* mapping_;
  std::string label_name_;
  const ProcessResolver& resolver_;
  Warn warn_;
  std::map<std::string, std::string> conflict_said_, ignored_said_;  // by GPU key: the last said
};

}  // namespace wt::watch
