// One-pass statistics with no division per sample, so that windows are cheap and a whole
// GPU stream of millions of samples is summarised without keeping it. Sums are taken around
// the first value seen (a shifted-data algorithm): that keeps them small and the variance
// free of the cancellation that plain sums of squares suffer when the mean is large.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

namespace wt {

class RunningStats {
 public:
  void add(double x) {
    if (n_ == 0) shift_ = x;
    const double d = x - shift_;
    ++n_;
    s1_ += d;
    s2_ += d * d;
  }
  std::size_t count() const { return n_; }
  std::optional<double> mean() const {
    return n_ ? std::optional(shift_ + s1_ / static_cast<double>(n_)) : std::nullopt;
  }
  // Sample standard deviation (n - 1), as the seed tool used.
  std::optional<double> stddev() const {
    if (n_ < 2) return std::nullopt;
    const double n = static_cast<double>(n_);
    return std::sqrt(std::max(0.0, (s2_ - s1_ * s1_ / n) / (n - 1)));
  }

 private:
  std::size_t n_ = 0;
  double shift_ = 0, s1_ = 0, s2_ = 0;
};

// Least-squares slope of y on x, one point at a time.
class RunningSlope {
 public:
  void add(double x, double y) {
    if (n_ == 0) {
      kx_ = x;
      ky_ = y;
    }
    const double dx = x - kx_, dy = y - ky_;
    ++n_;
    sx_ += dx;
    sy_ += dy;
    sxx_ += dx * dx;
    sxy_ += dx * dy;
  }
  std::size_t count() const { return n_; }
  std::optional<double> slope() const {
    if (n_ < 2) return std::nullopt;
    const double n = static_cast<double>(n_);
    const double var = sxx_ - sx_ * sx_ / n;
    if (!(var > 0)) return std::nullopt;
    return (sxy_ - sx_ * sy_ / n) / var;
  }

 private:
  std::size_t n_ = 0;
  double kx_ = 0, ky_ = 0, sx_ = 0, sy_ = 0, sxx_ = 0, sxy_ = 0;
};

}  // namespace wt
