#include "classify/xgboost_model_check.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/json_parse.hpp"

namespace wt {
namespace {

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

}  // namespace

// `bytes` as XGBoost tells them apart: {" opens its JSON, { and a letter its UBJSON; anything
// else it would read as its legacy binary format, which this build never writes, so that is refused.
// The schema (1.7): learner.learner_model_param.{num_feature,num_class,num_target,base_score},
// learner.gradient_booster.model.{gbtree_model_param.num_trees,tree_info,trees}.
void check_xgboost_model(const std::string& bytes) {
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

}  // namespace wt
