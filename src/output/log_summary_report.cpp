#include "output/log_summary_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/time_format.hpp"

namespace wt {
namespace {

using nlohmann::json;

// Hours and kWh to 6 decimals: a few milliseconds, a few milliwatt-hours.
double round6(double v) { return std::round(v * 1e6) / 1e6; }

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string padded(std::string s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

json log_summary_json(const audit::LogSummary& s) {
  json classes = json::array();
  for (const audit::ClassTotals& c : s.classes)
    classes.push_back({{"class", to_string(c.type)},
                       {"gpus", c.gpus},
                       {"windows", c.windows},
                       {"timed_windows", c.timed_windows},
                       {"gpu_hours", round6(c.gpu_hours)},
                       {"sure_gpu_hours", round6(c.sure_gpu_hours)},
                       {"energy_kwh", round6(c.energy_kwh)},
                       {"energy_gpu_hours", round6(c.energy_gpu_hours)}});
  json mismatches = json::array();
  for (const audit::MismatchTotals& m : s.mismatches)
    mismatches.push_back(
        {{"declared", to_string(m.declared)}, {"observed", to_string(m.observed)}, {"alerts", m.alerts}, {"gpus", m.gpus}});
  const auto or_null = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
  const auto time_or_null = [](const std::optional<double>& t) { return t ? json(format_iso_time(*t)) : json(nullptr); };
  return {{"min_gpus", s.options.min_gpus},
          {"from", time_or_null(s.options.from_s)},
          {"to", time_or_null(s.options.to_s)},
          {"gpus", s.gpus},
          {"verdicts", s.verdicts},
          {"first_window_start", or_null(s.first_window_start)},
          {"last_window_end", or_null(s.last_window_end)},
          {"classes", classes},
          {"classes_withheld", s.classes_withheld},
          {"mismatch_alerts", mismatches},
          {"mismatch_kinds_withheld", s.mismatch_kinds_withheld}};
}

std::string log_summary_text(const audit::LogSummary& s) {
  std::string out = "Aggregate of " + plural(s.verdicts, "verdict", "verdicts") + " on " + plural(s.gpus, "GPU", "GPUs");
  if (s.options.from_s || s.options.to_s)
    out += ", in the period " + (s.options.from_s ? format_iso_time(*s.options.from_s) : std::string("(start)")) +
           " .. " + (s.options.to_s ? format_iso_time(*s.options.to_s) : std::string("(end)"));
  if (!s.first_window_start.empty()) out += ", telemetry " + s.first_window_start + " .. " + s.last_window_end;
  out += "\n(a figure is shown only if it covers at least " + plural(s.options.min_gpus, "GPU", "GPUs") +
         "; no GPU, process or pod is named)\n\n";
  if (s.verdicts == 0) {
    out += "No verdicts" + std::string(s.options.from_s || s.options.to_s ? " in that period." : " in the log.") + "\n";
  } else if (s.classes.empty()) {
    out += "No class was seen on enough GPUs to be shown.\n";
  } else {
    // Energy over only part of a class's time is marked, since it undercounts.
    const auto partial_energy = [](const audit::ClassTotals& c) {
      return c.energy_gpu_hours > 0 && c.energy_gpu_hours < c.gpu_hours * 0.999;
    };
    out += "CLASS      GPUS   WINDOWS  GPU-HOURS  CONF>=0.9  ENERGY-kWh\n";
    for (const audit::ClassTotals& c : s.classes) {
      // Seed-format entries carry no window times: their windows are counted, their time is not.
      const std::string hours = c.timed_windows > 0 ? fixed(c.gpu_hours, 2) : "-";
      const std::string sure = c.gpu_hours > 0 ? fixed(100.0 * c.sure_gpu_hours / c.gpu_hours, 0) + "%" : "-";
      std::string energy = c.energy_gpu_hours > 0 ? fixed(c.energy_kwh, 2) : "-";
      if (partial_energy(c)) energy += "*";
      out += padded(std::string(to_string(c.type)), 9, false) + padded(std::to_string(c.gpus), 6, true) +
             padded(std::to_string(c.windows), 10, true) + padded(hours, 11, true) +
             padded(sure, 11, true) + padded(energy, 12, true) + "\n";
    }
    if (std::any_of(s.classes.begin(), s.classes.end(), partial_energy))
      out += "* over the part of that time whose telemetry recorded power\n";
  }
  if (s.classes_withheld > 0)
    out += plural(s.classes_withheld, "class", "classes") + " seen on fewer GPUs withheld.\n";
  out += "\nMismatch alerts raised (declared -> observed):";
  if (s.mismatches.empty() && s.mismatch_kinds_withheld == 0) out += " none\n";
  else out += "\n";
  for (const audit::MismatchTotals& m : s.mismatches)
    out += "  " + padded(std::string(to_string(m.declared)) + " -> " + std::string(to_string(m.observed)), 24, false) +
           plural(m.alerts, "alert", "alerts") + " on " + plural(m.gpus, "GPU", "GPUs") + "\n";
  if (s.mismatch_kinds_withheld > 0)
    out += "  " + plural(s.mismatch_kinds_withheld, "kind", "kinds") + " raised on fewer GPUs withheld.\n";
  out += "\nGPU-hours are telemetry time covered by windows of each class; energy is mean power times that\n"
         "time, a proxy for compute. A verdict is a signal to investigate, not proof.\n";
  return out;
}

}  // namespace wt
