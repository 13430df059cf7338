// Jobs named by the operator (src/pipeline/job_groups.cpp, summarize_job in
// src/classify/gpu_summary.cpp): the spec's grammar and its refusals, and one verdict from the
// windows of all a job's GPUs.
#include "pipeline/job_groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace wt {
namespace {

std::vector<WindowVerdict> windows(WorkloadType type, std::size_t n, double confidence = 0.95) {
  std::vector<WindowVerdict> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].start_s = 15.0 * static_cast<double>(i);
    out[i].end_s = out[i].start_s + 30;
    out[i].type = type;
    out[i].confidence = confidence;
    out[i].training_score = type == WorkloadType::Training ? confidence : 0.05;
  }
  return out;
}

GpuReport gpu(int index, WorkloadType type, std::size_t n, const std::string& host = "") {
  GpuReport g;
  g.gpu.index = index;
  g.gpu.host = host;
  g.windows = windows(type, n);
  g.verdict.type = type;
  return g;
}

// GPUs of a spec without hosts: those indices on every host.
std::vector<JobGpu> indices(std::initializer_list<int> list) {
  std::vector<JobGpu> out;
  for (int i : list) out.push_back({"", i});
  return out;
}

TEST(JobSpec, ReadsNamesListsRangesAndAll) {
  const JobSpec a = parse_job_spec("train=0,2,4-6");
  EXPECT_EQ(a.name, "train");
  EXPECT_FALSE(a.all);
  EXPECT_EQ(a.gpus, indices({0, 2, 4, 5, 6}));
  EXPECT_EQ(parse_job_spec("job-7.b=5-5").gpus, indices({5}));
  const JobSpec all = parse_job_spec("node=all");
  EXPECT_TRUE(all.all);
  EXPECT_TRUE(all.gpus.empty());
}

TEST(JobSpec, RefusesWhatItCannotRead) {
  for (const char* bad : {"train", "=0", "train=", "train=a", "train=0,,1", "train=-1", "train=3-1", "train=0-99999",
                          "train=0,0", "tr ain=0", "train=1-", "train=0x1"})
    EXPECT_THROW(parse_job_spec(bad), std::invalid_argument) << bad;
}

TEST(JobSpec, AnyTextParsesOrIsRefusedWithAReason) {
  // An agent's jobs argument is untrusted: random specs over the grammar's characters either
  // parse into sorted, distinct, in-range indices or throw invalid_argument, nothing else.
  std::mt19937 rng(7);
  const std::string alphabet = "ab=0123456789,-all 4095 99999//";
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    const std::size_t n = rng() % 16;
    for (std::size_t k = 0; k < n; ++k) text += alphabet[rng() % alphabet.size()];
    try {
      const JobSpec j = parse_job_spec(text);
      EXPECT_FALSE(j.name.empty()) << text;
      EXPECT_TRUE(std::is_sorted(j.gpus.begin(), j.gpus.end())) << text;
      EXPECT_TRUE(std::adjacent_find(j.gpus.begin(), j.gpus.end()) == j.gpus.end()) << text;
      for (const JobGpu& g : j.gpus) EXPECT_TRUE(g.index >= 0 && g.index <= 4095) << text;
      EXPECT_EQ(j.all, j.gpus.empty()) << text;  // "all", or at least one index
    } catch (const std::invalid_argument&) {
    }
  }
}

TEST(JobSpec, AGpuRunsOneJob) {
  EXPECT_NO_THROW(check_job_specs({parse_job_spec("a=0-3"), parse_job_spec("b=4-7")}));
  EXPECT_THROW(check_job_specs({parse_job_spec("a=0-3"), parse_job_spec("b=3-7")}), std::invalid_argument);
  EXPECT_THROW(check_job_specs({parse_job_spec("a=0"), parse_job_spec("a=1")}), std::invalid_argument);
  EXPECT_THROW(check_job_specs({parse_job_spec("a=all"), parse_job_spec("b=1")}), std::invalid_argument);
}

TEST(JobSpec, NamesHostsWhereTheSourceReadsSeveral) {
  const JobSpec j = parse_job_spec("train=node-2/0-1,10.0.0.7:9400/3,5");
  EXPECT_EQ(j.gpus, (std::vector<JobGpu>{{"", 5}, {"10.0.0.7:9400", 3}, {"node-2", 0}, {"node-2", 1}}));
  EXPECT_EQ(job_gpu_list(j.gpus), "5,10.0.0.7:9400/3,node-2/0-1");
  GpuIdentity g;
  g.index = 1;
  g.host = "node-2";
  EXPECT_TRUE(job_has(j, g));
  g.host = "node-3";
  EXPECT_FALSE(job_has(j, g));
  g.index = 5;  // an index without a host: that index on every host
  EXPECT_TRUE(job_has(j, g));
  for (const char* bad : {"train=/0", "train=n1/", "train=n1/0,n1/0", "train=n1/x"})
    EXPECT_THROW(parse_job_spec(bad), std::invalid_argument) << bad;
  // An index without a host overlaps that index on any host.
  EXPECT_NO_THROW(check_job_specs({parse_job_spec("a=n1/0"), parse_job_spec("b=n2/0")}));
  EXPECT_THROW(check_job_specs({parse_job_spec("a=n1/0"), parse_job_spec("b=0")}), std::invalid_argument);
  EXPECT_THROW(check_job_specs({parse_job_spec("a=1"), parse_job_spec("b=n2/1")}), std::invalid_argument);
}

TEST(JobGroups, AJobAcrossHostsPoolsItsNodesGpus) {
  ClassifyResult r;
  for (const char* host : {"n1", "n2", "n3"})
    for (int i = 0; i < 2; ++i) r.gpus.push_back(gpu(i, WorkloadType::Training, 5, host));
  group_jobs(r, {parse_job_spec("train=n1/0-1,n2/0-1"), parse_job_spec("solo=n3/1,n4/0")});
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].gpus, (std::vector<JobGpu>{{"n1", 0}, {"n1", 1}, {"n2", 0}, {"n2", 1}}));
  EXPECT_EQ(r.jobs[1].gpus, (std::vector<JobGpu>{{"n3", 1}}));
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].text(), "job solo: GPU n4/0 is not in the source");
  // Made from owners, a job keeps each GPU's host.
  const auto jobs = jobs_by_owner(r, [](const GpuReport& g) { return g.gpu.index == 0 ? "pod:a" : ""; });
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].gpus, (std::vector<JobGpu>{{"n1", 0}, {"n2", 0}, {"n3", 0}}));
}

TEST(JobGroups, ARankThatReadsAsServingIsPartOfItsTrainingJob) {
  // Rank 0 checkpoints while the others wait: on its own it reads INFERENCE; its job trains.
  ClassifyResult r;
  r.gpus.push_back(gpu(0, WorkloadType::Inference, 20));
  for (int i = 1; i < 4; ++i) r.gpus.push_back(gpu(i, WorkloadType::Training, 20));
  r.gpus.push_back(gpu(4, WorkloadType::Hpc, 20));
  group_jobs(r, {parse_job_spec("train=0-3"), parse_job_spec("other=4")});
  ASSERT_EQ(r.jobs.size(), 2u);
  const JobReport& train = r.jobs[0];
  EXPECT_EQ(train.name, "train");
  EXPECT_EQ(train.gpus, indices({0, 1, 2, 3}));
  EXPECT_EQ(train.verdict.type, WorkloadType::Training);
  EXPECT_NEAR(train.verdict.confidence, 0.75 * 0.95, 1e-9);  // 60 of 80 active windows
  EXPECT_EQ(train.gpu_verdicts[static_cast<std::size_t>(WorkloadType::Training)], 3u);
  EXPECT_EQ(train.gpu_verdicts[static_cast<std::size_t>(WorkloadType::Inference)], 1u);
  EXPECT_EQ(r.jobs[1].verdict.type, WorkloadType::Hpc);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(JobGroups, IdleGpusOfAJobDoNotOutvoteItsWork) {
  ClassifyResult r;
  r.gpus.push_back(gpu(0, WorkloadType::Inference, 20));
  for (int i = 1; i < 8; ++i) r.gpus.push_back(gpu(i, WorkloadType::Idle, 20));
  group_jobs(r, {parse_job_spec("serve=all")});
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].gpus.size(), 8u);
  EXPECT_EQ(r.jobs[0].verdict.type, WorkloadType::Inference);
}

TEST(JobGroups, AGpuTheSourceLacksIsAnError) {
  ClassifyResult r;
  r.gpus.push_back(gpu(0, WorkloadType::Training, 5));
  group_jobs(r, {parse_job_spec("a=0,3"), parse_job_spec("b=5-6")});
  ASSERT_EQ(r.jobs.size(), 1u);  // b found none of its GPUs: no verdict to give
  EXPECT_EQ(r.jobs[0].gpus, indices({0}));
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(r.diagnostics[0].text(), "job a: GPU 3 is not in the source");
  EXPECT_TRUE(r.diagnostics[0].is_error);
}

TEST(JobGroups, OwnersMakeJobsOfTheirGpus) {
  ClassifyResult r;
  for (int i = 0; i < 4; ++i) r.gpus.push_back(gpu(i, WorkloadType::Training, 3));
  const std::vector<std::string> owners{"slurm:7", "", "slurm:9", "slurm:7"};
  const std::vector<JobSpec> jobs =
      jobs_by_owner(r, [&owners](const GpuReport& g) { return owners[static_cast<std::size_t>(g.gpu.index)]; });
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].name, "slurm:7");
  EXPECT_EQ(jobs[0].gpus, indices({0, 3}));
  EXPECT_EQ(jobs[1].name, "slurm:9");
  EXPECT_EQ(jobs[1].gpus, indices({2}));
  EXPECT_NO_THROW(check_job_specs(jobs));
  EXPECT_TRUE(jobs_by_owner(r, [](const GpuReport&) { return std::string(); }).empty());
}

}  // namespace
}  // namespace wt
