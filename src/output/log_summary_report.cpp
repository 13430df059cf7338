#include "output/log_summary_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/calendar_period.hpp"
#include "core/time_format.hpp"
#include "output/audit_report.hpp"

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

json classes_json(const std::vector<audit::ClassTotals>& classes) {
  json out = json::array();
  for (const audit::ClassTotals& c : classes)
    out.push_back({{"class", to_string(c.type)},
                   {"gpus", c.gpus},
                   {"windows", c.windows},
                   {"timed_windows", c.timed_windows},
                   {"gpu_hours", round6(c.gpu_hours)},
                   {"sure_gpu_hours", round6(c.sure_gpu_hours)},
                   {"energy_kwh", round6(c.energy_kwh)},
                   {"energy_gpu_hours", round6(c.energy_gpu_hours)}});
  return out;
}

json mismatches_json(const std::vector<audit::MismatchTotals>& mismatches) {
  json out = json::array();
  for (const audit::MismatchTotals& m : mismatches)
    out.push_back(
        {{"declared", to_string(m.declared)}, {"observed", to_string(m.observed)}, {"alerts", m.alerts}, {"gpus", m.gpus}});
  return out;
}

// Energy over only part of a class's time is marked, since it undercounts.
bool partial_energy(const audit::ClassTotals& c) { return c.energy_gpu_hours > 0 && c.energy_gpu_hours < c.gpu_hours * 0.999; }
bool any_partial_energy(const std::vector<audit::ClassTotals>& classes) {
  return std::any_of(classes.begin(), classes.end(), partial_energy);
}
const char* const kPartialEnergyNote = "* over the part of that time whose telemetry recorded power\n";

std::string class_rows(const std::vector<audit::ClassTotals>& classes, const std::string& indent) {
  std::string out;
  for (const audit::ClassTotals& c : classes) {
    // Seed-format entries carry no window times: their windows are counted, their time is not.
    const std::string hours = c.timed_windows > 0 ? fixed(c.gpu_hours, 2) : "-";
    const std::string sure = c.gpu_hours > 0 ? fixed(100.0 * c.sure_gpu_hours / c.gpu_hours, 0) + "%" : "-";
    std::string energy = c.energy_gpu_hours > 0 ? fixed(c.energy_kwh, 2) : "-";
    if (partial_energy(c)) energy += "*";
    out += indent + padded(std::string(to_string(c.type)), 9, false) + padded(std::to_string(c.gpus), 6, true) +
           padded(std::to_string(c.windows), 10, true) + padded(hours, 11, true) + padded(sure, 11, true) +
           padded(energy, 12, true) + "\n";
  }
  return out;
}

// `why`: what made the withheld kinds withheld, as the report can say it.
std::string mismatch_rows(const audit::Aggregate& a, const std::string& indent, const std::string& why) {
  std::string out;
  for (const audit::MismatchTotals& m : a.mismatches)
    out += indent + padded(std::string(to_string(m.declared)) + " -> " + std::string(to_string(m.observed)), 24, false) +
           plural(m.alerts, "alert", "alerts") + " on " + plural(m.gpus, "GPU", "GPUs") + "\n";
  if (a.mismatch_kinds_withheld > 0)
    out += indent + plural(a.mismatch_kinds_withheld, "kind", "kinds") + why + " withheld.\n";
  return out;
}

const char* const kClassHeader = "CLASS      GPUS   WINDOWS  GPU-HOURS  CONF>=0.9  ENERGY-kWh\n";

// One calendar period: its classes under the header's columns, its withheld parts, its alerts.
std::string period_text(const audit::PeriodAggregate& p, CalendarUnit unit) {
  std::string out = period_label(p.start_s, unit) + ": " + plural(p.gpus, "GPU", "GPUs") + "\n";
  out += class_rows(p.classes, "  ");
  if (p.gpus > 0 && p.classes.empty()) out += "  no class that can be shown\n";
  if (p.classes_withheld > 0) out += "  " + plural(p.classes_withheld, "class", "classes") + " withheld\n";
  if (!p.mismatches.empty() || p.mismatch_kinds_withheld > 0) {
    out += "  mismatch alerts raised:\n";
    out += mismatch_rows(p, "    ", "");
  }
  return out;
}

}  // namespace

json verified_logs_json(const std::vector<std::string>& paths, const audit::VerifiedLogs& v) {
  json logs = json::array();
  for (std::size_t i = 0; i < v.checks.size(); ++i)
    logs.push_back({{"log", paths[i]}, {"verification", verify_result_json(v.checks[i])}});
  return {{"logs", std::move(logs)}, {"report", v.summary ? log_summary_json(*v.summary) : json(nullptr)}};
}

json log_summary_json(const audit::LogSummary& s) {
  const auto or_null = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
  const auto time_or_null = [](const std::optional<double>& t) { return t ? json(format_iso_time(*t)) : json(nullptr); };
  json out = {{"min_gpus", s.options.min_gpus},
              {"from", time_or_null(s.options.from_s)},
              {"to", time_or_null(s.options.to_s)},
              {"gpus", s.gpus},
              {"first_window_start", or_null(s.first_window_start)},
              {"last_window_end", or_null(s.last_window_end)},
              {"classes", classes_json(s.classes)},
              {"classes_withheld", s.classes_withheld},
              {"mismatch_alerts", mismatches_json(s.mismatches)},
              {"mismatch_kinds_withheld", s.mismatch_kinds_withheld}};
  if (s.options.by) {
    json periods = json::array();
    for (const audit::PeriodAggregate& p : s.periods)
      periods.push_back({{"period", period_label(p.start_s, *s.options.by)},
                         {"start", format_iso_time(p.start_s)},
                         {"end", format_iso_time(p.end_s)},
                         {"gpus", p.gpus},
                         {"classes", classes_json(p.classes)},
                         {"classes_withheld", p.classes_withheld},
                         {"mismatch_alerts", mismatches_json(p.mismatches)},
                         {"mismatch_kinds_withheld", p.mismatch_kinds_withheld}});
    out["by"] = to_string(*s.options.by);
    out["periods"] = std::move(periods);
  }
  return out;
}

std::string log_summary_text(const audit::LogSummary& s, std::size_t logs) {
  std::string out = "Aggregate of the verdicts on " + plural(s.gpus, "GPU", "GPUs");
  if (logs > 1) out += " from " + std::to_string(logs) + " logs";
  if (s.options.from_s || s.options.to_s)
    out += ", in the period " + (s.options.from_s ? format_iso_time(*s.options.from_s) : std::string("(start)")) +
           " .. " + (s.options.to_s ? format_iso_time(*s.options.to_s) : std::string("(end)"));
  if (!s.first_window_start.empty()) out += ", telemetry " + s.first_window_start + " .. " + s.last_window_end;
  out += "\n(a figure is shown only if it covers at least " + plural(s.options.min_gpus, "GPU", "GPUs") +
         "; no GPU, process or pod is named)\n\n";
  if (s.gpus == 0) {
    out += "No verdicts" + std::string(s.options.from_s || s.options.to_s ? " in that period." : " in the log.") + "\n";
  } else if (s.classes.empty()) {
    out += "No class was seen on enough GPUs to be shown.\n";
  } else {
    out += kClassHeader + class_rows(s.classes, "");
    if (any_partial_energy(s.classes)) out += kPartialEnergyNote;
  }
  if (s.classes_withheld > 0)
    out += plural(s.classes_withheld, "class", "classes") + " seen on fewer GPUs withheld.\n";
  out += "\nMismatch alerts raised (declared -> observed):";
  if (s.mismatches.empty() && s.mismatch_kinds_withheld == 0) out += " none\n";
  else out += "\n";
  out += mismatch_rows(s, "  ", " raised on fewer GPUs");
  if (s.options.by) {
    const std::string unit = to_string(*s.options.by);
    out += "\nBy " + unit + " (UTC on the log's clock" +
           std::string(*s.options.by == CalendarUnit::Week ? ", from Monday" : "") + "; a window on two " + unit +
           "s is split between them; the same floor,\nand a figure is also withheld where the whole less the " + unit +
           "s shown would give a withheld one away):\n";
    out += std::string("  ") + kClassHeader;
    for (const audit::PeriodAggregate& p : s.periods) out += period_text(p, *s.options.by);
    if (s.periods.empty()) out += "  no verdict with window times\n";
    if (std::any_of(s.periods.begin(), s.periods.end(),
                    [](const audit::PeriodAggregate& p) { return any_partial_energy(p.classes); }))
      out += kPartialEnergyNote;
  }
  out += "\nGPU-hours are telemetry time covered by windows of each class; energy is mean power times that\n"
         "time, a proxy for compute. A verdict is a signal to investigate, not proof.\n";
  return out;
}

}  // namespace wt
