// Held-out folds are independent retrainings (XGBoost on one thread each, so each is
// reproducible bit for bit): run several side by side.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wt {

// One per core when asked for 0.
inline unsigned resolve_jobs(unsigned jobs) { return jobs ? jobs : std::max(1u, std::thread::hardware_concurrency()); }

// Calls task(i) for every i in [0, n) on up to `jobs` threads and returns the results in index
// order, whatever order they finish in. finished(i) runs under a lock after each task (for
// progress). The first exception a task throws is rethrown once every thread has stopped; tasks
// not yet started then never start.
template <class R>
std::vector<R> run_folds(std::size_t n, unsigned jobs, const std::function<R(std::size_t)>& task,
                         const std::function<void(std::size_t)>& finished) {
  std::vector<R> out(n);
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::exception_ptr error;
  const auto worker = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      {
        const std::lock_guard lock(m);
        if (error) return;
      }
      try {
        R r = task(i);
        const std::lock_guard lock(m);
        out[i] = std::move(r);
        if (finished) finished(i);
      } catch (...) {
        const std::lock_guard lock(m);
        if (!error) error = std::current_exception();
        return;
      }
    }
  };
  {
    std::vector<std::jthread> helpers;  // joined on leaving the block, even if a later one fails to start
    for (std::size_t t = 1; t < std::min<std::size_t>(resolve_jobs(jobs), n); ++t) helpers.emplace_back(worker);
    worker();
  }
  if (error) std::rethrow_exception(error);
  return out;
}

}  // namespace wt
