#include "pipeline/job_groups.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <stdexcept>
#include <string_view>

namespace wt {
namespace {

constexpr int kMaxGpuIndex = 4095;

int gpu_index(const std::string& spec, std::string_view text) {
  int v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0 || v > kMaxGpuIndex)
    throw std::invalid_argument("job " + spec + ": '" + std::string(text) + "' is not a GPU index (0.." +
                                std::to_string(kMaxGpuIndex) + ")");
  return v;
}

std::string label(const JobGpu& g) { return GpuIdentity::host_index_label(g.host, g.index); }

// Whether a GPU named by a job spec (host "" = any) and a GPU of the source are the same.
bool names(const JobGpu& spec, const JobGpu& gpu) {
  return spec.index == gpu.index && (spec.host.empty() || spec.host == gpu.host);
}

}  // namespace

JobSpec parse_job_spec(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("job " + text + ": give NAME=GPUS, e.g. train=0-7 or train=all");
  JobSpec job;
  job.name = text.substr(0, eq);
  if (!std::all_of(job.name.begin(), job.name.end(),
                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }))
    throw std::invalid_argument("job " + text + ": a job name is letters, digits, '.', '_' and '-'");
  const std::string list = text.substr(eq + 1);
  if (list == "all") {
    job.all = true;
    return job;
  }
  std::set<JobGpu> gpus;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    std::string_view item = std::string_view(list).substr(pos, comma - pos);
    // A host ends at the last '/': hosts hold '-' and '.' (and instance addresses ':').
    std::string host;
    if (const std::size_t slash = item.rfind('/'); slash != std::string_view::npos) {
      host = item.substr(0, slash);
      if (host.empty())
        throw std::invalid_argument("job " + text + ": '" + std::string(item) + "' names no host before '/'");
      item.remove_prefix(slash + 1);
    }
    const std::size_t dash = item.find('-');
    const int from = gpu_index(text, item.substr(0, dash));
    const int to = dash == std::string_view::npos ? from : gpu_index(text, item.substr(dash + 1));
    if (to < from) throw std::invalid_argument("job " + text + ": range " + std::string(item) + " runs backwards");
    for (int g = from; g <= to; ++g)
      if (!gpus.insert({host, g}).second)
        throw std::invalid_argument("job " + text + ": GPU " + label({host, g}) + " named twice");
    pos = comma + 1;
  }
  job.gpus.assign(gpus.begin(), gpus.end());
  return job;
}

bool job_has(const JobSpec& job, const GpuIdentity& gpu) {
  return job.all || std::any_of(job.gpus.begin(), job.gpus.end(),
                                [&gpu](const JobGpu& g) { return names(g, JobGpu::of(gpu)); });
}

std::string job_gpu_list(const std::vector<JobGpu>& gpus) {
  std::string out;
  for (std::size_t i = 0; i < gpus.size();) {
    std::size_t j = i;
    while (j + 1 < gpus.size() && gpus[j + 1].host == gpus[i].host && gpus[j + 1].index == gpus[j].index + 1) ++j;
    out += (out.empty() ? "" : ",") + label(gpus[i]);
    if (j > i) out += "-" + std::to_string(gpus[j].index);
    i = j + 1;
  }
  return out;
}

void check_job_specs(const std::vector<JobSpec>& jobs) {
  std::set<std::string> names_seen;
  std::vector<JobGpu> taken;
  for (const JobSpec& j : jobs) {
    if (!names_seen.insert(j.name).second) throw std::invalid_argument("jobs: the name " + j.name + " is given twice");
    if (j.all && jobs.size() > 1)
      throw std::invalid_argument("job " + j.name + "=all takes every GPU: it cannot share them with another job");
    for (const JobGpu& g : j.gpus) {
      for (const JobGpu& t : taken)
        if (names(g, t) || names(t, g))
          throw std::invalid_argument("jobs: GPU " + label(g.host.empty() ? t : g) +
                                      " is in two jobs (a GPU runs one job here)");
      taken.push_back(g);
    }
  }
}

Diagnostics missing_job_gpus(const std::vector<JobSpec>& jobs, const std::vector<JobGpu>& present) {
  Diagnostics out;
  for (const JobSpec& spec : jobs)
    for (const JobGpu& g : spec.gpus)
      if (std::none_of(present.begin(), present.end(), [&g](const JobGpu& p) { return names(g, p); }))
        out.push_back({"job " + spec.name, "GPU " + label(g) + " is not in the source"});
  return out;
}

std::vector<JobSpec> jobs_by_owner(const ClassifyResult& result,
                                   const std::function<std::string(const GpuReport&)>& owner) {
  std::vector<JobSpec> jobs;
  for (const GpuReport& g : result.gpus) {
    const std::string name = owner(g);
    if (name.empty()) continue;
    auto job = std::find_if(jobs.begin(), jobs.end(), [&name](const JobSpec& j) { return j.name == name; });
    if (job == jobs.end()) job = jobs.insert(jobs.end(), JobSpec{name, false, {}});
    job->gpus.push_back(JobGpu::of(g.gpu));  // result.gpus is in order: each list stays ascending
  }
  return jobs;
}

void group_jobs(ClassifyResult& result, const std::vector<JobSpec>& jobs) {
  for (const JobSpec& spec : jobs) {
    JobReport job;
    job.name = spec.name;
    std::vector<const std::vector<WindowVerdict>*> windows;
    for (const GpuReport& g : result.gpus) {
      if (!job_has(spec, g.gpu)) continue;
      job.gpus.push_back(JobGpu::of(g.gpu));
      windows.push_back(&g.windows);
      ++job.gpu_verdicts[static_cast<std::size_t>(g.verdict.type)];
    }
    if (job.gpus.empty()) continue;
    job.verdict = summarize_job(windows);
    result.jobs.push_back(std::move(job));
  }
  std::vector<JobGpu> present;
  for (const GpuReport& g : result.gpus) present.push_back(JobGpu::of(g.gpu));
  for (Diagnostic& d : missing_job_gpus(jobs, present)) result.diagnostics.push_back(std::move(d));
}

}  // namespace wt
