// libFuzzer target: arbitrary bytes as an XGBoost model (UBJSON or JSON, what a model file's
// trees decode to) through loading, prediction, TreeSHAP and the split by class. XGBoost itself
// loads damaged trees and then crashes on them, so XgbModel::load checks them first: any crash
// or sanitizer report here is a shape that check lets through. A runtime_error is the expected
// answer to garbage.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "classify/xgboost_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const wt::XgbModel model = wt::XgbModel::load(std::string(reinterpret_cast<const char*>(data), size));
    // The seeds have 3 features; the committed model 32. A model with another count refuses
    // the rows, which is an answer too.
    for (const std::size_t ncols : {3u, 32u}) {
      std::vector<float> rows(4 * ncols);
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i % 7 == 3 ? __builtin_nanf("") : 0.25f * (i % 9);
      try {
        (void)model.predict_dense(rows, ncols);
        (void)model.contributions(std::vector<float>(rows.begin(), rows.begin() + static_cast<long>(ncols)));
      } catch (const std::runtime_error&) {
      }
    }
    if (model.num_class() > 0) (void)model.split_by_class();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
