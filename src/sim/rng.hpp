// A small, fast, seedable generator (xoshiro256**), so traces are identical on every platform:
// std::normal_distribution differs between standard libraries, this does not.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace wt::sim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& s : s_) s = splitmix(seed);
  }
  std::uint64_t bits() {
    const std::uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  double uniform() { return static_cast<double>(bits() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Log-uniform: for scale parameters (model size, iteration time) spread over decades.
  double log_uniform(double lo, double hi) { return lo * std::exp(std::log(hi / lo) * uniform()); }
  int integer(int lo, int hi) { return lo + static_cast<int>(uniform() * (hi - lo + 1)); }  // [lo, hi]
  bool chance(double p) { return uniform() < p; }
  double normal(double mean, double sd) {  // Box-Muller, one value per call for simplicity
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }
  // Multiplicative jitter around 1 (relative sd), never negative.
  double jitter(double rel_sd) { return std::max(0.0, normal(1.0, rel_sd)); }
  // A new independent stream derived from this one (per GPU, per sub-workload).
  Rng fork() { return Rng(bits()); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

}  // namespace wt::sim
