#include "pipeline/gpu_streams.hpp"

#include <gtest/gtest.h>

#include <map>

#include "classify/trained_classifier.hpp"
#include "features/gpu_context.hpp"
#include "sim/simulated_source.hpp"

namespace wt {
namespace {

struct Seen {
  std::size_t gpu, samples;
  double start_s, end_s;
  bool partial;
  WorkloadType type;
  double confidence, training_score;
};

// Every window of a 4-GPU simulated job (with a partial last window), as the callback sees it.
std::vector<Seen> run(const Classifier& c, std::size_t batch) {
  sim::SimOptions o{*sim::find_scenario("training/ddp"), 137, 1.0, 3};
  auto src = sim::make_simulated_source(o);
  std::vector<Seen> seen;
  GpuStreams streams(
      c, {30, 15, 3},
      [&seen](GpuStream& g, const Window& w, Verdict v) {
        seen.push_back({g.ordinal, w.samples.size(), w.start_s, w.end_s, w.partial, v.type, v.confidence,
                        v.training_score.value_or(-1)});
      },
      batch);
  Sample s;
  while (src->next(s)) streams.push(s);
  streams.finish();
  return seen;
}

// Counts the windows each history has seen: the verdict's confidence is that count.
class CountingClassifier final : public Classifier {
 public:
  struct Count final : WindowHistory {
    int n = 0;
  };
  std::string_view name() const override { return "counting"; }
  Verdict classify(const WindowInput& w) const override {
    Verdict v;
    if (auto* c = dynamic_cast<Count*>(w.history)) v.confidence = ++c->n;
    return v;
  }
  std::unique_ptr<WindowHistory> new_history() const override { return std::make_unique<Count>(); }
};

}  // namespace

TEST(GpuStreams, EachGpuCarriesItsOwnHistoryInTimeOrder) {
  const CountingClassifier c;
  for (std::size_t batch : {std::size_t{1}, std::size_t{7}}) {
    std::map<std::size_t, int> windows_seen;
    for (const Seen& s : run(c, batch)) EXPECT_EQ(s.confidence, ++windows_seen[s.gpu]) << "GPU " << s.gpu << ", batch " << batch;
    EXPECT_EQ(windows_seen.size(), 4u);
  }
}

TEST(GpuStreams, BatchedVerdictsAreTheVerdictsOneAtATimeInTheSameOrder) {
  const TrainedClassifier c(load_model_bundle(""), gpu_context_for);
  const auto one = run(c, 1);
  ASSERT_GT(one.size(), 30u);
  EXPECT_TRUE(one.back().partial);
  for (std::size_t batch : {std::size_t{7}, std::size_t{64}}) {
    const auto held = run(c, batch);
    ASSERT_EQ(held.size(), one.size()) << batch;
    for (std::size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(held[i].gpu, one[i].gpu) << i;
      EXPECT_EQ(held[i].samples, one[i].samples) << i;
      EXPECT_EQ(held[i].start_s, one[i].start_s) << i;
      EXPECT_EQ(held[i].end_s, one[i].end_s) << i;
      EXPECT_EQ(held[i].partial, one[i].partial) << i;
      EXPECT_EQ(held[i].type, one[i].type) << i;
      EXPECT_NEAR(held[i].confidence, one[i].confidence, 1e-9) << i;
      EXPECT_NEAR(held[i].training_score, one[i].training_score, 1e-9) << i;
    }
  }
}

}  // namespace wt
