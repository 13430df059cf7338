#include "classify/xgboost_model.hpp"

#include <xgboost/c_api.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "classify/xgboost_model_check.hpp"

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
  check_xgboost_model(bytes);
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
