// classify_workload: what each live GPU is doing (or a synthetic / simulated one), as
// `workloadtruth classify --json` prints it; optionally appended to the configured audit log.
#include <chrono>

#include "audit/audit_log.hpp"
#include "audit/verdict_entry.hpp"
#include "classify/classifier.hpp"
#include "mcp/job_argument.hpp"
#include "mcp/output_schemas.hpp"
#include "mcp/tools.hpp"
#include "output/classify_json.hpp"
#include "pipeline/classify_stream.hpp"
#include "pipeline/job_groups.hpp"
#include "pipeline/job_owners.hpp"
#include "pipeline/open_source.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

json input_schema() {
  return {
      {"type", "object"},
      {"properties",
       {{"backend",
         {{"type", "string"},
          {"enum", {"auto", "nvml", "amd", "dcgm", "prometheus", "synthetic", "sim"}},
          {"default", "auto"},
          {"description",
           "auto: every local NVIDIA and AMD GPU; nvml / amd: one vendor; dcgm: a dcgm-exporter's /metrics, polled "
           "(url); prometheus: the DCGM samples a Prometheus server kept for a time range (url, start or "
           "last_seconds, end, match); synthetic: the seed tool's Gaussian profiles; sim: the physical simulator"}}},
        {"url",
         {{"type", "string"},
          {"description",
           "dcgm: the exporter's metrics URL, e.g. http://node1:9400/metrics; prometheus: the server, e.g. "
           "http://prometheus:9090. Default: the server's --url; credentials (the server's --bearer-token-file, "
           "--basic-auth-file, --ca-file, --cert-file, --key-file, --oauth2-*) are sent to that URL only"}}},
        {"match",
         {{"type", "string"},
          {"description", "prometheus: label matchers the DCGM series must also match, e.g. Hostname=\"node1\""}}},
        {"start",
         {{"type", "string"},
          {"description", "prometheus: start of the range, UTC (2026-12-03T10:00:00Z) or Unix seconds"}}},
        {"end", {{"type", "string"}, {"description", "prometheus: end of the range, as start (default: now)"}}},
        {"last_seconds",
         {{"type", "number"},
          {"exclusiveMinimum", 0},
          {"description", "prometheus: instead of start, this many seconds before the end"}}},
        {"gpu_index",
         {{"type", "integer"},
          {"minimum", 0},
          {"description", "Only this GPU index (live backends and prometheus; on each node prometheus reads)"}}},
        {"samples",
         {{"type", "integer"}, {"minimum", 1}, {"maximum", 3600}, {"default", 30}, {"description", "Polls to take"}}},
        {"interval_seconds",
         {{"type", "number"},
          {"minimum", 0},
          {"maximum", 60},
          {"description",
           "Seconds between polls. Default 1 for live GPUs (a call lasts samples x interval); 0 for synthetic and "
           "sim, which then run in simulated time without sleeping"}}},
        {"profile",
         {{"type", "string"},
          {"enum", {"training", "inference", "idle"}},
          {"default", "training"},
          {"description", "synthetic backend: the workload to generate"}}},
        {"scenario",
         {{"type", "string"},
          {"default", "training/pretrain"},
          {"description", "sim backend: family/variant[/evasion], e.g. training/finetune/pid-target"}}},
        {"seed", {{"type", "integer"}, {"minimum", 0}, {"default", 42}, {"description", "synthetic and sim: seed"}}},
        {"classifier",
         {{"type", "string"},
          {"enum", {"xgboost", "rules"}},
          {"default", "xgboost"},
          {"description", "xgboost: the trained classifier; rules: the seed tool's rules, for parity"}}},
        {"write_to_audit_log",
         {{"type", "boolean"},
          {"default", false},
          {"description",
           "Append one verdict per GPU to the audit log the server was started with (workloadtruth mcp "
           "--audit-log FILE); an error when it was started without one"}}},
        {"jobs", jobs_argument_schema()},
        {"job_by",
         {{"type", "string"},
          {"enum", {"pod", "slurm", "container"}},
          {"description",
           "Instead of jobs, on live GPUs: GPUs whose processes (as last listed) all belong to one Kubernetes pod, "
           "Slurm job or container are one job, named pod:[NAMESPACE/]NAME, slurm:ID or container:ID (read from "
           "the host's /proc; pods need the server to run as root)"}}}}},
      {"additionalProperties", false}};
}

json run(const ToolConfig& config, ClassifierCache& classifiers, const json& a) {
  SourceSpec spec;
  spec.backend = a.value("backend", "auto");
  const bool simulated = spec.backend == "synthetic" || spec.backend == "sim";
  spec.samples = a.value("samples", std::size_t{30});
  spec.interval_s = a.value("interval_seconds", simulated ? 0.0 : 1.0);
  spec.profile = a.value("profile", "training");
  spec.scenario = a.value("scenario", "training/pretrain");
  spec.seed = a.value("seed", std::uint64_t{42});
  if (a.contains("gpu_index")) spec.gpu = a["gpu_index"].get<int>();
  spec.url = a.value("url", "");
  spec.match = a.value("match", "");
  spec.start = a.value("start", "");
  spec.end = a.value("end", "");
  if (a.contains("last_seconds")) spec.last_s = a["last_seconds"].get<double>();
  const bool http = spec.backend == "dcgm" || spec.backend == "prometheus";
  if (http && spec.url.empty()) spec.url = config.http_url;
  if (http && !config.http_url.empty() && spec.url == config.http_url) {
    spec.auth_files = config.auth_files;
  }
  const bool write = a.value("write_to_audit_log", false);
  // Checked before any polling, so a misconfigured call fails at once.
  if (write && config.audit_log.empty())
    throw ToolError(
        "write_to_audit_log: this server has no audit log; start it with `workloadtruth mcp --audit-log FILE`");

  const std::vector<JobSpec> jobs = jobs_argument(a);
  if (!jobs.empty() && spec.backend == "synthetic")
    throw ToolError("jobs: the synthetic backend has one GPU, nothing to group (use sim)");
  if (!jobs.empty() && a.contains("job_by")) throw ToolError("jobs and job_by cannot be combined");
  if (spec.backend == "amd" || spec.backend == "auto") spec.sys_root = config.sys_root;

  const Classifier& classifier = classifiers.get(a.value("classifier", "xgboost"));
  const auto source = open_source(spec);
  ClassifyResult result = classify_stream(*source, classifier, WindowSpec{});
  if (result.gpus.empty()) throw NoTelemetryError(result.source + ": no samples");
  if (a.contains("job_by"))
    group_jobs_by_owner(result, watch::parse_job_owner(a["job_by"].get<std::string>()),
                        watch::ProcessResolver(config.proc_root));
  else
    group_jobs(result, jobs);
  // A synthetic run keeps the seed tool's single-verdict object, as `classify --json` does.
  json out = spec.backend == "synthetic" ? seed_verdict_json(result.gpus.front()) : classify_result_json(result);

  if (write) {
    audit::AuditLogOptions options;
    options.signing_key = config.sign_key;
    audit::AuditLog log(config.audit_log, options);
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    for (const GpuReport& g : result.gpus) log.append(audit::verdict_entry(g.gpu, g.verdict, g.first_s, g.last_s, now));
    log.close();
    out["audit_log"] = {{"path", config.audit_log}, {"entries_written", result.gpus.size()}, {"head", log.head()}};
  }
  return out;
}

}  // namespace

Tool classify_workload_tool(std::shared_ptr<const ToolConfig> config, std::shared_ptr<ClassifierCache> classifiers) {
  return {"classify_workload",
          "Classify live GPUs",
          "Polls the local GPUs (NVIDIA through NVML, AMD through ROCm SMI) or a dcgm-exporter, reads a time range "
          "of DCGM samples back from Prometheus, or runs a synthetic or simulated source, and tells what each GPU is "
          "doing: TRAINING, INFERENCE, IDLE, HPC, MINING, GRAPHICS or UNKNOWN, with a "
          "confidence, the reasons, and a timeline of 30 s windows. A verdict is a signal to investigate, not proof.",
          input_schema(),
          {{"type", "object"},
           {"oneOf", {with_audit_log(classify_result_schema()), with_audit_log(seed_verdict_schema())}}},
          {{"readOnlyHint", false}, {"destructiveHint", false}, {"idempotentHint", false}, {"openWorldHint", true}},
          [config, classifiers](const json& a) { return run(*config, *classifiers, a); }};
}

}  // namespace wt::mcp
