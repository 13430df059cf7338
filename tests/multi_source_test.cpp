#include "source/multi_source.hpp"

#include <gtest/gtest.h>

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
