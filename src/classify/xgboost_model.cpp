#include "classify/xgboost_model.hpp"

#include <xgboost/c_api.h>

#include <nlohmann/json.hpp>

#include "core/json_parse.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace wt {
namespace {

void check(int rc, const char* what) {
  if (rc != 0) throw std::runtime_error(std::string("xgboost: ") + what + ": " + XGBGetLastError());
}

struct Matrix {
  DMatrixHandle h = nullptr;
  Matrix(const std::vector<float>& rows, std::size_t ncols) {
    check(XGDMatrixCreateFromMat(rows.data(), rows.size() / ncols, ncols, std::numeric_limits<float>::quiet_NaN(), &h),
          "create matrix");
  }
  ~Matrix() { XGDMatrixFree(h); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
};

std::vector<float> run_predict(BoosterHandle b, const Matrix& m, int type, std::size_t expected) {
  const std::string config = R"({"type": )" + std::to_string(type) +
                             R"(, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* out = nullptr;
  check(XGBoosterPredictFromDMatrix(b, m.h, config.c_str(), &shape, &dim, &out), "predict");
  bst_ulong n = 1;
  for (bst_ulong i = 0; i < dim; ++i) n *= shape[i];
  if (n != expected) throw std::runtime_error("xgboost: unexpected prediction size");
  return {out, out + n};
}

// XGBoost loads trees without checking their shape: a damaged model file (one flipped byte in a
// node count or a child index) makes loading read out of bounds, or prediction recurse until the
// stack overflows. So each tree is checked to be a tree before XGBoost sees it: arrays as long as
// the node count, every child in range, reached once from the root and naming its parent, no
// deeper than kMaxTreeDepth, numerical splits on a feature the model has, finite values.
constexpr int kMaxTreeDepth = 64;  // `train` grows at most 16 levels

// The integers of array `a`; nlohmann would convert a float element (NaN too) with a cast that
// is undefined out of range, so each element must be an integer already.
std::vector<long> integers(const nlohmann::json& a) {
  std::vector<long> out;
  for (const auto& v : a) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(LONG_MAX))
      throw std::runtime_error("xgboost: the model holds an index out of range");
    if (!v.is_number_integer()) throw std::runtime_error("xgboost: the model holds " + v.dump() + " where an index belongs");
    out.push_back(v.get<long>());
  }
  return out;
}

void check_tree(const nlohmann::json& tree, std::size_t index, unsigned long num_feature) {
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error("xgboost: tree " + std::to_string(index) + " is damaged: " + why);
  };
  const auto n = static_cast<std::size_t>(std::stoul(tree.at("tree_param").at("num_nodes").get<std::string>()));
  const auto left = integers(tree.at("left_children"));
  const auto right = integers(tree.at("right_children"));
  const auto parent = integers(tree.at("parents"));
  const auto feature = integers(tree.at("split_indices"));
  const auto value = tree.at("split_conditions").get<std::vector<double>>();
  const auto type = integers(tree.at("split_type"));
  for (const char* key : {"left_children", "right_children", "parents", "split_indices", "split_conditions",
                          "split_type", "default_left", "base_weights", "loss_changes", "sum_hessian"})
    if (tree.at(key).size() != n) fail(std::string(key) + " does not hold num_nodes (" + std::to_string(n) + ") entries");
  for (const char* key : {"categories", "categories_nodes", "categories_segments", "categories_sizes"})
    if (!tree.at(key).empty()) fail("it has categorical splits, which this model never uses");
  if (n == 0) fail("it has no nodes");
  std::vector<bool> reached(n, false);
  std::vector<std::pair<std::size_t, int>> stack{{0, 0}};  // node, depth
  reached[0] = true;
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    const std::string at = "node " + std::to_string(node);
    if (!std::isfinite(value[node])) fail(at + " holds a value that is not finite");
    if (left[node] == -1 && right[node] == -1) continue;  // a leaf: its value is in split_conditions
    if (type[node] != 0) fail(at + " has a categorical split, which this model never uses");
    if (feature[node] < 0 || static_cast<unsigned long>(feature[node]) >= num_feature)
      fail(at + " splits on a feature the model lacks");
    if (depth >= kMaxTreeDepth) fail("it is deeper than " + std::to_string(kMaxTreeDepth) + " levels");
    for (const long child : {left[node], right[node]}) {
      if (child <= 0 || static_cast<std::size_t>(child) >= n || reached[static_cast<std::size_t>(child)] ||
          parent[static_cast<std::size_t>(child)] != static_cast<long>(node))
        fail(at + " has a child that is out of range, reached twice or not its child");
      reached[static_cast<std::size_t>(child)] = true;
      stack.emplace_back(static_cast<std::size_t>(child), depth + 1);
    }
  }
}

// The forest around the trees must agree with them too: a tree's output group (tree_info) out
// of range makes prediction write out of bounds, a tree count other than the list's read past it.
constexpr unsigned long kMaxClasses = 256;  // far more than any class list; bounds the output

// `bytes` as XGBoost tells them apart: {" opens its JSON, { and a letter its UBJSON; anything
// else it would read as its legacy binary format, which this build never writes, so that is refused.
// The schema (1.7): learner.learner_model_param.{num_feature,num_class,num_target,base_score},
// learner.gradient_booster.model.{gbtree_model_param.num_trees,tree_info,trees}.
void check_trees(const std::string& bytes) {
  const bool is_json = bytes.size() > 1 && bytes[0] == '{' && bytes[1] == '"';
  const bool is_ubjson = bytes.size() > 1 && bytes[0] == '{' && std::isalpha(static_cast<unsigned char>(bytes[1]));
  if (!is_json && !is_ubjson) throw std::runtime_error("xgboost: not a model in XGBoost's JSON or UBJSON format");
  try {
    // At most a value per byte (UBJSON lets an array of nulls claim any count for free), and
    // nlohmann reads UBJSON recursively: 32 levels, where a model nests 8.
    std::string why;
    const auto model = parse_json(bytes, &why, {32, bytes.size(), is_ubjson});
    if (model.is_discarded()) throw std::runtime_error("xgboost: the model cannot be read: " + why);
    const auto& learner = model.at("learner");
    const auto& param = learner.at("learner_model_param");
    const unsigned long num_feature = std::stoul(param.at("num_feature").get<std::string>());
    const unsigned long num_class = std::stoul(param.at("num_class").get<std::string>());
    if (num_class > kMaxClasses)
      throw std::runtime_error("xgboost: the model claims " + std::to_string(num_class) + " classes");
    if (param.value("num_target", std::string("1")) != "1")
      throw std::runtime_error("xgboost: the model has several targets, which this build never trains");
    if (!std::isfinite(std::stod(param.at("base_score").get<std::string>())))
      throw std::runtime_error("xgboost: the model's base score is not a finite number");
    const auto& forest = learner.at("gradient_booster").at("model");
    const auto& trees = forest.at("trees");
    const auto tree_info = integers(forest.at("tree_info"));
    if (std::stoul(forest.at("gbtree_model_param").at("num_trees").get<std::string>()) != trees.size() ||
        tree_info.size() != trees.size())
      throw std::runtime_error("xgboost: the model's tree count, tree list and tree_info disagree");
    for (std::size_t i = 0; i < trees.size(); ++i) {
      if (tree_info[i] < 0 || static_cast<unsigned long>(tree_info[i]) >= std::max(num_class, 1UL))
        throw std::runtime_error("xgboost: tree " + std::to_string(i) + " is damaged: its class is out of range");
      if (trees[i].at("id") != i)
        throw std::runtime_error("xgboost: tree " + std::to_string(i) + " is damaged: its id is " + trees[i].at("id").dump());
      check_tree(trees[i], i, num_feature);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("xgboost: the model cannot be read: ") + e.what());
  } catch (const std::logic_error& e) {  // std::stoul or std::stod on a field that is no number
    throw std::runtime_error(std::string("xgboost: the model cannot be read: ") + e.what());
  }
}

}  // namespace

XgbModel::XgbModel() = default;
XgbModel::~XgbModel() {
  if (booster_) XGBoosterFree(booster_);
}
XgbModel::XgbModel(XgbModel&& o) noexcept : booster_(o.booster_), num_class_(o.num_class_) { o.booster_ = nullptr; }
XgbModel& XgbModel::operator=(XgbModel&& o) noexcept {
  std::swap(booster_, o.booster_);
  std::swap(num_class_, o.num_class_);
  return *this;
}

XgbModel XgbModel::train(const std::vector<float>& rows, std::size_t ncols, const std::vector<float>& labels,
                         const std::vector<float>& weights, const XgbParams& p) {
  Matrix m(rows, ncols);
  check(XGDMatrixSetFloatInfo(m.h, "label", labels.data(), labels.size()), "set labels");
  if (!weights.empty()) check(XGDMatrixSetFloatInfo(m.h, "weight", weights.data(), weights.size()), "set weights");
  XgbModel model;
  model.num_class_ = p.num_class;
  check(XGBoosterCreate(&m.h, 1, &model.booster_), "create booster");
  const std::pair<const char*, std::string> params[] = {
      {"objective", "multi:softprob"},
      {"num_class", std::to_string(p.num_class)},
      {"tree_method", "hist"},
      {"max_depth", std::to_string(p.max_depth)},
      {"eta", std::to_string(p.eta)},
      {"subsample", std::to_string(p.subsample)},
      {"colsample_bytree", std::to_string(p.colsample_bytree)},
      {"min_child_weight", std::to_string(p.min_child_weight)},
      {"nthread", std::to_string(p.nthread)},
      {"seed", std::to_string(p.seed)},
      {"verbosity", "0"},
  };
  for (const auto& [k, v] : params) check(XGBoosterSetParam(model.booster_, k, v.c_str()), k);
  for (int i = 0; i < p.rounds; ++i) check(XGBoosterUpdateOneIter(model.booster_, i, m.h), "train");
  return model;
}

XgbModel XgbModel::load(const std::string& bytes) {
  check_trees(bytes);
  XgbModel model;
  check(XGBoosterCreate(nullptr, 0, &model.booster_), "create booster");
  check(XGBoosterLoadModelFromBuffer(model.booster_, bytes.data(), bytes.size()), "load model");
  check(XGBoosterSetParam(model.booster_, "nthread", "1"), "nthread");
  bst_ulong len = 0;
  const char* out = nullptr;
  check(XGBoosterSaveJsonConfig(model.booster_, &len, &out), "read config");
  const std::string config(out, len);
  // The class count lives in the learner's parameters: "num_class":"6" ("0": one output).
  const auto at = config.find("\"num_class\":\"");
  if (at == std::string::npos) throw std::runtime_error("xgboost: model has no num_class");
  model.num_class_ = std::stoi(config.substr(at + 13));
  return model;
}

std::vector<XgbModel> XgbModel::split_by_class() const {
  // XGBoost's JSON model schema (1.7): learner.gradient_booster.model holds the trees, with
  // tree_info naming each tree's class; the margin of a class is base_score plus its trees.
  using nlohmann::json;
  json skeleton = json::parse(save_json(), nullptr, false);
  // XGBoost writes the strings it loaded as they were, so a model loaded with bytes that are
  // not UTF-8 (in an attribute, say) dumps as JSON nlohmann refuses.
  if (skeleton.is_discarded()) throw std::runtime_error("xgboost: the model does not write back as valid JSON");
  json& booster = skeleton.at("learner").at("gradient_booster").at("model");
  const json trees = std::move(booster.at("trees"));
  const std::vector<int> tree_info = booster.at("tree_info").get<std::vector<int>>();
  if (tree_info.size() != trees.size()) throw std::runtime_error("xgboost: tree_info and trees disagree");
  skeleton["learner"]["learner_model_param"]["num_class"] = "0";
  // The identity link: the output is the raw margin.
  skeleton["learner"]["objective"] = {{"name", "reg:squarederror"}, {"reg_loss_param", {{"scale_pos_weight", "1"}}}};
  std::vector<XgbModel> out;
  for (int c = 0; c < num_class_; ++c) {
    json mine = json::array();
    for (std::size_t i = 0; i < trees.size(); ++i)
      if (tree_info[i] == c) {
        mine.push_back(trees[i]);
        mine.back()["id"] = mine.size() - 1;
      }
    booster["tree_info"] = std::vector<int>(mine.size(), 0);
    booster["gbtree_model_param"]["num_trees"] = std::to_string(mine.size());
    booster["trees"] = std::move(mine);
    out.push_back(load(skeleton.dump()));
  }
  return out;
}

namespace {
std::string save(BoosterHandle b, const char* config) {
  bst_ulong len = 0;
  const char* out = nullptr;
  check(XGBoosterSaveModelToBuffer(b, config, &len, &out), "save model");
  return {out, len};
}
}  // namespace

std::string XgbModel::save_json() const { return save(booster_, R"({"format": "json"})"); }
std::string XgbModel::save_ubj() const { return save(booster_, R"({"format": "ubj"})"); }

std::vector<float> XgbModel::predict_dense(const std::vector<float>& rows, std::size_t ncols) const {
  // numpy's __array_interface__ for an n x ncols float32 array; XGBoost reads the data in place.
  const std::size_t n = ncols ? rows.size() / ncols : 0;
  if (n == 0) return {};
  const std::string array = R"({"data": [)" + std::to_string(reinterpret_cast<std::uintptr_t>(rows.data())) +
                            R"(, true], "shape": [)" + std::to_string(n) + ", " + std::to_string(ncols) +
                            R"(], "typestr": "<f4", "version": 3})";
  const char* config =
      R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false, "missing": NaN, "cache_id": 0})";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* out = nullptr;
  check(XGBoosterPredictFromDense(booster_, array.c_str(), config, nullptr, &shape, &dim, &out), "predict");
  bst_ulong total = 1;
  for (bst_ulong i = 0; i < dim; ++i) total *= shape[i];
  if (total != n * outputs()) throw std::runtime_error("xgboost: unexpected prediction size");
  return {out, out + total};
}

std::vector<float> XgbModel::contributions(const std::vector<float>& row) const {
  const Matrix m(row, row.size());
  return run_predict(booster_, m, 2, outputs() * (row.size() + 1));
}

}  // namespace wt
