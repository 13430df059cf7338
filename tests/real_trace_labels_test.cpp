// Labels of real-trace directories: MANIFEST.csv first, file names otherwise, and clear errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/diagnostic.hpp"
#include "train/real_traces.hpp"

namespace wt {
namespace {

namespace fs = std::filesystem;

// A fresh directory holding the given files (name -> content).
fs::path make_dir(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path dir = fs::temp_directory_path() / ("wt_real_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [file, content] : files) std::ofstream(dir / file) << content;
  return dir;
}

std::string error_of(const fs::path& dir) {
  try {
    list_real_traces(dir.string());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RealTraceLabels, FileNamesWithoutManifest) {
  const auto dir = make_dir("names", {{"training__lab__run1.csv", ""}, {"notes.csv", ""}, {"hpc__x.csv", ""}});
  const auto t = list_real_traces(dir.string());
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].file, "hpc__x.csv");
  EXPECT_EQ(t[0].source, "names");  // no source part in the name: the directory's
  EXPECT_EQ(t[1].label, WorkloadType::Training);
  EXPECT_EQ(t[1].source, "lab");
  EXPECT_EQ(t[0].run, "hpc__x");  // what names no source keeps its whole name
  EXPECT_EQ(t[1].run, "run1");
}

TEST(RealTraceLabels, ManifestLabelsAnyFileAndWinsOverTheName) {
  const auto dir = make_dir("manifest", {{"MANIFEST.csv",
                                          "file,label,source,notes\n"
                                          "run7.csv,inference,cluster-a,\"batch, 8 GPUs\"\n"
                                          "training__lab__relabelled.csv,HPC,,\n"
                                          "\n"},
                                         {"run7.csv", ""},
                                         {"training__lab__relabelled.csv", ""},
                                         {"idle__lab__quiet.csv", ""},
                                         {"unlisted.csv", ""}});
  const auto t = list_real_traces(dir.string());
  ASSERT_EQ(t.size(), 3u);  // unlisted.csv has neither a manifest entry nor a label prefix
  EXPECT_EQ(t[0].file, "idle__lab__quiet.csv");
  EXPECT_EQ(t[0].label, WorkloadType::Idle);
  EXPECT_EQ(t[1].file, "run7.csv");
  EXPECT_EQ(t[1].label, WorkloadType::Inference);
  EXPECT_EQ(t[1].source, "cluster-a");
  EXPECT_EQ(t[2].label, WorkloadType::Hpc);
  EXPECT_EQ(t[2].source, "lab");  // empty source column: from the name
  EXPECT_EQ(t[1].run, "run7");
  EXPECT_EQ(t[2].run, "relabelled");
}

TEST(RealTraceLabels, ManifestErrorsNameTheLine) {
  const auto bad_label = make_dir("bad_label", {{"MANIFEST.csv", "file,label\na.csv,training\nb.csv,cooking\n"},
                                                {"a.csv", ""},
                                                {"b.csv", ""}});
  EXPECT_NE(error_of(bad_label).find("MANIFEST.csv:3: unknown label 'cooking'"), std::string::npos)
      << error_of(bad_label);
  EXPECT_NE(error_of(bad_label).find("(expected one of training, inference, idle, hpc, mining, graphics, unknown)"),
            std::string::npos);
  const auto missing = make_dir("missing", {{"MANIFEST.csv", "file,label\ngone.csv,idle\n"}});
  EXPECT_NE(error_of(missing).find("MANIFEST.csv:2: 'gone.csv' is not in"), std::string::npos) << error_of(missing);
  const auto escape = make_dir("escape", {{"MANIFEST.csv", "file,label\n../names/training__lab__run1.csv,idle\n"}});
  EXPECT_NE(error_of(escape).find("MANIFEST.csv:2: '../names/training__lab__run1.csv' must be a file name in"),
            std::string::npos)
      << error_of(escape);
  const auto no_header = make_dir("no_header", {{"MANIFEST.csv", "name,kind\na.csv,idle\n"}});
  EXPECT_NE(error_of(no_header).find("MANIFEST.csv:1: the header needs a 'file' and a 'label' column"),
            std::string::npos)
      << error_of(no_header);
  const auto short_row = make_dir("short_row", {{"MANIFEST.csv", "file,notes,label\na.csv\n"}, {"a.csv", ""}});
  EXPECT_NE(error_of(short_row).find("MANIFEST.csv:2: expected at least 3 fields"), std::string::npos)
      << error_of(short_row);
}

}  // namespace
}  // namespace wt
