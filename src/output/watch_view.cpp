#include "output/watch_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "core/time_format.hpp"
#include "output/watch_json.hpp"

namespace wt {
namespace {

std::string fixed(double x, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string gpu_label(const watch::GpuWatch& g) { return "GPU " + g.gpu.label(); }

// "INFERENCE pod:llm-serve" (the type and the key behind it), "CONFLICT", or "-".
std::string declared_cell(const watch::GpuWatch& g) {
  if (!g.declared_conflict.empty()) return "CONFLICT";
  if (!g.declared) return "-";
  return (std::string(to_string(*g.declared)) + " " + g.declared_by).substr(0, 25);
}

}  // namespace

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::max(0.0, std::floor(seconds)));
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%llds", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  return buf;
}

std::string sparkline(const watch::Recent& values, double full) {
  static constexpr std::array<const char*, 8> kBlocks{"\u2581", "\u2582", "\u2583", "\u2584",
                                                      "\u2585", "\u2586", "\u2587", "\u2588"};
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (std::isnan(v) || !(full > 0)) {
      out += ' ';
      continue;
    }
    const double level = std::clamp(v / full, 0.0, 1.0) * static_cast<double>(kBlocks.size() - 1);
    out += kBlocks[static_cast<std::size_t>(std::lround(level))];
  }
  return out;
}

void JsonLinesView::on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool, double) {
  out_ << watch_window_json(gpu, window, verdict).dump() << '\n' << std::flush;
}

void JsonLinesView::on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) {
  out_ << mismatch_json(gpu, event, now_s).dump() << '\n' << std::flush;
}

void PlainLinesView::on_window(const watch::GpuWatch& g, const Window& window, const Verdict&, bool job_changed,
                               double) {
  if (!job_changed) return;
  out_ << format_iso_time(window.end_s) << "  " << gpu_label(g)
       << (g.job_group.empty() ? "" : "  job " + g.job_group) << "  " << to_string(g.job.type()) << "  conf "
       << fixed(g.job.confidence(), 2) << "  since " << format_iso_time(g.job.since_s());
  if (g.declared) out_ << "  declared " << to_string(*g.declared) << " (" << g.declared_by << ")";
  if (!g.declared_conflict.empty()) out_ << "  declarations conflict: " << g.declared_conflict;
  out_ << '\n' << std::flush;
}

void PlainLinesView::on_mismatch(const watch::GpuWatch& g, const watch::MismatchEvent& e, double) {
  out_ << format_iso_time(e.at_s) << "  " << gpu_label(g) << "  ";
  if (e.kind == watch::MismatchEvent::Kind::Raised)
    out_ << "MISMATCH declared " << to_string(e.declared) << " (" << e.declared_by << "), observed "
         << to_string(e.observed) << (e.job_group.empty() ? "" : " by job " + e.job_group) << " (conf "
         << fixed(e.confidence, 2) << ") for "
         << format_duration(e.at_s - e.since_s) << " since " << format_iso_time(e.since_s);
  else
    out_ << "mismatch cleared (declared " << to_string(e.declared) << ")";
  out_ << '\n' << std::flush;
}

void LiveView::draw(const std::vector<watch::GpuWatch>& gpus, const std::string& status) {
  std::string frame;
  if (lines_drawn_ > 0) frame += "\x1b[" + std::to_string(lines_drawn_) + "A\r";  // back to the table's top
  auto line = [&frame](const std::string& text) { frame += text + "\x1b[K\n"; };
  std::size_t gpu_w = 4;
  for (const watch::GpuWatch& g : gpus) gpu_w = std::max(gpu_w, g.gpu.label().size() + 1);
  line(pad("GPU", gpu_w) + pad("NAME", 24) + pad("VERDICT", 10) + pad("CONF", 6) + pad("HELD", 8) +
       pad("UTIL", watch::Recent::kSize + 2) + pad("POWER", watch::Recent::kSize + 2) + pad("DECLARED", 26) +
       "MISMATCH");
  for (const watch::GpuWatch& g : gpus) {
    const bool known = g.job.known();
    // A GPU in a named job shows it first: its verdict is the job's.
    std::string name = ((g.job_group.empty() ? "" : "[" + g.job_group + "] ") + g.gpu.name).substr(0, 23);
    // Power relative to the enforced limit; without one, to the highest recent reading.
    double power_full = g.power_limit_w.value_or(0);
    if (!(power_full > 0))
      for (std::size_t i = 0; i < g.power.size(); ++i)
        if (!std::isnan(g.power[i])) power_full = std::max(power_full, g.power[i]);
    const std::string util = sparkline(g.util, 100), power = sparkline(g.power, power_full);
    std::string mismatch = "-";
    if (g.mismatch.alerting())
      mismatch = "YES " + format_duration(g.mismatch.run_s());
    else if (g.mismatch.run_s() > 0)
      mismatch = "pending " + format_duration(g.mismatch.run_s());
    line(pad(g.gpu.label(), gpu_w) + pad(name, 24) +
         pad(known ? std::string(to_string(g.job.type())) : "...", 10) +
         pad(known ? fixed(g.job.confidence(), 2) : "", 6) +
         pad(known ? format_duration(g.last_sample_s - g.job.since_s()) : "", 8) + util +
         std::string(watch::Recent::kSize + 2 - g.util.size(), ' ') + power +
         std::string(watch::Recent::kSize + 2 - g.power.size(), ' ') + pad(declared_cell(g), 26) + mismatch);
  }
  line(status);
  lines_drawn_ = gpus.size() + 2;
  out_ << frame << std::flush;
}

}  // namespace wt
