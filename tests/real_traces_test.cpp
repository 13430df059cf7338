// Every real trace in ../shared replays and classifies without a single bad line. The traces
// are not ours to copy: they are read in place, and the tests skip where they are absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "classify/rule_classifier.hpp"
#include "pipeline/classify_stream.hpp"
#include "source/replay/nvidia_smi_csv.hpp"
#include "source/replay/replay_source.hpp"

namespace wt {
namespace {

namespace fs = std::filesystem;

// MANIFEST.csv: file -> rows (the manifest's own count of data rows).
std::map<std::string, std::size_t> manifest_rows(const fs::path& dir) {
  std::map<std::string, std::size_t> rows;
  std::ifstream in(dir / "MANIFEST.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string_view> f;
  while (std::getline(in, line)) {
    split_csv(line, f);
    if (f.size() > 8) rows[std::string(f[0])] = std::stoul(std::string(f[8]));
  }
  return rows;
}

void check_corpus(const char* name) {
  const fs::path dir = fs::path(WT_SHARED_DIR) / name;
  if (!fs::exists(dir)) GTEST_SKIP() << dir << " is absent: real-trace checks skipped";
  const auto rows = manifest_rows(dir);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".csv" || file == "MANIFEST.csv") continue;
    ++files;
    ReplaySource src(entry.path().string());
    const auto r = classify_stream(src, RuleClassifier(), {});
    for (const auto& d : r.diagnostics) EXPECT_FALSE(d.is_error) << d.text();
    ASSERT_FALSE(r.gpus.empty()) << file;
    std::size_t samples = 0;
    for (const auto& g : r.gpus) {
      samples += g.sample_count;
      EXPECT_FALSE(g.windows.empty()) << file << " GPU " << g.gpu.index;
    }
    ASSERT_TRUE(rows.count(file)) << file << " not in MANIFEST.csv";
    EXPECT_EQ(samples, rows.at(file)) << file;
  }
  EXPECT_GT(files, 0u);
}

}  // namespace

TEST(RealTraces, DeveloperCorpusReplaysCleanly) { check_corpus("real-traces"); }
TEST(RealTraces, B200CorpusReplaysCleanly) { check_corpus("real-traces-b200"); }

}  // namespace wt
