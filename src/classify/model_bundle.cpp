#include "classify/model_bundle.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/base64.hpp"
#include "core/diagnostic.hpp"
#include "core/json_parse.hpp"
#include "core/sha256.hpp"

namespace wt {

using nlohmann::json;

namespace {

// Softmax in place over each row of `k` margins.
void softmax_rows(std::vector<float>& v, std::size_t k) {
  for (std::size_t r = 0; r + k <= v.size(); r += k) {
    const float top = *std::max_element(v.begin() + static_cast<long>(r), v.begin() + static_cast<long>(r + k));
    double sum = 0;
    for (std::size_t c = r; c < r + k; ++c) sum += v[c] = std::exp(v[c] - top);
    for (std::size_t c = r; c < r + k; ++c) v[c] = static_cast<float>(v[c] / sum);
  }
}

}  // namespace

std::vector<float> ModelBundle::probabilities(const std::vector<float>& rows) const {
  const std::size_t n = rows.size() / kModelFeatureCount, k = class_trees.size();
  std::vector<float> p(n * k);
  for (std::size_t c = 0; c < k; ++c) {
    const auto margin = class_trees[c].predict_dense(rows, kModelFeatureCount);
    for (std::size_t i = 0; i < n; ++i) p[i * k + c] = margin[i];
  }
  softmax_rows(p, k);
  return p;
}

std::string ModelBundle::to_json() const {
  json classes_json = json::array();
  for (WorkloadType t : classes) classes_json.push_back(to_string(t));
  json range = json::object();
  for (std::size_t i = 0; i < kModelFeatureCount; ++i) range[std::string(kModelFeatureNames[i])] = {low[i], high[i]};
  json trees = json::array(), digests = json::array();
  for (const XgbModel& m : class_trees) {
    const std::string ubj = m.save_ubj();
    trees.push_back(base64_encode(ubj));
    digests.push_back(sha256_hex(ubj));
  }
  return json{{"format", kModelFormatName},
              {"version", kModelFormatVersion},
              {"features", kModelFeatureNames},
              {"classes", classes_json},
              {"feature_range", range},
              {"temperature", temperature},
              {"confidence_map", confidence.to_json()},
              {"abstain_below", abstain_below},
              {"max_out_of_range", max_out_of_range},
              {"window_stay", window_stay},
              {"window_stay_step_s", window_stay_step_s},
              {"provenance", provenance},
              // XGBoost's UBJSON, base64, one model per class: a tenth of the load time and
              // memory of a JSON tree.
              {"xgboost_ubj_base64_per_class", trees},
              // SHA-256 of each class's trees (the UBJSON bytes): a damaged or edited file is
              // refused, not read with other splits than were trained.
              {"xgboost_ubj_sha256_per_class", digests}}
      .dump(1);
}

ModelBundle ModelBundle::from_json(std::string_view text, const std::string& origin) {
  // The trees are most of the file: decoded in place from the parsed text, and the parsed text
  // let go before XGBoost builds its own copy, so that loading peaks at as little memory as it can.
  std::string why;
  json j = parse_json(text, &why);
  if (j.is_discarded()) throw InputError(origin + ": not a " + std::string(kModelFormatName) + " file (" + why + ")");
  if (!j.is_object() || j.value("format", "") != kModelFormatName)
    throw InputError(origin + ": not a " + std::string(kModelFormatName) + " file");
  if (j.value("version", 0) != kModelFormatVersion)
    throw InputError(origin + ": model format version " + j.value("version", json()).dump() + " is not " +
                     std::to_string(kModelFormatVersion) + ", the one this build reads; retrain it (workloadtruth train)");
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
    // Models trained before 2026-12-05 have no map: their confidence is the probability.
    if (j.contains("confidence_map")) {
      try {
        b.confidence = ConfidenceMap::from_json(j.at("confidence_map"));
      } catch (const std::invalid_argument& e) {
        throw InputError(origin + ": " + e.what());
      }
    }
    b.abstain_below = j.at("abstain_below").get<double>();
    if (!(b.abstain_below >= 0 && b.abstain_below <= 1)) throw InputError(origin + ": abstain_below must be in [0, 1]");
    b.max_out_of_range = j.at("max_out_of_range").get<std::size_t>();
    b.window_stay = j.value("window_stay", 0.0);
    if (!(b.window_stay >= 0 && b.window_stay < 1)) throw InputError(origin + ": window_stay must be in [0, 1)");
    b.window_stay_step_s = j.value("window_stay_step_s", 0.0);
    if (!(b.window_stay_step_s >= 0 && b.window_stay_step_s <= 86400))
      throw InputError(origin + ": window_stay_step_s must be in [0, 86400] seconds");
    b.provenance = j.value("provenance", json::object());
    json& per_class = j.at("xgboost_ubj_base64_per_class");
    if (!per_class.is_array() || per_class.size() != b.classes.size())
      throw InputError(origin + ": class list and trees disagree");
    // Model files from before 2026-12-06 carry no digests.
    const json digests = j.value("xgboost_ubj_sha256_per_class", json());
    if (!digests.is_null() && (!digests.is_array() || digests.size() != per_class.size()))
      throw InputError(origin + ": the tree digests do not match the class list");
    for (std::size_t c = 0; c < per_class.size(); ++c) {
      auto trees = base64_decode(per_class[c].get_ref<const std::string&>());
      if (!trees) throw InputError(origin + ": the trees are not valid base64");
      if (!digests.is_null() && sha256_hex(*trees) != digests[c].get<std::string>())
        throw InputError(origin + ": the " + std::string(to_string(b.classes[c])) +
                         " trees do not match their SHA-256: the file is damaged or was edited");
      per_class[c] = json();
      b.class_trees.push_back(XgbModel::load(*trees));
      if (b.class_trees.back().num_class() != 0) throw InputError(origin + ": a class's trees have several outputs");
    }
    j = json();
    if (!(b.temperature > 0)) throw InputError(origin + ": temperature must be positive");
    return b;
  } catch (const json::exception& e) {
    throw InputError(origin + ": malformed model: " + e.what());
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const InputError*>(&e)) throw;
    throw InputError(origin + ": " + e.what());
  }
}

std::optional<std::size_t> ModelBundle::class_index(WorkloadType type) const {
  const auto it = std::find(classes.begin(), classes.end(), type);
  if (it == classes.end()) return std::nullopt;
  return static_cast<std::size_t>(it - classes.begin());
}

ClassBelief ModelBundle::new_belief() const {
  return ClassBelief(window_stay, class_index(WorkloadType::Idle), window_stay_step_s);
}

std::vector<std::size_t> ModelBundle::out_of_range(const float* row) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < kModelFeatureCount; ++i) {
    const float x = row[i];
    if (std::isnan(x)) continue;
    const float pad = 0.1f * (high[i] - low[i]) + 1e-6f;
    if (x < low[i] - pad || x > high[i] + pad) out.push_back(i);
  }
  return out;
}

ModelBundle load_model_bundle(const std::string& path) {
  if (path.empty()) return ModelBundle::from_json(embedded_model_json(), "built-in model");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return ModelBundle::from_json(text, path);
}

}  // namespace wt
