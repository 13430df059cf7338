// GPUs grouped into jobs by the operator (`classify --job train=0-7`), each job given one verdict
// from the windows of all its GPUs: a multi-GPU job can show on some GPUs and not others.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pipeline/classify_stream.hpp"

namespace wt {

struct JobSpec {
  std::string name;
  bool all = false;          // every GPU of the source
  std::vector<JobGpu> gpus;  // else these, ascending, no repeats
};

// "NAME=all" or "NAME=0,2,4-7" (NAME: letters, digits, '.', '_', '-'; indices 0..4095); an item
// may name a host first, "train=node1/0-7,node2/0-7", where a source reads several: an index
// without one is that index on every host. Throws std::invalid_argument saying what is wrong.
JobSpec parse_job_spec(const std::string& text);

// Whether the job takes this GPU.
bool job_has(const JobSpec& job, const GpuIdentity& gpu);

// "0-3,node1/0,node1/2": a job's GPUs as people write them (ascending, runs of indices joined).
std::string job_gpu_list(const std::vector<JobGpu>& gpus);

// Names must differ, and no GPU may be in two jobs ("all" then stands alone; an index without
// a host overlaps that index on any host). Throws std::invalid_argument.
void check_job_specs(const std::vector<JobSpec>& jobs);

// One diagnostic ("job NAME", "GPU N is not in the source") for each GPU a job names that is
// not among `present` (the source's GPUs, in any order).
Diagnostics missing_job_gpus(const std::vector<JobSpec>& jobs, const std::vector<JobGpu>& present);

// Jobs made from who runs on each GPU (`classify --job-by`): the GPUs `owner` names alike form
// the job of that name; a GPU it names "" is in none. Jobs in the order of their first GPU.
std::vector<JobSpec> jobs_by_owner(const ClassifyResult& result,
                                   const std::function<std::string(const GpuReport&)>& owner);

// Fills result.jobs. A GPU a job names that the source does not have is an error diagnostic
// (the job's verdict then rests on the GPUs found); a job with none of its GPUs gets no verdict row.
void group_jobs(ClassifyResult& result, const std::vector<JobSpec>& jobs);

}  // namespace wt
