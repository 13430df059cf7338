#include <gtest/gtest.h>

#include "train/fit.hpp"
#include "train/sim_dataset.hpp"

namespace wt {

TEST(Train, LabelsFromFileNames) {
  EXPECT_EQ(label_from_file_name("training__trainprof-h100__ckpt1.csv"), WorkloadType::Training);
  EXPECT_EQ(label_from_file_name("hpc__x__y.csv"), WorkloadType::Hpc);
  EXPECT_FALSE(label_from_file_name("notes.csv"));
  EXPECT_FALSE(label_from_file_name("cooking__x__y.csv"));
}

TEST(Train, DatasetAndModelAreDeterministic) {
  SimDatasetOptions o;
  o.traces_per_scenario = 5;
  o.duration_s = 60;
  std::vector<LabelledWindow> a_train, a_cal, b_train, b_cal;
  build_sim_dataset(o, a_train, a_cal);
  build_sim_dataset(o, b_train, b_cal);
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

TEST(Train, HeldOutEvasionFamilyIsLeftOut) {
  SimDatasetOptions o;
  o.traces_per_scenario = 5;
  o.duration_s = 60;
  o.exclude_evasion = "idle-padding";
  std::vector<LabelledWindow> train, cal;
  build_sim_dataset(o, train, cal);
  for (const auto& r : train) EXPECT_EQ(r.group.find("idle-padding"), std::string::npos);
}

}  // namespace wt

namespace wt {

TEST(Train, ExcludedGpuModelsAreLeftOut) {
  SimDatasetOptions o;
  o.traces_per_scenario = 5;
  o.duration_s = 60;
  o.exclude_gpu_models = {"AMD Instinct MI300X", "AMD Instinct MI250X"};
  std::vector<LabelledWindow> train, cal;
  build_sim_dataset(o, train, cal);
  ASSERT_FALSE(train.empty());
  for (const auto& r : train) EXPECT_EQ(r.gpu_model.find("AMD"), std::string::npos) << r.gpu_model;
}

}  // namespace wt
