#include "source/amd/kfd_processes.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>

namespace wt {

namespace {

namespace fs = std::filesystem;

// A whole decimal number, as sysfs prints it (a trailing newline or none); nullopt otherwise.
std::optional<unsigned long long> parse_number(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  unsigned long long x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

// A sysfs file's text; "" when it cannot be read (a process gone since its directory was listed).
std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

std::optional<unsigned long long> read_number(const fs::path& path) { return parse_number(read_text(path)); }

// Calls `f` with each entry of a directory. One missing or vanishing as it is read (a process
// that exits) ends the walk quietly: what was seen stands.
template <class F>
void for_each_entry(const fs::path& dir, F&& f) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) f(*it);
}

// KFD's id of each GPU node -> its PCI address. nullopt when there is no topology to read.
std::optional<std::map<unsigned long long, std::string>> gpu_addresses(const fs::path& root) {
  const fs::path nodes = root / "topology" / "nodes";
  std::error_code ec;
  if (!fs::is_directory(nodes, ec)) return std::nullopt;
  std::map<unsigned long long, std::string> out;
  for_each_entry(nodes, [&](const fs::directory_entry& node) {
    const auto id = read_number(node.path() / "gpu_id");
    if (!id || *id == 0) return;  // a CPU node, or unreadable
    std::optional<unsigned long long> location, domain;
    std::istringstream properties(read_text(node.path() / "properties"));
    for (std::string name, value; properties >> name >> value;) {
      if (name == "location_id") location = parse_number(value);
      if (name == "domain") domain = parse_number(value);  // older kernels have none: domain 0
    }
    if (location) out[*id] = kfd_pci_address(*location, domain.value_or(0));
  });
  return out;
}

// The KFD ids of the GPUs one process is on: a queue there, or VRAM held there.
std::set<unsigned long long> gpus_of(const fs::path& process) {
  std::set<unsigned long long> ids;
  for_each_entry(process, [&](const fs::directory_entry& e) {
    const std::string name = e.path().filename().string();
    if (!name.starts_with("vram_")) return;
    const auto id = parse_number(std::string_view(name).substr(5));
    const auto bytes = read_number(e.path());
    if (id && bytes && *bytes > 0) ids.insert(*id);
  });
  for_each_entry(process / "queues", [&](const fs::directory_entry& q) {
    if (const auto id = read_number(q.path() / "gpuid")) ids.insert(*id);
  });
  return ids;
}

}  // namespace

std::string kfd_pci_address(unsigned long long location_id, unsigned long long domain) {
  char text[48];
  std::snprintf(text, sizeof text, "%04llx:%02llx:%02llx.%llx", domain & 0xffff, (location_id >> 8) & 0xff,
                (location_id >> 3) & 0x1f, location_id & 0x7);
  return text;
}

std::optional<std::map<std::string, ProcessIds>> list_kfd_processes(const std::string& root) {
  const auto addresses = gpu_addresses(root);
  if (!addresses) return std::nullopt;
  std::map<std::string, ProcessIds> out;
  for_each_entry(fs::path(root) / "proc", [&](const fs::directory_entry& process) {
    const auto pid = parse_number(process.path().filename().string());
    if (!pid || *pid == 0 || *pid > 0xffffffffULL) return;
    for (const unsigned long long id : gpus_of(process.path()))
      if (const auto a = addresses->find(id); a != addresses->end())
        out[a->second].push_back(static_cast<std::uint32_t>(*pid));
  });
  for (auto& [address, pids] : out) std::sort(pids.begin(), pids.end());
  return out;
}

}  // namespace wt
