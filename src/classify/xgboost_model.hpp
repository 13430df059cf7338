// A thin RAII wrapper over XGBoost's C API (Debian's libxgboost-dev): gradient boosted trees
// (multi-class, or one output) trained on rows of float features (NaN = missing).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wt {

struct XgbParams {
  int num_class = 6;
  int rounds = 150;
  int max_depth = 6;
  double eta = 0.15;
  double subsample = 0.8;
  double colsample_bytree = 0.8;
  double min_child_weight = 10;  // with hundreds of traces per scenario: smaller trees, no loss
  int nthread = 1;  // one thread keeps training reproducible bit for bit
  int seed = 7;
};

class XgbModel {
 public:
  XgbModel();
  ~XgbModel();
  XgbModel(XgbModel&& other) noexcept;
  XgbModel& operator=(XgbModel&& other) noexcept;
  XgbModel(const XgbModel&) = delete;
  XgbModel& operator=(const XgbModel&) = delete;

  // rows: n x ncols row-major; labels: class ids 0..num_class-1; weights: per row (or empty).
  static XgbModel train(const std::vector<float>& rows, std::size_t ncols, const std::vector<float>& labels,
                        const std::vector<float>& weights, const XgbParams& params);
  // XGBoost's own JSON or UBJSON (its binary JSON), as save_*() write them. Throws std::runtime_error.
  static XgbModel load(const std::string& bytes);
  std::string save_json() const;
  std::string save_ubj() const;

  // A multi-class model's trees as one single-output model per class, whose output is that
  // class's margin (softmax of the margins = the class probabilities). TreeSHAP of one class
  // then walks a class's trees only, not every class's. Throws std::runtime_error.
  std::vector<XgbModel> split_by_class() const;

  // n x outputs() for n = rows.size() / ncols rows (row-major): class probabilities of a
  // multi-class model, the margin of a single-output one. Predicted in place (no DMatrix: for
  // one row ~100x cheaper); each call costs ~27 us before its first tree, so batch rows.
  std::vector<float> predict_dense(const std::vector<float>& rows, std::size_t ncols) const;
  // Per-output, per-feature contributions (TreeSHAP) of one row to the margin, outputs() x
  // (ncols + 1), the last column being the bias.
  std::vector<float> contributions(const std::vector<float>& row) const;
  int num_class() const { return num_class_; }  // 0 for a single-output model
  std::size_t outputs() const { return num_class_ > 0 ? static_cast<std::size_t>(num_class_) : 1; }

 private:
  void* booster_ = nullptr;  // BoosterHandle
  int num_class_ = 0;
};

}  // namespace wt
