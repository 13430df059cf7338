#include "classify/xgboost_model.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

namespace wt {
namespace {

// Three classes told apart by which of two features is large; a third feature is noise and
// often missing.
void toy(std::size_t n, std::vector<float>& rows, std::vector<float>& labels, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const int c = static_cast<int>(i % 3);
    rows.push_back(c == 1 ? 1 + u(rng) : u(rng));
    rows.push_back(c == 2 ? 1 + u(rng) : u(rng));
    rows.push_back(u(rng) < 0.3 ? NAN : u(rng));
    labels.push_back(static_cast<float>(c));
  }
}

XgbParams small() {
  XgbParams p;
  p.num_class = 3;
  p.rounds = 20;
  return p;
}

}  // namespace

TEST(XgbModel, LearnsSaveLoadAndExplains) {
  std::vector<float> rows, labels, test_rows, test_labels;
  toy(300, rows, labels, 1);
  toy(60, test_rows, test_labels, 2);
  const XgbModel m = XgbModel::train(rows, 3, labels, {}, small());
  const auto p = m.predict_dense(test_rows, 3);
  ASSERT_EQ(p.size(), 60u * 3);
  for (std::size_t i = 0; i < 60; ++i) {
    const auto best = std::max_element(p.begin() + 3 * i, p.begin() + 3 * i + 3) - (p.begin() + 3 * i);
    EXPECT_EQ(best, static_cast<long>(test_labels[i])) << i;
  }

  for (const std::string& saved : {m.save_json(), m.save_ubj()}) {
    const XgbModel loaded = XgbModel::load(saved);
    EXPECT_EQ(loaded.num_class(), 3);
    EXPECT_EQ(loaded.predict_dense(test_rows, 3), p);
  }

  // Contributions add up to each class's margin: softmax of the sums gives the probabilities.
  const std::vector<float> row(test_rows.begin(), test_rows.begin() + 3);
  const auto c = m.contributions(row);
  ASSERT_EQ(c.size(), 3u * 4);
  double z[3], total = 0;
  for (int k = 0; k < 3; ++k) {
    z[k] = std::exp(static_cast<double>(c[4 * k] + c[4 * k + 1] + c[4 * k + 2] + c[4 * k + 3]));
    total += z[k];
  }
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(z[k] / total, p[static_cast<std::size_t>(k)], 1e-4);
}

TEST(XgbModel, SplitByClassGivesEachClassItsMarginAndContributions) {
  std::vector<float> rows, labels, test_rows, test_labels;
  toy(300, rows, labels, 1);
  toy(30, test_rows, test_labels, 2);
  const XgbModel m = XgbModel::train(rows, 3, labels, {}, small());
  const auto parts = m.split_by_class();
  ASSERT_EQ(parts.size(), 3u);
  const auto p = m.predict_dense(test_rows, 3);
  std::vector<std::vector<float>> margins;
  for (const XgbModel& part : parts) {
    EXPECT_EQ(part.num_class(), 0);
    EXPECT_EQ(part.outputs(), 1u);
    margins.push_back(part.predict_dense(test_rows, 3));
    ASSERT_EQ(margins.back().size(), 30u);
  }
  for (std::size_t i = 0; i < 30; ++i) {
    double z[3], total = 0;
    for (std::size_t k = 0; k < 3; ++k) total += z[k] = std::exp(static_cast<double>(margins[k][i]));
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(z[k] / total, p[3 * i + k], 1e-6) << i << " " << k;
  }
  // TreeSHAP over a class's own trees gives that class's block of the multi-class contributions.
  const std::vector<float> row(test_rows.begin() + 3, test_rows.begin() + 6);
  const auto all = m.contributions(row);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto one = parts[k].contributions(row);
    ASSERT_EQ(one.size(), 4u);
    for (std::size_t f = 0; f < 4; ++f) EXPECT_NEAR(one[f], all[4 * k + f], 1e-6) << k << " " << f;
  }
  // A split model survives saving like any other.
  EXPECT_EQ(XgbModel::load(parts[1].save_ubj()).predict_dense(test_rows, 3), margins[1]);
}

TEST(XgbModel, TrainingIsReproducible) {
  std::vector<float> rows, labels;
  toy(200, rows, labels, 3);
  EXPECT_EQ(XgbModel::train(rows, 3, labels, {}, small()).save_json(),
            XgbModel::train(rows, 3, labels, {}, small()).save_json());
}

TEST(XgbModel, GarbageModelIsAnError) {
  EXPECT_THROW(XgbModel::load("{not a model"), std::runtime_error);
}

// XGBoost itself loads a tree of any shape, then recurses forever (a cycle) or reads out of
// bounds (a child or feature out of range, arrays shorter than the node count) when it predicts:
// each is refused at load, naming the tree.
TEST(XgbModel, DamagedTreesAreRefusedAtLoad) {
  std::vector<float> rows, labels;
  toy(300, rows, labels, 4);
  const auto good = nlohmann::json::parse(XgbModel::train(rows, 3, labels, {}, small()).save_json());
  const auto tree = [](nlohmann::json& model) -> nlohmann::json& {
    return model["learner"]["gradient_booster"]["model"]["trees"][2];
  };
  const auto refused = [](const nlohmann::json& model, const std::string& why) {
    try {
      XgbModel::load(model.dump());
      ADD_FAILURE() << "loaded a model whose tree is damaged: " << why;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("tree 2 is damaged: " + why), std::string::npos) << e.what();
    }
  };
  auto model = good;
  ASSERT_GE(tree(model)["left_children"][0].get<int>(), 1) << "the toy tree should split at its root";
  const int child = tree(model)["left_children"][0].get<int>();
  tree(model)["left_children"][child] = 0;  // back to the root
  tree(model)["right_children"][child] = child;
  refused(model, "node " + std::to_string(child) + " has a child that is out of range, reached twice or not its child");
  model = good;
  tree(model)["right_children"][0] = 100000;
  refused(model, "node 0 has a child that is out of range");
  model = good;
  tree(model)["split_indices"][0] = 3;  // the toy rows have 3 features
  refused(model, "node 0 splits on a feature the model lacks");
  model = good;
  tree(model)["split_conditions"].erase(tree(model)["split_conditions"].size() - 1);
  refused(model, "split_conditions does not hold num_nodes");
  EXPECT_NO_THROW(XgbModel::load(good.dump()));
}

// The forest around the trees: a tree's class out of range makes XGBoost write its prediction
// out of bounds, a tree count other than the list's read past it; a file that does not open as
// XGBoost's JSON or UBJSON would be read as its legacy binary format.
TEST(XgbModel, DamagedForestsAreRefusedAtLoad) {
  std::vector<float> rows, labels;
  toy(300, rows, labels, 4);
  const XgbModel trained = XgbModel::train(rows, 3, labels, {}, small());
  const auto good = nlohmann::json::parse(trained.save_json());
  const auto refused = [](const nlohmann::json& model, const std::string& why) {
    try {
      XgbModel::load(model.dump());
      ADD_FAILURE() << "loaded a damaged model: " << why;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  auto model = good;
  model["learner"]["gradient_booster"]["model"]["tree_info"][0] = 3;  // classes 0..2
  refused(model, "tree 0 is damaged: its class is out of range");
  model = good;
  model["learner"]["gradient_booster"]["model"]["gbtree_model_param"]["num_trees"] = "100";
  refused(model, "tree count, tree list and tree_info disagree");
  model = good;
  model["learner"]["gradient_booster"]["model"]["trees"][0]["left_children"][0] = 1.5;
  refused(model, "where an index belongs");
  model = good;
  model["learner"]["learner_model_param"]["num_class"] = "100000";
  refused(model, "claims 100000 classes");
  EXPECT_THROW(XgbModel::load("NN" + trained.save_ubj()), std::runtime_error);
  // An array of nulls that claims 2^31 entries spends no byte on them: refused, not built.
  static constexpr char kNulls[] = "{L\x00\x00\x00\x00\x00\x00\x00\x01x[$Z#l\x7f\xff\xff\xff}";
  EXPECT_THROW(XgbModel::load(std::string(kNulls, sizeof kNulls - 1)), std::runtime_error);
  EXPECT_THROW(XgbModel::load("{i\x01x" + std::string(100000, '[')), std::runtime_error);
}

}  // namespace wt

namespace wt {

TEST(XgbModel, ManyRowsAtOncePredictLikeOneAtATime) {
  std::vector<float> rows, labels;
  toy(300, rows, labels, 5);
  const XgbModel m = XgbModel::train(rows, 3, labels, {}, small());
  const std::vector<float> first(rows.begin(), rows.begin() + 3 * 30);
  const auto all = m.predict_dense(first, 3);
  ASSERT_EQ(all.size(), 30u * 3);
  for (std::size_t i = 0; i < 30; ++i) {
    const auto one = m.predict_dense(std::vector<float>(first.begin() + 3 * i, first.begin() + 3 * i + 3), 3);
    ASSERT_EQ(one.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(all[3 * i + k], one[k]) << i;
  }
  EXPECT_TRUE(m.predict_dense({}, 3).empty());
}

}  // namespace wt
