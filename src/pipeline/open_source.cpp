#include "pipeline/open_source.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <stdexcept>

#include "core/diagnostic.hpp"
#include "core/time_format.hpp"
#include "sim/gpu_models.hpp"
#include "sim/simulated_source.hpp"
#include "source/amd/amd_source.hpp"
#include "source/multi_source.hpp"
#include "source/nvml/nvml_source.hpp"
#include "source/poll_clock.hpp"
#include "source/prometheus/dcgm_exporter_source.hpp"
#include "source/prometheus/http_auth.hpp"
#include "source/prometheus/prometheus_source.hpp"
#include "source/replay/replay_source.hpp"
#include "source/synthetic_source.hpp"

namespace wt {
namespace {

AmdOptions amd_options(const SourceSpec& s) {
  AmdOptions o;
  o.samples = s.samples;
  o.interval_s = s.interval_s;
  o.gpu = s.gpu;
  o.kfd_root = s.sys_root + "/class/kfd/kfd";
  return o;
}

// Every vendor whose library and GPUs are present. On a mixed host the AMD GPUs are numbered
// after the NVIDIA ones, so a GPU index would be ambiguous there and is refused.
std::unique_ptr<TelemetrySource> open_auto(const SourceSpec& s) {
  std::unique_ptr<NvmlSource> nvidia;
  std::unique_ptr<AmdSource> amd;
  std::string nvidia_why, amd_why;
  try {
    nvidia = std::make_unique<NvmlSource>(NvmlOptions{s.samples, s.interval_s, s.gpu});
  } catch (const NoTelemetryError& e) {
    nvidia_why = e.what();
  }
  try {
    amd = std::make_unique<AmdSource>(amd_options(s));
  } catch (const NoTelemetryError& e) {
    amd_why = e.what();
  }
  if (nvidia && amd) {
    if (s.gpu)
      throw std::invalid_argument(
          "--gpu is ambiguous with --backend auto on a host with NVIDIA and AMD GPUs; use --backend nvml or amd");
    const int offset = static_cast<int>(nvidia->gpu_count());
    std::vector<MultiSource::Part> parts;
    parts.push_back({std::move(nvidia), 0});
    parts.push_back({std::move(amd), offset});
    return std::make_unique<MultiSource>(std::move(parts));
  }
  if (nvidia) return nvidia;
  if (amd) return amd;
  throw NoTelemetryError("no GPU telemetry from any vendor (NVIDIA: " + nvidia_why + " AMD: " + amd_why + ")");
}

// Following Prometheus without a range starts five minutes back: a first verdict at once, and a
// --match that finds nothing is said at start. Queries then come every 15 s, a common scrape
// interval, unless --interval says otherwise.
constexpr double kFollowStart_s = 300;
constexpr double kFollowEvery_s = 15;

std::unique_ptr<TelemetrySource> open_prometheus(const SourceSpec& s) {
  if (s.url.empty()) throw std::invalid_argument("--backend prometheus needs --url (the Prometheus server)");
  if (s.interval_given && !s.follow)
    throw std::invalid_argument("--interval has no effect with --backend prometheus, which reads the samples "
                                "Prometheus stored, at their own times (with --follow: the time between queries)");
  if (s.follow && !s.end.empty())
    throw std::invalid_argument("--follow reads on from now: it takes no --end");
  PrometheusOptions o;
  o.url = s.url;
  o.auth = s.auth_files;
  o.match = s.match;
  o.gpu = s.gpu;
  o.declared_label = s.declared_label;
  o.end_s = s.end.empty() ? PollClock::wall_clock_s() : parse_time_option("--end", s.end);
  if (s.last_s && !s.start.empty()) throw std::invalid_argument("--start and --last cannot be combined");
  if (s.last_s)
    o.start_s = o.end_s - *s.last_s;
  else if (!s.start.empty())
    o.start_s = parse_time_option("--start", s.start);
  else if (s.follow)
    o.start_s = o.end_s - kFollowStart_s;
  else
    throw std::invalid_argument("--backend prometheus needs --start or --last (the time range to read)");
  if (s.follow) {
    o.follow_every_s = s.interval_given ? s.interval_s : kFollowEvery_s;
    o.waiting = s.waiting;
  }
  return std::make_unique<PrometheusSource>(o);
}

// Several nodes' logs as one fleet: each file's GPUs are named after the file's name without its
// directory and extension (node7.csv: node7/0 ...), unless the file names their host itself.
std::unique_ptr<TelemetrySource> open_replays(const std::vector<std::string>& args, const ReplayOptions& options) {
  if (args.size() == 1 && parse_replay_file(args[0]).host.empty())
    return std::make_unique<ReplaySource>(args[0], options);
  std::map<std::string, std::string> by_host;
  std::vector<MultiSource::Part> parts;
  for (const std::string& arg : args) {
    auto [host, path] = parse_replay_file(arg);
    if (host.empty()) host = std::filesystem::path(path).stem().string();
    if (const auto [it, added] = by_host.emplace(host, arg); !added)
      throw std::invalid_argument(it->second + " and " + arg + " would both name their GPUs " + host +
                                  "/INDEX: give files whose names (without directory and extension) differ, or "
                                  "name each one's node (NODE=FILE)");
    // A pipe (`node7=<(ssh node7 nvidia-smi ...)`) is opened on its own thread: a node slow to
    // answer, or down, holds back no other. A file is opened here, so a missing one stops the run.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      auto open = [file = path, options](WaitingHook waiting) {  // clang 14 captures no structured binding
        ReplayOptions o = options;
        o.waiting = std::move(waiting);
        return std::unique_ptr<TelemetrySource>(std::make_unique<ReplaySource>(file, o));
      };
      parts.push_back({nullptr, 0, std::move(host), std::move(open), "replay:" + arg});
    } else {
      parts.push_back({std::make_unique<ReplaySource>(path, options), 0, std::move(host)});
    }
  }
  return std::make_unique<MultiSource>(std::move(parts), options.waiting);
}

}  // namespace

ReplayFile parse_replay_file(const std::string& arg) {
  const auto eq = arg.find('=');
  std::error_code ec;
  if (eq == 0 || eq == std::string::npos || arg.find('/') < eq || std::filesystem::exists(arg, ec)) return {"", arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

std::string resolved_backend(const SourceSpec& s) {
  if (!s.backend.empty()) return s.backend;
  return s.replay_files.empty() ? "nvml" : "replay";
}

std::unique_ptr<TelemetrySource> open_source(const SourceSpec& s) {
  const std::string b = resolved_backend(s);
  // Options another backend would silently ignore are refused.
  if (b != "prometheus" && (!s.match.empty() || !s.start.empty() || !s.end.empty() || s.last_s || s.follow))
    throw std::invalid_argument("--match, --start, --end, --last and --follow are for --backend prometheus, not " +
                                b);
  if (b != "dcgm" && b != "prometheus" && (!s.url.empty() || s.auth_files.any()))
    throw std::invalid_argument("--url and the credential options (--bearer-token-file, --basic-auth-file, "
                                "--ca-file, --cert-file, --key-file, --oauth2-*) are for --backend dcgm or "
                                "prometheus, not " + b);
  if (b != "dcgm" && b != "prometheus" && !s.declared_label.empty())
    throw std::invalid_argument("--declared-label reads a label of dcgm-exporter's series: it is for --backend dcgm "
                                "or prometheus, not " + b);
  if (b != "amd" && b != "auto" && s.sys_root != "/sys")
    throw std::invalid_argument("--sys-root is for --backend amd or auto (the AMD GPUs' processes), not " + b);
  if (b != "sim" && b != "replay" && !s.gpu_model.empty())
    throw std::invalid_argument("--gpu-model is for --backend sim or replay, not " + b);
  if (b == "replay") {
    if (s.replay_files.empty()) throw std::invalid_argument("--backend replay needs --replay FILE");
    const auto format = parse_trace_format(s.input_format);
    if (!format) throw std::invalid_argument("unknown trace format '" + s.input_format + "'");
    std::optional<double> snapshot_interval;
    if (s.interval_given) snapshot_interval = s.interval_s;
    std::string gpu_name;
    if (!s.gpu_model.empty()) {
      const sim::GpuModel* m = sim::find_gpu_model(s.gpu_model);
      if (m == nullptr)
        throw std::invalid_argument("unknown GPU model '" + s.gpu_model + "' (--list-scenarios lists the known ones)");
      gpu_name = m->name;
    }
    const ReplayOptions options{*format, s.columns, snapshot_interval, std::move(gpu_name), s.waiting};
    return open_replays(s.replay_files, options);
  }
  if (!s.replay_files.empty()) throw std::invalid_argument("--replay cannot be combined with --backend " + b);
  if (b == "synthetic") {
    const std::string p = s.profile.starts_with("legacy-") ? s.profile.substr(7) : s.profile;
    return std::make_unique<SyntheticSource>(SyntheticOptions{p, s.samples, s.interval_s, s.seed});
  }
  if (b == "sim") {
    const sim::ScenarioSpec* spec = sim::find_scenario(s.scenario);
    if (!spec) throw std::invalid_argument("unknown scenario '" + s.scenario + "' (see --list-scenarios)");
    sim::SimOptions o{*spec};
    o.scenario.gpu_model = s.gpu_model;
    o.interval_s = s.interval_s > 0 ? s.interval_s : 1.0;  // simulated time: never sleeps
    o.duration_s = s.duration_s ? *s.duration_s : static_cast<double>(s.samples) * o.interval_s;
    o.seed = s.seed;
    return sim::make_simulated_source(o);
  }
  if (b == "prometheus") return open_prometheus(s);
  if (s.interval_s <= 0) throw std::invalid_argument("--interval must be positive for live telemetry");
  if (b == "dcgm") {
    if (s.url.empty()) throw std::invalid_argument("--backend dcgm needs --url (dcgm-exporter's /metrics)");
    return std::make_unique<DcgmExporterSource>(DcgmExporterOptions{
        s.url, s.samples, s.interval_s, s.gpu, s.auth_files, s.declared_label});
  }
  if (b == "nvml") return std::make_unique<NvmlSource>(NvmlOptions{s.samples, s.interval_s, s.gpu});
  if (b == "amd") return std::make_unique<AmdSource>(amd_options(s));
  if (b == "auto") return open_auto(s);
  throw std::invalid_argument("unknown backend '" + b + "'");
}

}  // namespace wt
