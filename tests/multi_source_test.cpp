#include "source/multi_source.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <utility>

#include "source/replay/replay_source.hpp"
#include "test_util.hpp"

namespace {

// `n` samples of one GPU, 1 s apart from t0, with the given index and uuid.
std::vector<wt::Sample> gpu_samples(int index, const std::string& uuid, double t0, std::size_t n) {
  auto gpu = std::make_shared<wt::GpuIdentity>(wt::GpuIdentity{index, uuid, "GPU " + uuid, "", ""});
  std::vector<wt::Sample> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].time_s = t0 + static_cast<double>(i);
    v[i].gpu = gpu;
    v[i].values.set(wt::Signal::GpuUtil, static_cast<double>(index));
  }
  return v;
}

// A source that reports one problem when it ends.
class FailingSource final : public wt::TelemetrySource {
 public:
  bool next(wt::Sample&) override {
    report({"GPU 0", "GPU is gone; no longer read", true});
    return false;
  }
  std::string describe() const override { return "failing"; }
};

// A pipe read as /dev/fd/N, as `--replay node7=<(ssh node7 nvidia-smi ...)` gives one.
class Pipe {
 public:
  Pipe() { EXPECT_EQ(::pipe(fds_), 0); }
  ~Pipe() {
    close_writer();
    ::close(fds_[0]);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }
  void write(const std::string& text) {
    EXPECT_EQ(::write(fds_[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  void close_writer() {
    if (fds_[1] >= 0) ::close(std::exchange(fds_[1], -1));
  }

 private:
  int fds_[2] = {-1, -1};
};

constexpr const char* kHeader = "timestamp, index, utilization.gpu [%]\n";
std::string row(int second, int util) {
  return "2026/01/01 00:00:0" + std::to_string(second) + ".000, 0, " + std::to_string(util) + " %\n";
}

// A part opened on its own thread, as `--replay NODE=<(ssh ...)` is.
wt::MultiSource::Part opened_apart(const std::string& path, const std::string& host) {
  auto open = [path](wt::WaitingHook waiting) {
    wt::ReplayOptions o;
    o.waiting = std::move(waiting);
    return std::unique_ptr<wt::TelemetrySource>(std::make_unique<wt::ReplaySource>(path, o));
  };
  return {nullptr, 0, host, open, "replay:" + path};
}

TEST(MultiSource, AQuietPipeHoldsBackNoOtherPart) {
  Pipe quiet, busy;
  quiet.write(kHeader + row(1, 10));
  std::string five;
  for (int t = 1; t <= 5; ++t) five += row(t, 90);
  busy.write(kHeader + five);
  busy.close_writer();
  const auto start = std::chrono::steady_clock::now();
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back(opened_apart(quiet.path(), "node-q"));
  parts.push_back(opened_apart(busy.path(), "node-b"));
  int hook_calls = 0;
  // Called only once every part is quiet: the quiet node then sends its second row and ends.
  wt::MultiSource source(std::move(parts), [&] {
    if (++hook_calls == 1) {
      quiet.write(row(2, 10));
      quiet.close_writer();
    }
    return hook_calls > 50;  // 10 s: something is wrong; end the test rather than hang
  });
  std::map<std::string, std::vector<double>> times;
  wt::Sample s;
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(source.next(s));
    times[s.gpu->label()].push_back(s.time_s);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(hook_calls, 0);
  EXPECT_EQ(times["node-b/0"].size(), 5u);  // all the busy node sent, the quiet one still open
  ASSERT_TRUE(source.next(s));
  EXPECT_EQ(s.gpu->label(), "node-q/0");
  EXPECT_EQ(hook_calls, 1);
  times[s.gpu->label()].push_back(s.time_s);
  EXPECT_FALSE(source.next(s));
  ASSERT_EQ(times["node-q/0"].size(), 2u);
  EXPECT_LT(times["node-q/0"][0], times["node-q/0"][1]);  // each GPU's samples in time order
}

TEST(MultiSource, APartOpenedApartHoldsBackNoOtherEvenBeforeItsFirstLine) {
  // A FIFO no writer has opened: opening it, or waiting for its first lines, would block.
  const std::string fifo = std::filesystem::path(wt::test::write_temp("x", "")).parent_path() / "silent.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back(opened_apart(fifo, "node-s"));
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-a", 1, 2)), 0, "node-a"});
  const auto start = std::chrono::steady_clock::now();
  int hook_calls = 0;
  {
    wt::MultiSource source(std::move(parts), [&] { return ++hook_calls == 2; });
    EXPECT_EQ(source.describe(), "replay:" + fifo + "+vector");
    EXPECT_EQ(wt::test::drain(source).size(), 2u);
    EXPECT_EQ(hook_calls, 2);
    EXPECT_TRUE(source.diagnostics().empty());
  }  // its thread, still waiting for a writer, is stopped and joined
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  std::filesystem::remove(fifo);
}

TEST(MultiSource, APipeThatGivesNoSampleIsReportedAndTheOthersAreReadOn) {
  Pipe empty;
  empty.write(kHeader);
  empty.close_writer();
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back(opened_apart(empty.path(), "node-e"));
  parts.push_back(opened_apart("/nonexistent/node-x.csv", "node-x"));
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-a", 1, 2)), 0, "node-a"});
  wt::MultiSource source(std::move(parts));
  EXPECT_EQ(wt::test::drain(source).size(), 2u);
  std::vector<std::string> said;
  for (const wt::Diagnostic& d : source.diagnostics()) {
    EXPECT_TRUE(d.is_error);
    said.push_back(d.text());
  }
  std::sort(said.begin(), said.end());
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[0], "node-e: " + empty.path() + ": no samples in 1 line; the others are read on");
  EXPECT_EQ(said[1], "node-x: /nonexistent/node-x.csv: No such file or directory; the others are read on");
}

TEST(MultiSource, AUsageErrorOfAPartOpenedApartIsThrown) {
  Pipe jsonl;
  jsonl.write("{\"t\": 1}\n{\"t\": 2}\n");
  std::vector<wt::MultiSource::Part> parts;
  auto open = [path = jsonl.path()](wt::WaitingHook waiting) {
    wt::ReplayOptions o;
    o.waiting = std::move(waiting);
    o.columns = {"timestamp"};  // refused for JSONL
    return std::unique_ptr<wt::TelemetrySource>(std::make_unique<wt::ReplaySource>(path, o));
  };
  parts.push_back({nullptr, 0, "node-j", open, "replay:j"});
  wt::MultiSource source(std::move(parts));
  wt::Sample s;
  EXPECT_THROW(source.next(s), std::invalid_argument);
}

TEST(MultiSource, MergesInTimeOrderAndOffsetsTheSecondPartsIndices) {
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-a", 100, 3)), 0});
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "0x1234", 100.5, 3)), 1});
  wt::MultiSource source(std::move(parts));
  EXPECT_EQ(source.describe(), "vector+vector");
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  std::vector<int> order;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    order.push_back(samples[i].gpu->index);
    if (i > 0) {
      EXPECT_LE(samples[i - 1].time_s, samples[i].time_s);
    }
  }
  EXPECT_EQ(order, (std::vector<int>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(samples[1].gpu->uuid, "0x1234");
  EXPECT_EQ(samples[1].gpu.get(), samples[3].gpu.get());     // renamed once, then shared
  EXPECT_EQ(samples[1].values.get(wt::Signal::GpuUtil), 0);  // readings untouched
}

TEST(MultiSource, NamesEachPartsGpusAfterItsHostUnlessTheyNameOne) {
  auto named = gpu_samples(1, "GPU-c", 10, 1);
  auto on_node9 = std::make_shared<wt::GpuIdentity>(*named[0].gpu);
  on_node9->host = "node9";
  named[0].gpu = on_node9;
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-a", 10, 2)), 0, "node-a"});
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-b", 10, 1)), 0, "node-b"});
  parts.push_back({std::make_unique<wt::test::VectorSource>(named), 0, "node-c"});
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "GPU-d", 10, 1)), 0, "node-d"});
  wt::MultiSource source(std::move(parts));
  EXPECT_EQ(source.describe(), "vector+vector+vector+1 more");
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 5U);
  std::vector<std::string> labels;
  for (const auto& s : samples) labels.push_back(s.gpu->label());
  // Ties in time come in part order.
  EXPECT_EQ(labels, (std::vector<std::string>{"node-a/0", "node-b/0", "node9/1", "node-d/0", "node-a/0"}));
  EXPECT_EQ(samples[0].gpu.get(), samples[4].gpu.get());  // renamed once, then shared
  EXPECT_EQ(samples[2].gpu.get(), on_node9.get());         // a GPU that names its host is left as it is
}

TEST(MultiSource, KeepsTheOtherPartGoingAndForwardsDiagnostics) {
  std::vector<wt::MultiSource::Part> parts;
  parts.push_back({std::make_unique<FailingSource>(), 0});
  parts.push_back({std::make_unique<wt::test::VectorSource>(gpu_samples(0, "0x1", 5, 2)), 0});
  wt::MultiSource source(std::move(parts));
  EXPECT_EQ(wt::test::drain(source).size(), 2U);
  const wt::Diagnostics d = source.diagnostics();
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].text(), "GPU 0: GPU is gone; no longer read");
}

}  // namespace
