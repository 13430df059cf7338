#include "output/classify_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/time_format.hpp"
#include "pipeline/job_groups.hpp"

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

// The jobs the operator named: the pooled verdict, then how its GPUs read on their own.
void print_jobs(std::ostream& out, const std::vector<JobReport>& jobs) {
  std::size_t name_w = 3, gpus_w = 4;
  for (const JobReport& j : jobs) {
    name_w = std::max(name_w, j.name.size());
    gpus_w = std::max(gpus_w, job_gpu_list(j.gpus).size());
  }
  out << pad("JOB", name_w + 2) << pad("GPUS", gpus_w + 2) << pad("VERDICT", 11) << pad("CONF", 6) << "WHY\n";
  for (const JobReport& j : jobs) {
    char conf[16];
    std::snprintf(conf, sizeof conf, "%.2f", j.verdict.confidence);
    std::string alone;
    for (std::size_t k = 0; k < kWorkloadTypeCount; ++k)
      if (j.gpu_verdicts[k] > 0)
        alone += (alone.empty() ? "" : ", ") + std::string(to_string(static_cast<WorkloadType>(k))) + " " +
                 std::to_string(j.gpu_verdicts[k]);
    out << pad(j.name, name_w + 2) << pad(job_gpu_list(j.gpus), gpus_w + 2)
        << pad(std::string(to_string(j.verdict.type)), 11) << pad(conf, 6)
        << (j.verdict.reasons.empty() ? "" : j.verdict.reasons.front()) << '\n'
        << pad("", name_w + 2) << "its GPUs on their own: " << alone << '\n';
  }
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
  std::snprintf(buf, sizeof buf, "%s  (classifier: %s, %g s windows every %g s)\n", r.source.c_str(),
                r.classifier.c_str(), r.requested_window.length_s, r.requested_window.stride_s);
  out << buf;
  std::size_t gpu_w = 3, name_w = 4;
  for (const auto& g : r.gpus) {
    gpu_w = std::max(gpu_w, g.gpu.label().size());
    name_w = std::max(name_w, g.gpu.name.size());
  }
  out << pad("GPU", gpu_w + 2) << pad("NAME", name_w + 2) << pad("VERDICT", 11) << pad("CONF", 6) << "WHY\n";
  for (const auto& g : r.gpus) {
    std::snprintf(buf, sizeof buf, "%.2f", g.verdict.confidence);
    const std::string why = g.verdict.reasons.empty() ? "" : g.verdict.reasons.front();
    out << pad(g.gpu.label(), gpu_w + 2) << pad(g.gpu.name.empty() ? "?" : g.gpu.name, name_w + 2)
        << pad(std::string(to_string(g.verdict.type)), 11) << pad(buf, 6) << why << '\n';
    if (!g.windows.empty()) {
      std::snprintf(buf, sizeof buf, "  %s .. %s, %zu samples", format_iso_time(g.first_s).c_str(),
                    format_iso_time(g.last_s).c_str(), g.sample_count);
      out << pad("", gpu_w + 2) << "|" << timeline(g.windows) << "|" << buf << '\n';
    }
    if (g.window_widened) {
      std::snprintf(buf, sizeof buf, "windows widened to %.0f s: samples are too sparse for the requested length",
                    g.window.length_s);
      out << pad("", gpu_w + 2) << buf << '\n';
    }
    if (verbose)
      for (std::size_t i = 1; i < g.verdict.reasons.size(); ++i)
        out << pad("", gpu_w + 2) << "- " << g.verdict.reasons[i] << '\n';
  }
  if (!r.jobs.empty()) print_jobs(out, r.jobs);
  out << "Timeline: T training, I inference, . idle, ? unknown (one mark per window or group of windows).\n"
         "A verdict is a signal to investigate, not proof.\n";
}

void print_diagnostics(std::ostream& err, const Diagnostics& d) {
  for (const auto& x : d) err << (x.is_error ? "error: " : "note: ") << x.text() << '\n';
}

}  // namespace wt
