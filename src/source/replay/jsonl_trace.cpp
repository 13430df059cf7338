#include "source/replay/jsonl_trace.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_parse.hpp"
#include "core/time_format.hpp"

namespace wt {

using nlohmann::json;

JsonlTraceParser::JsonlTraceParser(std::string origin, Report report)
    : origin_(std::move(origin)), report_(std::move(report)) {}

void JsonlTraceParser::bad(std::size_t line_no, std::string message) {
  report_({at(origin_, line_no), std::move(message) + "; line skipped", true});
}

bool JsonlTraceParser::parse_line(std::string_view line, std::size_t line_no, Sample& out) {
  if (line.find_first_not_of(" \t") == std::string_view::npos) return false;
  std::string why;
  const json j = parse_json(line, &why);
  if (j.is_discarded()) {
    bad(line_no, "not valid JSON: " + why);
    return false;
  }
  if (!j.is_object()) {
    bad(line_no, "expected a JSON object");
    return false;
  }
  if (j.contains("format")) {
    const auto& f = j["format"];
    if (!f.is_string() || f.get<std::string>() != kJsonlFormatName)
      throw InputError(at(origin_, line_no) + ": not a " + std::string(kJsonlFormatName) + " file");
    const auto& v = j.value("version", json());
    if (!v.is_number_integer() || v.get<long long>() != kJsonlFormatVersion)
      throw InputError(at(origin_, line_no) + ": unsupported trace version (this build reads version " +
                       std::to_string(kJsonlFormatVersion) + ")");
    return false;
  }

  const auto time = j.find("time_s");
  if (time == j.end() || !time->is_number() || !std::isfinite(time->get<double>())) {
    bad(line_no, "missing or non-numeric \"time_s\"");
    return false;
  }
  out.time_s = time->get<double>();
  // The same span nvidia-smi timestamps can express (years 1970-9999): beyond it a 15 s stride
  // falls below the precision of a double and windows could not advance.
  if (out.time_s < 0 || out.time_s > kMaxTraceTimeS) {
    bad(line_no, "\"time_s\" is outside 1970..9999");
    return false;
  }

  GpuIdentity id;
  if (const auto g = j.find("gpu"); g != j.end()) {
    if (!g->is_object()) {
      bad(line_no, "\"gpu\" must be an object");
      return false;
    }
    const auto index = g->value("index", json(0));
    if (!index.is_number_integer() || index.get<long long>() < 0 || index.get<long long>() > 100000) {
      bad(line_no, "\"gpu.index\" must be a small non-negative integer");
      return false;
    }
    id.index = index.get<int>();
    for (auto [key, field] : {std::pair{"uuid", &id.uuid}, {"name", &id.name}, {"pci_bus_id", &id.pci_bus_id},
                              {"host", &id.host}}) {
      const auto v = g->value(key, json(""));
      if (!v.is_string()) {
        bad(line_no, std::string("\"gpu.") + key + "\" must be a string");
        return false;
      }
      *field = v.get<std::string>();
    }
  }

  out.values = {};
  for (auto it = j.begin(); it != j.end(); ++it) {  // (clang 14 cannot capture structured bindings)
    const std::string& key = it.key();
    const json& value = it.value();
    if (key == "time_s" || key == "gpu") continue;
    const auto sig = std::find_if(kSignals.begin(), kSignals.end(), [&](const SignalInfo& s) { return s.key == key; });
    if (sig == kSignals.end()) {
      if (std::find(unknown_keys_.begin(), unknown_keys_.end(), key) == unknown_keys_.end() && unknown_keys_.size() < 64) {
        unknown_keys_.push_back(key);
        report_({at(origin_, line_no), "ignoring unknown field \"" + key.substr(0, 64) + "\"", false});
      }
      continue;
    }
    if (value.is_null()) continue;  // recorded as not available
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      bad(line_no, "\"" + key + "\" must be a number or null");
      return false;
    }
    const double v = value.get<double>();
    if (v < sig->min || v > sig->max) {
      bad(line_no, "\"" + key + "\" = " + value.dump() + " is outside the plausible range");
      return false;
    }
    out.values.set(sig->signal, v);
  }

  auto known = std::find_if(gpus_.begin(), gpus_.end(), [&](const KnownGpu& k) { return k.identity.key() == id.key(); });
  if (known == gpus_.end()) {
    if (gpus_.size() >= 4096) {
      bad(line_no, "more than 4096 distinct GPUs in one file");
      return false;
    }
    gpus_.push_back({id, std::make_shared<GpuIdentity>(id), -INFINITY});
    known = std::prev(gpus_.end());
  }
  if (out.time_s < known->last_time_s) {
    bad(line_no, "GPU " + id.label() + " timestamp goes back in time (" +
                     format_nvidia_smi_time(out.time_s) + " after " + format_nvidia_smi_time(known->last_time_s) + ")");
    return false;
  }
  known->last_time_s = out.time_s;
  out.gpu = known->ref;
  return true;
}

std::string jsonl_header() {
  return json{{"format", kJsonlFormatName}, {"version", kJsonlFormatVersion}}.dump();
}

std::string to_jsonl(const Sample& s) {
  json j;
  j["time_s"] = s.time_s;
  json gpu{{"index", s.gpu ? s.gpu->index : 0}};
  if (s.gpu) {
    if (!s.gpu->uuid.empty()) gpu["uuid"] = s.gpu->uuid;
    if (!s.gpu->name.empty()) gpu["name"] = s.gpu->name;
    if (!s.gpu->pci_bus_id.empty()) gpu["pci_bus_id"] = s.gpu->pci_bus_id;
    if (!s.gpu->host.empty()) gpu["host"] = s.gpu->host;
  }
  j["gpu"] = std::move(gpu);
  for (const SignalInfo& si : kSignals)
    if (s.values.has(si.signal)) j[std::string(si.key)] = s.values.value(si.signal);
  return j.dump();
}

}  // namespace wt
