#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "train/fit.hpp"
#include "train/sim_dataset.hpp"

namespace wt {
namespace {

// A small simulator dataset: 5 traces of 60 s per scenario.
void small_dataset(std::vector<LabelledWindow>& train, std::vector<LabelledWindow>& calibration) {
  SimDatasetOptions o;
  o.traces_per_scenario = 5;
  o.duration_s = 60;
  build_sim_dataset(o, train, calibration);
}

}  // namespace

TEST(Train, LabelsFromFileNames) {
  EXPECT_EQ(label_from_file_name("training__trainprof-h100__ckpt1.csv"), WorkloadType::Training);
  EXPECT_EQ(label_from_file_name("hpc__x__y.csv"), WorkloadType::Hpc);
  EXPECT_FALSE(label_from_file_name("notes.csv"));
  EXPECT_FALSE(label_from_file_name("cooking__x__y.csv"));
}

TEST(Train, DatasetAndModelAreDeterministic) {
  std::vector<LabelledWindow> a_train, a_cal, b_train, b_cal;
  small_dataset(a_train, a_cal);
  small_dataset(b_train, b_cal);
  ASSERT_EQ(a_train.size(), b_train.size());
  ASSERT_FALSE(a_cal.empty());
  XgbParams p;
  p.rounds = 10;
  const ModelBundle a = fit_model(a_train, a_cal, p), b = fit_model(b_train, b_cal, p);
  EXPECT_EQ(a.to_json(), b.to_json());
  EXPECT_GT(a.temperature, 0);
  // Every class the model knows is in the data.
  for (WorkloadType t : model_classes()) {
    bool seen = false;
    for (const auto& r : a_train) seen |= r.label == t;
    EXPECT_TRUE(seen) << to_string(t);
  }
}

TEST(Train, VerdictProbabilitiesCarryEachGpusBeliefAlongItsOwnRows) {
  std::vector<LabelledWindow> train, cal;
  small_dataset(train, cal);
  XgbParams p;
  p.rounds = 10;
  const ModelBundle m = fit_model(train, cal, p);
  EXPECT_EQ(m.window_stay, kWindowStay);
  EXPECT_EQ(ModelBundle::from_json(m.to_json(), "m.json").window_stay, kWindowStay);
  EXPECT_EQ(ModelBundle::from_json(m.to_json(), "m.json").window_stay_step_s, kWindowStayStepS);
  // The rows of the first two GPU streams, one after the other and then interleaved: each row
  // gets the same probabilities, whatever rows of other streams come between.
  std::vector<LabelledWindow> a, b;
  for (const auto& r : cal) {
    if (a.empty() || r.sequence == a.front().sequence) a.push_back(r);
    else if (b.empty() || r.sequence == b.front().sequence) b.push_back(r);
  }
  ASSERT_GE(a.size(), 2u);
  ASSERT_GE(b.size(), 2u);
  ASSERT_NE(a.front().sequence, b.front().sequence);
  std::vector<LabelledWindow> apart(a), mixed;
  apart.insert(apart.end(), b.begin(), b.end());
  std::vector<std::size_t> where(apart.size());  // row i of `apart` is row where[i] of `mixed`
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i < a.size()) {
      where[i] = mixed.size();
      mixed.push_back(a[i]);
    }
    if (i < b.size()) {
      where[a.size() + i] = mixed.size();
      mixed.push_back(b[i]);
    }
  }
  const auto pa = verdict_probabilities(m, apart), pm = verdict_probabilities(m, mixed);
  for (std::size_t i = 0; i < apart.size(); ++i) EXPECT_EQ(pa[i], pm[where[i]]) << i;
  // And a later window is weighed with the ones before it: not the model's probabilities alone.
  ModelBundle alone = ModelBundle::from_json(m.to_json(), "m.json");
  alone.window_stay = 0;
  EXPECT_NE(verdict_probabilities(alone, a), verdict_probabilities(m, a));
}

TEST(Train, RowWeightsCountAsThatManyWindows) {
  std::vector<LabelledWindow> train, cal;
  small_dataset(train, cal);
  // Three training windows relabelled MINING, as a real trace at odds with the simulator would be.
  std::vector<LabelledWindow> odd;
  for (const auto& r : train)
    if (r.label == WorkloadType::Training && odd.size() < 3) odd.push_back(r);
  ASSERT_EQ(odd.size(), 3u);
  for (auto& r : odd) r.label = WorkloadType::Mining;
  XgbParams p;
  p.rounds = 20;
  const auto mining_share = [&](float weight) {
    std::vector<LabelledWindow> rows = train;
    for (auto r : odd) {
      r.weight = weight;
      rows.push_back(r);
    }
    const ModelBundle m = fit_model(rows, cal, p);
    std::vector<float> x, y;
    to_matrix(odd, x, y);
    const auto prob = m.probabilities(x);
    double sum = 0;
    for (std::size_t i = 0; i < odd.size(); ++i) sum += prob[i * m.classes.size() + 4];  // model_classes()[4]
    return sum / static_cast<double>(odd.size());
  };
  ASSERT_EQ(model_classes()[4], WorkloadType::Mining);
  const double light = mining_share(0.001f), heavy = mining_share(1000);
  EXPECT_LT(light, 0.1) << heavy;
  EXPECT_GT(heavy, 0.5) << light;
}

TEST(Train, TraceIntervalIsDrawnUnlessFixed) {
  const sim::ScenarioSpec& spec = sim::scenario_catalog().front();
  // The gaps between the first samples of 12 traces, to the millisecond.
  const auto gaps = [&](std::optional<double> interval) {
    std::set<double> seen;
    for (std::size_t i = 0; i < 12; ++i) {
      auto src = simulated_trace(spec, draw_trace(spec, "t", i, 1, 60, interval));
      Sample a, b;
      if (src->next(a) && src->next(b)) seen.insert(std::round((b.time_s - a.time_s) * 1000) / 1000);
    }
    return seen;
  };
  const std::set<double> drawn = gaps(std::nullopt);
  EXPECT_GT(drawn.size(), 1u);  // several of the training intervals
  for (double g : drawn)
    EXPECT_NE(std::find(training_intervals().begin(), training_intervals().end(), g), training_intervals().end()) << g;
  EXPECT_EQ(gaps(10.0), std::set<double>{10.0});
}

TEST(Train, HeldOutPartsAreLeftOut) {
  std::vector<LabelledWindow> all, cal;
  small_dataset(all, cal);
  const auto no_padding = without_held_out(all, "idle-padding", {});
  ASSERT_FALSE(no_padding.empty());
  EXPECT_LT(no_padding.size(), all.size());
  for (const auto& r : no_padding) EXPECT_EQ(r.group.find("idle-padding"), std::string::npos) << r.group;
  const auto no_amd = without_held_out(all, "", {"AMD Instinct MI300X", "AMD Instinct MI250X"});
  ASSERT_FALSE(no_amd.empty());
  EXPECT_LT(no_amd.size(), all.size());
  for (const auto& r : no_amd) EXPECT_EQ(r.gpu_model.find("AMD"), std::string::npos) << r.gpu_model;
  EXPECT_EQ(without_held_out(all, "", {}).size(), all.size());
  // Nothing else is dropped: the rows kept are the others, in their order.
  std::size_t k = 0;
  for (const auto& r : all)
    if (r.group.find("idle-padding") == std::string::npos) {
      ASSERT_LT(k, no_padding.size());
      EXPECT_EQ(no_padding[k].group, r.group);
      EXPECT_EQ(std::memcmp(no_padding[k].x.data(), r.x.data(), sizeof(float) * r.x.size()), 0);
      ++k;
    }
  EXPECT_EQ(k, no_padding.size());
}

// Real rows carry the GPU name their driver printed; a held-out model takes its variants with it.
TEST(Train, HeldOutGpuModelTakesRealRowsByDriverName) {
  std::vector<LabelledWindow> rows(3);
  rows[0].gpu_model = "Tesla V100-SXM2-32GB-LS";
  rows[1].gpu_model = "NVIDIA H200";
  rows[2].gpu_model = "a GPU no table knows";
  const auto kept = without_held_out(rows, "", {"Tesla V100-SXM2-32GB"});
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].gpu_model, "NVIDIA H200");
  EXPECT_EQ(kept[1].gpu_model, "a GPU no table knows");
  EXPECT_EQ(without_held_out(rows, "", {"a GPU no table knows"}).size(), 2u);
}

}  // namespace wt
