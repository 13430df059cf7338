// Checks that bytes given as an XGBoost model are a model of the shape `train` writes, before
// XGBoost reads them: XGBoost loads a model of any shape, and a damaged one crashes it.
#pragma once

#include <string>

namespace wt {

// Throws std::runtime_error saying what is wrong ("xgboost: tree 7 is damaged: ...").
void check_xgboost_model(const std::string& bytes);

}  // namespace wt
