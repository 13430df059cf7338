// Numerically stable one-pass statistics (Welford), so that a whole GPU stream of millions
// of samples is summarised without keeping it in memory.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>

namespace wt {

class RunningStats {
 public:
  void add(double x) {
    ++n_;
    const double d = x - mean_;
    mean_ += d / static_cast<double>(n_);
    m2_ += d * (x - mean_);
  }
  std::size_t count() const { return n_; }
  std::optional<double> mean() const { return n_ ? std::optional(mean_) : std::nullopt; }
  // Sample standard deviation (n - 1), as the seed tool used.
  std::optional<double> stddev() const {
    return n_ > 1 ? std::optional(std::sqrt(m2_ / static_cast<double>(n_ - 1))) : std::nullopt;
  }

 private:
  std::size_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

// Least-squares slope of y on x, updated one point at a time.
class RunningSlope {
 public:
  void add(double x, double y) {
    ++n_;
    const double dx = x - mean_x_;
    mean_x_ += dx / static_cast<double>(n_);
    mean_y_ += (y - mean_y_) / static_cast<double>(n_);
    sxx_ += dx * (x - mean_x_);
    sxy_ += dx * (y - mean_y_);
  }
  std::size_t count() const { return n_; }
  std::optional<double> slope() const {
    return (n_ > 1 && sxx_ > 0) ? std::optional(sxy_ / sxx_) : std::nullopt;
  }

 private:
  std::size_t n_ = 0;
  double mean_x_ = 0, mean_y_ = 0, sxx_ = 0, sxy_ = 0;
};

}  // namespace wt
