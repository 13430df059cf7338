#include "classify/verdict.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace wt {
namespace {
constexpr std::array<std::pair<WorkloadType, std::string_view>, kWorkloadTypeCount> kNames{{
    {WorkloadType::Training, "TRAINING"},
    {WorkloadType::Inference, "INFERENCE"},
    {WorkloadType::Idle, "IDLE"},
    {WorkloadType::Hpc, "HPC"},
    {WorkloadType::Mining, "MINING"},
    {WorkloadType::Graphics, "GRAPHICS"},
    {WorkloadType::Unknown, "UNKNOWN"},
}};
}  // namespace

std::string_view to_string(WorkloadType t) {
  for (const auto& [type, name] : kNames)
    if (type == t) return name;
  return "UNKNOWN";
}

std::string workload_type_names() {
  std::string out;
  for (const auto& [type, name] : kNames) {
    if (!out.empty()) out += ", ";
    for (char c : name) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<WorkloadType> parse_workload_type(std::string_view text) {
  for (const auto& [type, name] : kNames) {
    if (name.size() != text.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < name.size() && same; ++i)
      same = std::toupper(static_cast<unsigned char>(text[i])) == name[i];
    if (same) return type;
  }
  return std::nullopt;
}

}  // namespace wt
