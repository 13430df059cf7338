#include "watch/declaration_sources.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.hpp"

namespace wt::watch {
namespace {

GpuIdentity gpu0() { return GpuIdentity{0, "GPU-a", "NVIDIA A100-SXM4-80GB", "", "node-7"}; }

TEST(DeclarationSources, TheOperatorsWordWinsOverTheSeriesLabel) {
  const ProcessResolver resolver("/nonexistent");
  std::vector<std::string> warnings;
  auto warn = [&warnings](const std::string& w) { warnings.push_back(w); };
  const std::vector<std::string> says_inference{"inference"};
  const GpuOccupancy on{{}, {}, says_inference};

  DeclarationSources label_only(DeclaredLabels{}, nullptr, "team_declared", resolver, warn);
  DeclaredLookup d = label_only.lookup(gpu0(), on);
  ASSERT_TRUE(d.declaration);
  EXPECT_EQ(d.declaration->key, "label:team_declared");
  EXPECT_EQ(d.declaration->type, WorkloadType::Inference);

  MappingFile file(test::write_temp("owners.txt", "node-7/0=hpc\n"));
  DeclarationSources with_file(DeclaredLabels{}, &file, "team_declared", resolver, warn);
  EXPECT_EQ(with_file.lookup(gpu0(), on).declaration->key, "node-7/0");

  DeclarationSources with_flags(parse_declared_flags({"GPU-a=training"}), &file, "team_declared", resolver, warn);
  EXPECT_EQ(with_flags.lookup(gpu0(), on).declaration->key, "GPU-a");

  DeclarationSources no_label(DeclaredLabels{}, nullptr, "", resolver, warn);
  EXPECT_FALSE(no_label.lookup(gpu0(), on).declaration);
  EXPECT_TRUE(warnings.empty());
}

TEST(DeclarationSources, ConflictsAndValuesNamingNoTypeAreSaidOnceAsTheyChange) {
  const ProcessResolver resolver("/nonexistent");
  std::vector<std::string> warnings;
  DeclarationSources sources(DeclaredLabels{}, nullptr, "team_declared", resolver,
                             [&warnings](const std::string& w) { warnings.push_back(w); });
  const std::vector<std::string> odd{"serving"}, disagree{"inference", "training"}, fine{"training"};
  sources.lookup(gpu0(), {{}, {}, odd});
  sources.lookup(gpu0(), {{}, {}, odd});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "GPU node-7/0: label:team_declared says 'serving', not a workload type (" +
                             workload_type_names() + "); ignored");
  const DeclaredLookup d = sources.lookup(gpu0(), {{}, {}, disagree});
  sources.lookup(gpu0(), {{}, {}, disagree});
  EXPECT_FALSE(d.declaration);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[1], "GPU node-7/0: declarations conflict, so none applies: " + d.conflict);
  // Mended, then broken again: said again.
  EXPECT_TRUE(sources.lookup(gpu0(), {{}, {}, fine}).declaration);
  sources.lookup(gpu0(), {{}, {}, odd});
  EXPECT_EQ(warnings.size(), 3u);
}

TEST(DeclarationSources, TheProcessesEnvironmentDeclaresWhereAsked) {
  using namespace std::string_literals;
  const auto root = std::filesystem::path(test::write_temp("env_proc.marker", "")).parent_path() / "env_proc";
  std::filesystem::remove_all(root);
  for (const auto& [pid, value] : {std::pair{11, "training"}, std::pair{12, "Training"}, std::pair{13, "inference"}}) {
    std::filesystem::create_directories(root / std::to_string(pid));
    std::ofstream(root / std::to_string(pid) / "environ", std::ios::binary) << "WT_DECLARED="s + value + "\0"s;
  }
  const ProcessResolver resolver(root.string(), "WT_DECLARED");
  std::vector<std::string> warnings;
  DeclarationSources sources(DeclaredLabels{}, nullptr, "", resolver,
                             [&warnings](const std::string& w) { warnings.push_back(w); });
  const std::vector<std::uint32_t> agree{11, 12, 99}, disagree{11, 13};  // 99: exited, says nothing
  DeclaredLookup d = sources.lookup(gpu0(), {agree, {}, {}});
  ASSERT_TRUE(d.declaration);
  EXPECT_EQ(d.declaration->type, WorkloadType::Training);
  EXPECT_EQ(d.declaration->key, "env:WT_DECLARED");
  d = sources.lookup(gpu0(), {disagree, {}, {}});
  EXPECT_FALSE(d.declaration);
  EXPECT_EQ(d.conflict, "env:WT_DECLARED=inference; env:WT_DECLARED=training");
  EXPECT_EQ(warnings.size(), 1u);
  // The operator's word still wins.
  DeclarationSources flagged(parse_declared_flags({"0=hpc"}), nullptr, "", resolver, [](const std::string&) {});
  EXPECT_EQ(flagged.lookup(gpu0(), {disagree, {}, {}}).declaration->key, "0");
}

}  // namespace
}  // namespace wt::watch
