#include "output/classify_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/time_format.hpp"

namespace wt {
namespace {

char mark(WorkloadType t) {
  switch (t) {
    case WorkloadType::Training: return 'T';
    case WorkloadType::Inference: return 'I';
    case WorkloadType::Idle: return '.';
    case WorkloadType::Hpc: return 'H';
    case WorkloadType::Mining: return 'M';
    case WorkloadType::Graphics: return 'G';
    case WorkloadType::Unknown: return '?';
  }
  return '?';
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string timeline(const std::vector<WindowVerdict>& windows, std::size_t width) {
  std::string line;
  if (windows.empty() || width == 0) return line;
  const std::size_t groups = std::min(width, windows.size());
  for (std::size_t g = 0; g < groups; ++g) {
    // Each mark shows the most frequent class of its group of windows.
    const std::size_t from = g * windows.size() / groups, to = (g + 1) * windows.size() / groups;
    std::array<std::size_t, 7> count{};
    for (std::size_t i = from; i < to; ++i) ++count[static_cast<std::size_t>(windows[i].type)];
    const auto best = std::max_element(count.begin(), count.end()) - count.begin();
    line += mark(static_cast<WorkloadType>(best));
  }
  return line;
}

void print_classify_text(std::ostream& out, const ClassifyResult& r, bool verbose) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s  (classifier: %s, %.0f s windows every %.0f s)\n", r.source.c_str(),
                r.classifier.c_str(), r.requested_window.length_s, r.requested_window.stride_s);
  out << buf;
  std::size_t name_w = 4;
  for (const auto& g : r.gpus) name_w = std::max(name_w, g.gpu.name.size());
  out << pad("GPU", 5) << pad("NAME", name_w + 2) << pad("VERDICT", 11) << pad("CONF", 6) << "WHY\n";
  for (const auto& g : r.gpus) {
    std::snprintf(buf, sizeof buf, "%.2f", g.verdict.confidence);
    const std::string why = g.verdict.reasons.empty() ? "" : g.verdict.reasons.front();
    out << pad(std::to_string(g.gpu.index), 5) << pad(g.gpu.name.empty() ? "?" : g.gpu.name, name_w + 2)
        << pad(std::string(to_string(g.verdict.type)), 11) << pad(buf, 6) << why << '\n';
    if (!g.windows.empty()) {
      std::snprintf(buf, sizeof buf, "  %s .. %s, %zu samples", format_iso_time(g.first_s).c_str(),
                    format_iso_time(g.last_s).c_str(), g.sample_count);
      out << pad("", 5) << "|" << timeline(g.windows) << "|" << buf << '\n';
    }
    if (g.window_widened) {
      std::snprintf(buf, sizeof buf, "windows widened to %.0f s: samples are too sparse for the requested length",
                    g.window.length_s);
      out << pad("", 5) << buf << '\n';
    }
    if (verbose)
      for (std::size_t i = 1; i < g.verdict.reasons.size(); ++i) out << pad("", 5) << "- " << g.verdict.reasons[i] << '\n';
  }
  out << "Timeline: T training, I inference, . idle, ? unknown (one mark per window or group of windows).\n"
         "A verdict is a signal to investigate, not proof.\n";
}

void print_diagnostics(std::ostream& err, const Diagnostics& d) {
  for (const auto& x : d) err << (x.is_error ? "error: " : "note: ") << x.text() << '\n';
}

}  // namespace wt
