#include "classify/trained_classifier.hpp"

#include <gtest/gtest.h>

#include "core/base64.hpp"
#include "features/gpu_context.hpp"
#include "sim/simulated_source.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

TrainedClassifier builtin() { return TrainedClassifier(load_model_bundle(""), gpu_context_for); }

std::vector<Reading> flat(double util, double power, double mem, std::size_t n = 60) {
  std::vector<Reading> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].time_s = static_cast<double>(i) * 0.5;
    v[i].values.set(Signal::GpuUtil, util);
    v[i].values.set(Signal::Power, power);
    v[i].values.set(Signal::MemUsed, mem);
    v[i].values.set(Signal::MemTotal, 81559);
  }
  return v;
}

// 30 s of a simulated scenario on an H100, polled every second, from its 60th second on.
std::vector<Reading> scenario_window(const std::string& scenario) {
  sim::SimOptions o{*sim::find_scenario(scenario), 90, 1.0, 5};
  o.scenario.gpu_model = "NVIDIA H100 80GB HBM3";
  auto src = sim::make_simulated_source(o);
  const auto samples = test::drain(*src);
  return {samples.begin() + 60, samples.end()};
}

bool has_reason(const Verdict& v, const std::string& part) {
  for (const auto& r : v.reasons)
    if (r.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(TrainedClassifier, BuiltInModelLoadsWithProvenance) {
  const auto b = load_model_bundle("");
  EXPECT_EQ(b.classes.size(), 6u);
  EXPECT_TRUE(b.provenance.contains("date"));
  EXPECT_GT(b.temperature, 0);
}

TEST(TrainedClassifier, IdleGpuIsIdleWithReasonsFromTheModel) {
  const GpuIdentity gpu{0, "", "NVIDIA H100 80GB HBM3", "", ""};
  const auto rs = flat(0, 70, 1);
  const TrainedClassifier c = builtin();
  Verdict v = c.classify({rs, gpu});
  EXPECT_EQ(v.type, WorkloadType::Idle);
  const std::size_t cheap = v.reasons.size();  // classify() gives only the probability
  c.explain({rs, gpu}, v);
  EXPECT_GT(v.reasons.size(), cheap);
  EXPECT_GT(v.confidence, 0.5);
  ASSERT_TRUE(v.training_score);
  EXPECT_LT(*v.training_score, 0.5);
  bool from_model = false;
  for (const auto& r : v.reasons) from_model |= r.find("pushes toward IDLE") != std::string::npos;
  EXPECT_TRUE(from_model);
}

TEST(TrainedClassifier, AbstainsOnWindowsUnlikeTheTrainingData) {
  // Memory used far above anything a GPU holds, absurd clocks and traffic: outside the envelope.
  std::vector<Reading> rs = flat(50, 300, 80000);
  for (auto& r : rs) {
    r.values.set(Signal::MemTotal, 1000);
    r.values.set(Signal::SmClock, 9000);
    r.values.set(Signal::PcieTx, 900000);
    r.values.set(Signal::NvlinkTx, 9000000);
    r.values.set(Signal::ProcessCount, 500);
  }
  const Verdict v = builtin().classify({rs, GpuIdentity{0, "", "NVIDIA H100 80GB HBM3", "", ""}});
  EXPECT_EQ(v.type, WorkloadType::Unknown);
  EXPECT_NE(v.reasons.front().find("Unlike the training data"), std::string::npos);
}

TEST(TrainedClassifier, ConfidenceIsTheProbabilityThroughTheModelsMap) {
  const GpuIdentity gpu{0, "", "NVIDIA H100 80GB HBM3", "", ""};
  const auto rs = flat(95, 600, 60000);
  ModelBundle plain = load_model_bundle("");
  EXPECT_FALSE(plain.confidence.identity());  // the committed model carries its fitted map
  ModelBundle halved = load_model_bundle("");
  plain.confidence = ConfidenceMap();
  halved.confidence = ConfidenceMap({{0.0, 0.0}, {1.0, 0.5}});
  const Verdict a = TrainedClassifier(std::move(plain), gpu_context_for).classify({rs, gpu});
  const Verdict b = TrainedClassifier(std::move(halved), gpu_context_for).classify({rs, gpu});
  EXPECT_EQ(a.type, b.type);  // the map changes what is reported, never the verdict
  EXPECT_EQ(a.training_score, b.training_score);
  EXPECT_NEAR(b.confidence, a.confidence / 2, 1e-12);
  EXPECT_EQ(a.reasons.back(), b.reasons.back());  // "Model probability ...": the model's own
}

TEST(TrainedClassifier, HistoryWeighsAWindowWithTheGpusWindowsBeforeIt) {
  const GpuIdentity gpu{0, "", "NVIDIA H100 80GB HBM3", "", ""};
  const auto mining = scenario_window("mining/ethash"), render = scenario_window("graphics/render");
  ModelBundle alone_model = load_model_bundle("");
  alone_model.window_stay = 0;
  const TrainedClassifier alone(std::move(alone_model), gpu_context_for);
  EXPECT_EQ(alone.new_history(), nullptr);  // a model without a filter judges each window alone
  const Verdict m = alone.classify({mining, gpu}), r = alone.classify({render, gpu});
  ASSERT_EQ(m.type, WorkloadType::Mining);
  ASSERT_EQ(r.type, WorkloadType::Graphics);

  ModelBundle sticky_model = load_model_bundle("");
  sticky_model.window_stay = 0.999999;  // so sticky that one window cannot move it
  const TrainedClassifier sticky(std::move(sticky_model), gpu_context_for);
  auto history = sticky.new_history();
  ASSERT_NE(history, nullptr);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sticky.classify({mining, gpu, history.get()}).type, WorkloadType::Mining);
  const Verdict after = sticky.classify({render, gpu, history.get()});
  EXPECT_EQ(after.type, WorkloadType::Mining);
  EXPECT_TRUE(has_reason(after, "This window alone reads GRAPHICS")) << after.reasons.back();
  // Another GPU's history, or none, leaves the same window to itself.
  auto fresh = sticky.new_history();
  EXPECT_EQ(sticky.classify({render, gpu, fresh.get()}).type, WorkloadType::Graphics);
  EXPECT_EQ(sticky.classify({render, gpu}).type, WorkloadType::Graphics);
  // classify_all carries the history window to window in order, as classify does.
  auto batch_history = sticky.new_history();
  std::vector<WindowInput> inputs;
  for (int i = 0; i < 5; ++i) inputs.push_back({mining, gpu, batch_history.get()});
  inputs.push_back({render, gpu, batch_history.get()});
  EXPECT_EQ(sticky.classify_all(inputs).back().type, WorkloadType::Mining);
}

TEST(TrainedClassifier, HistoryFadesWithTheTimeBetweenWindows) {
  const GpuIdentity gpu{0, "", "NVIDIA H100 80GB HBM3", "", ""};
  const auto mining = scenario_window("mining/ethash");
  auto later = [](std::vector<Reading> w, double seconds) {
    for (Reading& r : w) r.time_s += seconds;
    return w;
  };
  ModelBundle model = load_model_bundle("");
  model.window_stay = 0.999999;  // one window cannot move it ...
  model.window_stay_step_s = 15;  // ... but years can
  const TrainedClassifier sticky(std::move(model), gpu_context_for);
  auto mined_then = [&](double gap_s) {
    auto history = sticky.new_history();
    for (int i = 0; i < 5; ++i) sticky.classify({later(mining, 15.0 * i), gpu, history.get()});
    return sticky.classify({later(scenario_window("graphics/render"), 60 + gap_s), gpu, history.get()}).type;
  };
  EXPECT_EQ(mined_then(0), WorkloadType::Mining);  // the next window
  // Three years on, the time the windows' readings carry has worn the belief away.
  EXPECT_EQ(mined_then(1e8), WorkloadType::Graphics);
}

TEST(TrainedClassifier, TemperatureOneKeepsProbabilities) {
  const float p[] = {0.7f, 0.2f, 0.1f};
  const auto q = temper(p, 3, 1.0);
  EXPECT_NEAR(q[0], 0.7, 1e-6);
  const auto hot = temper(p, 3, 2.0);
  EXPECT_LT(hot[0], 0.7);  // a higher temperature spreads the probabilities
}

TEST(ModelBundle, RejectsForeignOrStaleFiles) {
  EXPECT_THROW(ModelBundle::from_json("{}", "m.json"), InputError);
  EXPECT_THROW(ModelBundle::from_json("not json", "m.json"), InputError);
  auto j = nlohmann::json::parse(embedded_model_json());
  j["features"][0] = "something_else";
  EXPECT_THROW(ModelBundle::from_json(j.dump(), "m.json"), InputError);
  EXPECT_THROW(load_model_bundle("/nonexistent/model.json"), InputError);
  // Version 1 held one multi-class model: this build says so rather than misreading it.
  auto v1 = nlohmann::json::parse(embedded_model_json());
  v1["version"] = 1;
  try {
    ModelBundle::from_json(v1.dump(), "old.json");
    ADD_FAILURE() << "a version-1 model was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("old.json: model format version 1"), std::string::npos) << e.what();
  }
  // A map that is not monotone is named with the file; a model from before maps reads as identity.
  auto bad_map = nlohmann::json::parse(embedded_model_json());
  bad_map["confidence_map"] = {{0.6, 0.9}, {0.8, 0.5}};
  try {
    ModelBundle::from_json(bad_map.dump(), "m.json");
    ADD_FAILURE() << "a decreasing confidence map was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("m.json: confidence map"), std::string::npos) << e.what();
  }
  auto no_map = nlohmann::json::parse(embedded_model_json());
  no_map.erase("confidence_map");
  EXPECT_TRUE(ModelBundle::from_json(no_map.dump(), "m.json").confidence.identity());
  // A model from before the belief filter judges each window alone; a stay of 1 would never move.
  auto no_stay = nlohmann::json::parse(embedded_model_json());
  no_stay.erase("window_stay");
  EXPECT_EQ(ModelBundle::from_json(no_stay.dump(), "m.json").window_stay, 0);
  auto stuck = nlohmann::json::parse(embedded_model_json());
  stuck["window_stay"] = 1.0;
  EXPECT_THROW(ModelBundle::from_json(stuck.dump(), "m.json"), InputError);
  // One from before the stay was set per time steps once a window, whatever the time between.
  auto per_window = nlohmann::json::parse(embedded_model_json());
  per_window.erase("window_stay_step_s");
  EXPECT_EQ(ModelBundle::from_json(per_window.dump(), "m.json").window_stay_step_s, 0);
  for (const double bad : {-1.0, 1e9}) {
    auto odd_step = nlohmann::json::parse(embedded_model_json());
    odd_step["window_stay_step_s"] = bad;
    EXPECT_THROW(ModelBundle::from_json(odd_step.dump(), "m.json"), InputError) << bad;
  }
  auto short_of_a_class = nlohmann::json::parse(embedded_model_json());
  short_of_a_class["xgboost_ubj_base64_per_class"].erase(0);
  EXPECT_THROW(ModelBundle::from_json(short_of_a_class.dump(), "m.json"), InputError);
}

// Each class's trees carry their SHA-256: one flipped bit is refused, with the class named;
// a model written before the digests still loads.
TEST(ModelBundle, DamagedTreesAreRefusedByTheirDigest) {
  auto j = nlohmann::json::parse(embedded_model_json());
  ASSERT_EQ(j.at("xgboost_ubj_sha256_per_class").size(), j.at("classes").size());
  auto trees = base64_decode(j["xgboost_ubj_base64_per_class"][1].get<std::string>());
  ASSERT_TRUE(trees && trees->size() > 1000);
  (*trees)[trees->size() / 2] = static_cast<char>((*trees)[trees->size() / 2] ^ 1);
  auto flipped = j;
  flipped["xgboost_ubj_base64_per_class"][1] = base64_encode(*trees);
  try {
    ModelBundle::from_json(flipped.dump(), "m.json");
    ADD_FAILURE() << "a model with a flipped bit was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("m.json: the INFERENCE trees do not match their SHA-256"), std::string::npos)
        << e.what();
  }
  auto short_of_a_digest = j;
  short_of_a_digest["xgboost_ubj_sha256_per_class"].erase(0);
  EXPECT_THROW(ModelBundle::from_json(short_of_a_digest.dump(), "m.json"), InputError);
  auto before_digests = j;
  before_digests.erase("xgboost_ubj_sha256_per_class");
  EXPECT_EQ(ModelBundle::from_json(before_digests.dump(), "m.json").class_trees.size(), j.at("classes").size());
  // A deep value anywhere (here in the provenance) is refused, not copied until the stack overflows.
  auto deep = embedded_model_json();
  std::string deep_model(deep);
  deep_model.insert(deep_model.find("\"provenance\": {") + 15, "\"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ",");
  EXPECT_THROW(ModelBundle::from_json(deep_model, "deep.json"), InputError);
  auto abstain_above_one = j;
  abstain_above_one["abstain_below"] = 1.5;
  EXPECT_THROW(ModelBundle::from_json(abstain_above_one.dump(), "m.json"), InputError);
}

TEST(ModelBundle, ClassProbabilitiesAddUpAndMatchOneRowAtATime) {
  const auto b = load_model_bundle("");
  std::vector<float> rows;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t i = 0; i < kModelFeatureCount; ++i)
      rows.push_back(b.low[i] + (b.high[i] - b.low[i]) * static_cast<float>((r + 1) * (i + 3) % 7) / 7);
  const auto p = b.probabilities(rows);
  ASSERT_EQ(p.size(), 4 * b.classes.size());
  for (std::size_t r = 0; r < 4; ++r) {
    const std::vector<float> row(rows.begin() + static_cast<long>(r * kModelFeatureCount),
                                 rows.begin() + static_cast<long>((r + 1) * kModelFeatureCount));
    const auto one = b.probabilities(row);
    double sum = 0;
    for (std::size_t c = 0; c < b.classes.size(); ++c) {
      EXPECT_NEAR(one[c], p[r * b.classes.size() + c], 1e-6);
      sum += one[c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
}

}  // namespace wt
