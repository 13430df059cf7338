#include "watch/declared_labels.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/diagnostic.hpp"
#include "test_util.hpp"

namespace wt::watch {

TEST(DeclaredLabels, FlagsByIndexAndUuid) {
  const auto labels = parse_declared_flags({"0=inference", "GPU-abc = Training"});
  EXPECT_EQ(labels.lookup({0, "GPU-x", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(labels.lookup({1, "GPU-abc", "", ""}), WorkloadType::Training);
  EXPECT_EQ(labels.lookup({2, "GPU-y", "", ""}), std::nullopt);
}

TEST(DeclaredLabels, UuidWinsOverIndex) {
  const auto labels = parse_declared_flags({"0=inference", "GPU-abc=training"});
  EXPECT_EQ(labels.lookup({0, "GPU-abc", "", ""}), WorkloadType::Training);
}

TEST(DeclaredLabels, BadFlagIsAUsageError) {
  EXPECT_THROW(parse_declared_flags({"0"}), std::invalid_argument);
  EXPECT_THROW(parse_declared_flags({"0=gaming"}), std::invalid_argument);
  EXPECT_THROW(parse_declared_flags({"=training"}), std::invalid_argument);
}

TEST(DeclaredLabels, MappingLinesAndJson) {
  const auto lines = parse_mapping("# owners\n0=inference\n\n GPU-abc = training \n", "m.txt");
  EXPECT_EQ(lines.lookup({0, "", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(lines.lookup({5, "GPU-abc", "", ""}), WorkloadType::Training);
  EXPECT_EQ(parse_mapping(R"({"0": "inference", "GPU-abc": "training"})", "m.json"), lines);
}

TEST(DeclaredLabels, BadMappingNamesFileAndLine) {
  try {
    parse_mapping("0=inference\n1 training\n", "m.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "m.txt:2: '1 training' is not KEY=type");
  }
  EXPECT_THROW(parse_mapping(R"({"0": 3})", "m.json"), InputError);
  EXPECT_THROW(parse_mapping(R"({"0": "inference")", "m.json"), InputError);
}

TEST(DeclaredLabels, MappingFileIsReReadAndABadEditKeepsThePrevious) {
  const std::string path = test::write_temp("mapping.txt", "0=inference\n");
  MappingFile file(path);
  EXPECT_EQ(file.labels().lookup({0, "", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(file.refresh(), std::nullopt);

  std::ofstream(path) << "0=training\n1=idle\n";
  EXPECT_EQ(file.refresh(), std::nullopt);
  EXPECT_EQ(file.labels().lookup({0, "", "", ""}), WorkloadType::Training);

  std::ofstream(path) << "0=training\n1=sleeping\n";
  const auto warning = file.refresh();
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("mapping.txt:2"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("keeping the previous"), std::string::npos);
  EXPECT_EQ(file.labels().lookup({1, "", "", ""}), WorkloadType::Idle);

  std::filesystem::remove(path);
  EXPECT_TRUE(file.refresh().has_value());
  EXPECT_EQ(file.refresh(), std::nullopt);  // said once
  EXPECT_EQ(file.labels().lookup({0, "", "", ""}), WorkloadType::Training);
}

TEST(DeclaredLabels, MissingMappingFileIsAnError) { EXPECT_THROW(MappingFile("/nonexistent/mapping.txt"), InputError); }

}  // namespace wt::watch
