#include "watch/declaration_sources.hpp"

#include <algorithm>
#include <vector>

namespace wt::watch {

DeclarationSources::DeclarationSources(DeclaredLabels flags, const MappingFile* mapping, std::string label_name,
                                       const ProcessResolver& resolver, Warn warn)
    : flags_(std::move(flags)),
      mapping_(mapping),
      label_name_(std::move(label_name)),
      resolver_(resolver),
      warn_(std::move(warn)) {}

DeclaredLookup DeclarationSources::self_declared(const GpuOccupancy& on, std::span<const ProcessIdentity> processes,
                                                 std::vector<std::string>& ignored, std::string& ignored_key) const {
  if (!label_name_.empty() && !on.declared.empty()) {
    ignored_key = "label:" + label_name_;
    return lookup_declared_values(ignored_key, on.declared, ignored);
  }
  if (resolver_.declared_env().empty()) return {};
  std::vector<std::string> values;
  for (const ProcessIdentity& p : processes)
    if (!p.declared.empty()) values.push_back(p.declared);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  ignored_key = "env:" + resolver_.declared_env();
  return lookup_declared_values(ignored_key, values, ignored);
}

DeclaredLookup DeclarationSources::lookup(const GpuIdentity& gpu, const GpuOccupancy& on) {
  // Processes are named (from /proc) only while some key or the declaration variable needs it.
  const bool by_process = flags_.has_process_keys() || (mapping_ && mapping_->labels().has_process_keys()) ||
                          !resolver_.declared_env().empty();
  const std::vector<ProcessIdentity> processes =
      resolver_.resolve(by_process ? on.pids : std::span<const std::uint32_t>{}, on.pods);
  DeclaredLookup d = flags_.lookup(gpu, processes);
  if (!d.declaration && d.conflict.empty() && mapping_) d = mapping_->labels().lookup(gpu, processes);
  std::vector<std::string> ignored;
  std::string ignored_key;
  if (!d.declaration && d.conflict.empty()) d = self_declared(on, processes, ignored, ignored_key);

  if (std::string& said = conflict_said_[gpu.key()]; d.conflict != said) {
    if (!d.conflict.empty()) warn_("GPU " + gpu.label() + ": declarations conflict, so none applies: " + d.conflict);
    said = d.conflict;
  }
  std::string values;
  for (const std::string& v : ignored) values += (values.empty() ? "'" : ", '") + v + "'";
  if (std::string& said = ignored_said_[gpu.key()]; values != said) {
    if (!values.empty())
      warn_("GPU " + gpu.label() + ": " + ignored_key + " says " + values + ", not a workload type (" +
            workload_type_names() + "); ignored");
    said = values;
  }
  return d;
}

}  // namespace wt::watch
