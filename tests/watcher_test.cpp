#include "watch/watcher.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "audit/audit_log.hpp"
#include "audit/log_verifier.hpp"
#include "sink/audit_sink.hpp"
#include "test_util.hpp"

namespace wt::watch {
namespace {

// Calls a window TRAINING (0.95) when its mean utilization is over 50 %, else INFERENCE (0.95).
class UtilClassifier final : public Classifier {
 public:
  std::string_view name() const override { return "util"; }
  Verdict classify(const WindowInput& w) const override {
    double sum = 0;
    for (const Reading& r : w.readings) sum += r.values.value(Signal::GpuUtil);
    Verdict v;
    v.type = sum / static_cast<double>(w.readings.size()) > 50 ? WorkloadType::Training : WorkloadType::Inference;
    v.confidence = 0.95;
    return v;
  }
};

struct Recorder final : WatchSink {
  std::vector<std::pair<WorkloadType, bool>> windows;  // window verdict, job changed
  std::vector<std::string> declared_by;                // per window
  std::vector<MismatchEvent> events;
  void on_window(const GpuWatch& g, const Window&, const Verdict& v, bool changed, double) override {
    windows.emplace_back(v.type, changed);
    declared_by.push_back(g.declared_by);
  }
  void on_mismatch(const GpuWatch&, const MismatchEvent& e, double) override { events.push_back(e); }
};

// 1 Hz samples of GPU 0: `inference_s` seconds at 10 % then `training_s` at 90 %.
std::vector<Sample> phases(int inference_s, int training_s) {
  auto a = test::steady(static_cast<std::size_t>(inference_s), 1, 10, 100, 0);
  const auto b = test::steady(static_cast<std::size_t>(training_s), 1, 90, 300, inference_s);
  for (Sample s : b) {
    s.gpu = a.front().gpu;
    a.push_back(s);
  }
  return a;
}

DeclaredLookup declared_inference(const GpuIdentity&, const GpuOccupancy&) {
  return {Declaration{WorkloadType::Inference, "0"}, {}};
}

WatchOptions options(double persist_s) {
  WatchOptions o;
  o.window = {30, 15, 3};
  o.hysteresis = {3, 2.0};  // no confidence shortcut: switches only by holding
  o.mismatch = {0.9, persist_s, 3};
  return o;
}

}  // namespace

TEST(Watcher, JobChangesOnceAndMismatchIsRaisedAgainstTheDeclaration) {
  const UtilClassifier classifier;
  Recorder rec;
  Watcher w(classifier, options(120), declared_inference, {&rec}, [] { return 0.0; });
  for (const Sample& s : phases(120, 300)) w.push(s);
  w.finish();

  ASSERT_EQ(w.gpus().size(), 1u);
  const GpuWatch& g = w.gpus()[0];
  EXPECT_EQ(g.job.type(), WorkloadType::Training);
  std::size_t changes = 0;
  for (const auto& [type, changed] : rec.windows) changes += changed;
  EXPECT_EQ(changes, 2u);  // the first window sets it; one real change
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].kind, MismatchEvent::Kind::Raised);
  EXPECT_EQ(rec.events[0].observed, WorkloadType::Training);
  EXPECT_GE(rec.events[0].at_s - rec.events[0].since_s, 120);
  EXPECT_TRUE(g.mismatch.alerting());
  EXPECT_EQ(g.util.size(), Recent::kSize);
  EXPECT_DOUBLE_EQ(g.util[Recent::kSize - 1], 90);
  EXPECT_TRUE(w.every_gpu_classified());
}

// Declared by the process on it: the declaration follows the PIDs the samples carry, and the
// alert names the key that declared it.
TEST(Watcher, ADeclarationByProcessFollowsThePidsOnTheGpu) {
  DeclaredLabels labels;
  std::string why;
  ASSERT_TRUE(labels.set("process:vllm", WorkloadType::Inference, why));
  std::vector<std::uint32_t> seen;
  auto declared = [&](const GpuIdentity& gpu, const GpuOccupancy& on) {
    std::vector<ProcessIdentity> processes;
    for (const std::uint32_t pid : on.pids) {
      processes.push_back({pid, pid == 7 ? "vllm" : "bash", "", "", ""});
      seen.push_back(pid);
    }
    return labels.lookup(gpu, processes);
  };
  const UtilClassifier classifier;
  Recorder rec;
  Watcher w(classifier, options(120), declared, {&rec}, [] { return 0.0; });
  auto samples = phases(120, 300);
  const auto pids = std::make_shared<const ProcessIds>(ProcessIds{3, 7});  // vllm starts 40 s in
  for (Sample& s : samples)
    if (s.time_s >= 40) s.processes = pids;
  for (const Sample& s : samples) w.push(s);
  w.finish();

  ASSERT_GE(rec.declared_by.size(), 4u);
  EXPECT_EQ(rec.declared_by[0], "");  // the window [0, 30) closes before vllm starts
  EXPECT_EQ(rec.declared_by.back(), "process:vllm");
  EXPECT_EQ(seen.front(), 3u);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].declared, WorkloadType::Inference);
  EXPECT_EQ(rec.events[0].declared_by, "process:vllm");
  EXPECT_EQ(w.gpus()[0].processes, pids);
}

TEST(Watcher, ADeclarationByPodFollowsThePodsTheSourceNames) {
  DeclaredLabels labels;
  std::string why;
  ASSERT_TRUE(labels.set("pod:llm-serve-7d9f", WorkloadType::Inference, why));
  // As watch does it: each pod a source names stands as a process with no PID.
  auto declared = [&](const GpuIdentity& gpu, const GpuOccupancy& on) {
    std::vector<ProcessIdentity> processes;
    for (const std::string& pod : on.pods) processes.push_back({0, "", "", pod, ""});
    return labels.lookup(gpu, processes);
  };
  const UtilClassifier classifier;
  Recorder rec;
  Watcher w(classifier, options(120), declared, {&rec}, [] { return 0.0; });
  auto samples = phases(120, 300);
  const auto pods = std::make_shared<const PodNames>(PodNames{"llm-serve-7d9f"});  // scheduled 40 s in
  for (Sample& s : samples)
    if (s.time_s >= 40) s.pods = pods;
  for (const Sample& s : samples) w.push(s);
  w.finish();

  ASSERT_GE(rec.declared_by.size(), 4u);
  EXPECT_EQ(rec.declared_by[0], "");
  EXPECT_EQ(rec.declared_by.back(), "pod:llm-serve-7d9f");
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].declared, WorkloadType::Inference);
  EXPECT_EQ(w.gpus()[0].pods, pods);
}

TEST(Watcher, ADeclarationLabelOnTheSeriesReachesTheDeclaredFn) {
  auto declared = [](const GpuIdentity&, const GpuOccupancy& on) {
    std::vector<std::string> ignored;
    return lookup_declared_values("label:team_declared", on.declared, ignored);
  };
  const UtilClassifier classifier;
  Recorder rec;
  Watcher w(classifier, options(120), declared, {&rec}, [] { return 0.0; });
  auto samples = phases(120, 300);
  const auto values = std::make_shared<const DeclaredValues>(DeclaredValues{"inference"});  // labelled 40 s in
  for (Sample& s : samples)
    if (s.time_s >= 40) s.declared = values;
  for (const Sample& s : samples) w.push(s);
  w.finish();

  ASSERT_GE(rec.declared_by.size(), 4u);
  EXPECT_EQ(rec.declared_by[0], "");
  EXPECT_EQ(rec.declared_by.back(), "label:team_declared");
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].declared, WorkloadType::Inference);
  EXPECT_EQ(w.gpus()[0].declared_values, values);
}

TEST(Watcher, EveryWindowAndAlertIsLoggedAndTheLogVerifies) {
  const std::string path = test::write_temp("watch.log.jsonl", "");
  std::filesystem::remove(path);
  const UtilClassifier classifier;
  Recorder rec;
  {
    audit::AuditLog log(path, {});
    AuditSink sink(log);
    Watcher w(classifier, options(60), declared_inference, {&rec, &sink});
    for (const Sample& s : phases(60, 120)) w.push(s);
    w.finish();
    log.close();
    EXPECT_EQ(log.entries(), rec.windows.size() + rec.events.size());
  }
  ASSERT_EQ(rec.events.size(), 1u);
  const auto r = audit::verify_log_file(path, {});
  EXPECT_TRUE(r.valid()) << r.message();
}

// Four GPUs polled together for 420 s at 1 Hz: GPU 0 at 10 % (INFERENCE to UtilClassifier), the
// others at 90 % (TRAINING), as rank 0 of a job that checkpoints while the others wait.
std::vector<Sample> four_gpu_job() {
  std::vector<std::shared_ptr<GpuIdentity>> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(std::make_shared<GpuIdentity>(GpuIdentity{i, "GPU-" + std::to_string(i), "Test GPU", "", ""}));
  std::vector<Sample> out;
  for (int t = 0; t < 420; ++t)
    for (int i = 0; i < 4; ++i) {
      Sample s;
      s.time_s = 1000 + t;
      s.gpu = ids[static_cast<std::size_t>(i)];
      s.values.set(Signal::GpuUtil, i == 0 ? 10 : 90);
      s.values.set(Signal::Power, i == 0 ? 100 : 300);
      out.push_back(s);
    }
  return out;
}

DeclaredLookup declared_training(const GpuIdentity&, const GpuOccupancy&) {
  return {Declaration{WorkloadType::Training, "0-3"}, {}};
}

TEST(Watcher, AGpuOfANamedJobFollowsTheJobsPooledWindows) {
  const UtilClassifier classifier;
  // Alone, GPU 0 reads INFERENCE and is flagged against its training declaration.
  {
    Recorder rec;
    Watcher w(classifier, options(120), declared_training, {&rec}, [] { return 0.0; });
    for (const Sample& s : four_gpu_job()) w.push(s);
    w.finish();
    EXPECT_EQ(w.gpus()[0].job.type(), WorkloadType::Inference);
    ASSERT_EQ(rec.events.size(), 1u);
    EXPECT_EQ(rec.events[0].observed, WorkloadType::Inference);
    EXPECT_EQ(rec.events[0].job_group, "");
  }
  // Named as one job, every GPU's job verdict is the job's: TRAINING, and no alert.
  WatchOptions o = options(120);
  o.jobs = {parse_job_spec("train=0-3")};
  Recorder rec;
  Watcher w(classifier, o, declared_training, {&rec}, [] { return 0.0; });
  for (const Sample& s : four_gpu_job()) w.push(s);
  w.finish();
  for (const GpuWatch& g : w.gpus()) {
    EXPECT_EQ(g.job_group, "train");
    EXPECT_EQ(g.job.type(), WorkloadType::Training) << g.gpu.index;
  }
  EXPECT_TRUE(rec.events.empty());
  // Its own windows are still reported as they read (the audit log keeps what each GPU showed).
  EXPECT_EQ(rec.windows.front().first, WorkloadType::Inference);

  // Declared inference instead, the job raises an alert on each of its GPUs, saying it was the job's.
  Recorder rec2;
  Watcher w2(classifier, o, declared_inference, {&rec2}, [] { return 0.0; });
  for (const Sample& s : four_gpu_job()) w2.push(s);
  w2.finish();
  ASSERT_EQ(rec2.events.size(), 4u);
  for (const MismatchEvent& e : rec2.events) {
    EXPECT_EQ(e.observed, WorkloadType::Training);
    EXPECT_EQ(e.job_group, "train");
  }
}

TEST(Watcher, AJobGpuThatStopsReportingLeavesThePool) {
  const UtilClassifier classifier;
  // GPUs 1-3 train for 60 s and fall silent; GPU 0 reads INFERENCE throughout: once their
  // windows are stale the job is GPU 0's alone.
  std::vector<Sample> samples;
  for (const Sample& s : four_gpu_job())
    if (s.gpu->index == 0 || s.time_s < 1060) samples.push_back(s);
  WatchOptions o = options(120);
  o.jobs = {parse_job_spec("train=all")};
  Recorder rec;
  Watcher w(classifier, o, declared_training, {&rec}, [] { return 0.0; });
  for (const Sample& s : samples) w.push(s);
  w.finish();
  EXPECT_EQ(w.gpus()[0].job.type(), WorkloadType::Inference);
}

TEST(Watcher, JobsCanBeMadeByWhatRunsOnTheGpus) {
  // Every GPU's processes in one pod: the same as naming the job.
  const UtilClassifier classifier;
  Recorder rec;
  Watcher w(classifier, options(120), declared_training, {&rec}, [] { return 0.0; });
  w.join_jobs_by([](const GpuIdentity& g, const GpuOccupancy&) {
    return g.index < 4 ? std::string("pod:trainer") : std::string();
  });
  for (const Sample& s : four_gpu_job()) w.push(s);
  w.finish();
  for (const GpuWatch& g : w.gpus()) {
    EXPECT_EQ(g.job_group, "pod:trainer");
    EXPECT_EQ(g.job.type(), WorkloadType::Training) << g.gpu.index;
  }
  EXPECT_TRUE(rec.events.empty());
}

}  // namespace wt::watch
