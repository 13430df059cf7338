#include "classify/model_bundle.hpp"

#include <fstream>
#include <iterator>

#include "core/base64.hpp"
#include "core/diagnostic.hpp"

namespace wt {

using nlohmann::json;

std::string ModelBundle::to_json() const {
  json classes_json = json::array();
  for (WorkloadType t : classes) classes_json.push_back(to_string(t));
  json range = json::object();
  for (std::size_t i = 0; i < kModelFeatureCount; ++i) range[std::string(kModelFeatureNames[i])] = {low[i], high[i]};
  return json{{"format", kModelFormatName},
              {"version", kModelFormatVersion},
              {"features", kModelFeatureNames},
              {"classes", classes_json},
              {"feature_range", range},
              {"temperature", temperature},
              {"abstain_below", abstain_below},
              {"max_out_of_range", max_out_of_range},
              {"provenance", provenance},
              // XGBoost's UBJSON, base64: a tenth of the load time and memory of a JSON tree.
              {"xgboost_ubj_base64", base64_encode(xgb.save_ubj())}}
      .dump(1);
}

ModelBundle ModelBundle::from_json(std::string_view text, const std::string& origin) {
  // The trees are most of the file: decoded in place from the parsed text, and the parsed text
  // let go before XGBoost builds its own copy, so that loading peaks at as little memory as it can.
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != kModelFormatName)
    throw InputError(origin + ": not a " + std::string(kModelFormatName) + " file");
  if (j.value("version", 0) != kModelFormatVersion)
    throw InputError(origin + ": model format version " + j.value("version", json()).dump() + " is not " +
                     std::to_string(kModelFormatVersion));
  try {
    if (j.at("features").get<std::vector<std::string>>() !=
        std::vector<std::string>(kModelFeatureNames.begin(), kModelFeatureNames.end()))
      throw InputError(origin + ": the model was trained on other features than this build computes; retrain it");
    ModelBundle b;
    for (const auto& c : j.at("classes")) {
      const auto t = parse_workload_type(c.get<std::string>());
      if (!t) throw InputError(origin + ": unknown class " + c.dump());
      b.classes.push_back(*t);
    }
    for (std::size_t i = 0; i < kModelFeatureCount; ++i) {
      const auto& r = j.at("feature_range").at(std::string(kModelFeatureNames[i]));
      b.low[i] = r.at(0).get<float>();
      b.high[i] = r.at(1).get<float>();
    }
    b.temperature = j.at("temperature").get<double>();
    b.abstain_below = j.at("abstain_below").get<double>();
    b.max_out_of_range = j.at("max_out_of_range").get<std::size_t>();
    b.provenance = j.value("provenance", json::object());
    auto trees = base64_decode(j.at("xgboost_ubj_base64").get_ref<const std::string&>());
    if (!trees) throw InputError(origin + ": the trees are not valid base64");
    j = json();
    b.xgb = XgbModel::load(*trees);
    if (b.xgb.num_class() != static_cast<int>(b.classes.size()))
      throw InputError(origin + ": class list and trees disagree");
    if (!(b.temperature > 0)) throw InputError(origin + ": temperature must be positive");
    return b;
  } catch (const json::exception& e) {
    throw InputError(origin + ": malformed model: " + e.what());
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const InputError*>(&e)) throw;
    throw InputError(origin + ": " + e.what());
  }
}

ModelBundle load_model_bundle(const std::string& path) {
  if (path.empty()) return ModelBundle::from_json(embedded_model_json(), "built-in model");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return ModelBundle::from_json(text, path);
}

}  // namespace wt
