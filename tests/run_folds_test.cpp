#include "eval/run_folds.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace wt {

TEST(RunFolds, ResultsInIndexOrderWhateverTheThreads) {
  for (unsigned jobs : {1u, 2u, 7u, 64u}) {
    std::set<std::size_t> finished;
    const auto out = run_folds<std::size_t>(
        20, jobs, [](std::size_t i) { return i * i; }, [&](std::size_t i) { finished.insert(i); });
    ASSERT_EQ(out.size(), 20u);
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i * i) << "jobs " << jobs;
    EXPECT_EQ(finished.size(), 20u);
  }
  EXPECT_TRUE(run_folds<int>(0, 4, [](std::size_t) { return 1; }, {}).empty());
}

TEST(RunFolds, ATaskThatThrowsIsRethrown) {
  for (unsigned jobs : {1u, 3u}) {
    std::atomic<int> ran{0};
    EXPECT_THROW(run_folds<int>(
                     50, jobs,
                     [&](std::size_t i) {
                       ++ran;
                       if (i == 2) throw std::runtime_error("fold 2 failed");
                       return 0;
                     },
                     {}),
                 std::runtime_error);
    if (jobs == 1) {
      EXPECT_EQ(ran.load(), 3);  // one thread stops at the failure
    }
  }
}

TEST(RunFolds, ZeroJobsMeansOnePerCore) { EXPECT_GE(resolve_jobs(0), 1u); EXPECT_EQ(resolve_jobs(3), 3u); }

}  // namespace wt
