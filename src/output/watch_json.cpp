#include "output/watch_json.hpp"

#include <cmath>

#include "core/time_format.hpp"

namespace wt {
namespace {
double round4(double x) { return std::round(x * 10000.0) / 10000.0; }
double round3(double x) { return std::round(x * 1000.0) / 1000.0; }
nlohmann::json declared_json(const watch::GpuWatch& g) {
  return g.declared ? nlohmann::json(to_string(*g.declared)) : nlohmann::json(nullptr);
}
nlohmann::json text_or_null(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }
// The GPU's node, where the source names it.
nlohmann::json with_host(const GpuIdentity& gpu, nlohmann::json j) {
  if (!gpu.host.empty()) j["host"] = gpu.host;
  return j;
}
}  // namespace

nlohmann::json watch_window_json(const watch::GpuWatch& g, const Window& w, const Verdict& v) {
  return with_host(g.gpu, {
      {"type", "window"},
      {"gpu_index", g.gpu.index},
      {"uuid", g.gpu.uuid},
      {"name", g.gpu.name},
      {"window_start", format_iso_time(w.start_s)},
      {"window_end", format_iso_time(w.end_s)},
      {"partial", w.partial},
      {"workload_type", to_string(v.type)},
      {"confidence", round4(v.confidence)},
      {"job_type", to_string(g.job.type())},
      {"job_confidence", round4(g.job.confidence())},
      {"job_since", format_iso_time(g.job.since_s())},
      {"held_s", round3(w.end_s - g.job.since_s())},
      {"job_group", text_or_null(g.job_group)},
      {"declared", declared_json(g)},
      {"declared_by", text_or_null(g.declared_by)},
      {"declared_conflict", text_or_null(g.declared_conflict)},
      {"mismatch", g.mismatch.alerting()},
  });
}

nlohmann::json mismatch_json(const watch::GpuWatch& g, const watch::MismatchEvent& e, double logged_at_s) {
  return with_host(g.gpu, {
      {"type", "mismatch"},
      {"state", e.kind == watch::MismatchEvent::Kind::Raised ? "raised" : "cleared"},
      {"timestamp", format_iso_time(logged_at_s) + "Z"},
      {"gpu_index", g.gpu.index},
      {"uuid", g.gpu.uuid},
      {"name", g.gpu.name},
      {"declared", to_string(e.declared)},
      {"declared_by", text_or_null(e.declared_by)},
      {"observed", to_string(e.observed)},
      {"job_group", text_or_null(e.job_group)},
      {"confidence", round4(e.confidence)},
      {"since", format_iso_time(e.since_s)},
      {"at", format_iso_time(e.at_s)},
      {"duration_s", round3(e.at_s - e.since_s)},
  });
}

}  // namespace wt
