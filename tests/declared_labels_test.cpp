#include "watch/declared_labels.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/diagnostic.hpp"
#include "test_util.hpp"

namespace wt::watch {
namespace {

std::optional<WorkloadType> type_of(const DeclaredLabels& labels, const GpuIdentity& gpu,
                                    const std::vector<ProcessIdentity>& processes = {}) {
  const DeclaredLookup d = labels.lookup(gpu, processes);
  return d.declaration ? std::optional(d.declaration->type) : std::nullopt;
}

DeclaredLabels labels_of(const std::string& lines) { return parse_mapping(lines, "m.txt"); }

const std::string kId = "3f2a9c1b7e4d" + std::string(52, 'a');
const GpuIdentity kGpu{0, "GPU-abc", "", "", ""};

}  // namespace

TEST(DeclaredLabels, FlagsByIndexAndUuid) {
  const auto labels = parse_declared_flags({"0=inference", "GPU-abc = Training"});
  EXPECT_EQ(type_of(labels, {0, "GPU-x", "", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(type_of(labels, {1, "GPU-abc", "", "", ""}), WorkloadType::Training);
  EXPECT_EQ(type_of(labels, {2, "GPU-y", "", "", ""}), std::nullopt);
}

TEST(DeclaredLabels, UuidWinsOverIndex) {
  const auto labels = parse_declared_flags({"0=inference", "GPU-abc=training"});
  EXPECT_EQ(type_of(labels, {0, "GPU-abc", "", "", ""}), WorkloadType::Training);
}

TEST(DeclaredLabels, HostAndIndexWinOverTheIndexOnEveryHost) {
  // A source that reads several hosts (Prometheus): HOST/INDEX names one GPU, INDEX that index
  // on every host; a host may be Prometheus's instance address, colon and all.
  const auto labels = parse_declared_flags({"0=inference", "n2/0=training", "10.0.0.7:9400/1=hpc"});
  EXPECT_EQ(type_of(labels, {0, "", "", "", "n1"}), WorkloadType::Inference);
  EXPECT_EQ(type_of(labels, {0, "", "", "", "n2"}), WorkloadType::Training);
  EXPECT_EQ(type_of(labels, {1, "", "", "", "10.0.0.7:9400"}), WorkloadType::Hpc);
  EXPECT_EQ(type_of(labels, {1, "", "", "", "n2"}), std::nullopt);
}

TEST(DeclaredLabels, BadFlagIsAUsageError) {
  EXPECT_THROW(parse_declared_flags({"0"}), std::invalid_argument);
  EXPECT_THROW(parse_declared_flags({"0=gaming"}), std::invalid_argument);
  EXPECT_THROW(parse_declared_flags({"=training"}), std::invalid_argument);
}

TEST(DeclaredLabels, MappingLinesAndJson) {
  const auto lines = parse_mapping("# owners\n0=inference\n\n GPU-abc = training \n", "m.txt");
  EXPECT_EQ(type_of(lines, {0, "", "", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(type_of(lines, {5, "GPU-abc", "", "", ""}), WorkloadType::Training);
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
  EXPECT_EQ(type_of(file.labels(), {0, "", "", "", ""}), WorkloadType::Inference);
  EXPECT_EQ(file.refresh(), std::nullopt);

  std::ofstream(path) << "0=training\n1=idle\n";
  EXPECT_EQ(file.refresh(), std::nullopt);
  EXPECT_EQ(type_of(file.labels(), {0, "", "", "", ""}), WorkloadType::Training);

  std::ofstream(path) << "0=training\n1=sleeping\n";
  const auto warning = file.refresh();
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("mapping.txt:2"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("keeping the previous"), std::string::npos);
  EXPECT_EQ(type_of(file.labels(), {1, "", "", "", ""}), WorkloadType::Idle);

  std::filesystem::remove(path);
  EXPECT_TRUE(file.refresh().has_value());
  EXPECT_EQ(file.refresh(), std::nullopt);  // said once
  EXPECT_EQ(type_of(file.labels(), {0, "", "", "", ""}), WorkloadType::Training);
}

TEST(DeclaredLabels, ProcessContainerAndPodKeysMatchWhatRunsOnTheGpu) {
  const auto labels = labels_of("process:python=training\ncontainer:3F2A9C1B7E4D=inference\npod:llm-serve-7d9f=hpc\n");
  EXPECT_TRUE(labels.has_process_keys());
  const ProcessIdentity python{11, "python", "", "", ""}, contained{12, "bash", kId, "", ""},
      pod{13, "x", "", "llm-serve-7d9f", ""};
  EXPECT_EQ(type_of(labels, kGpu, {python}), WorkloadType::Training);
  EXPECT_EQ(type_of(labels, kGpu, {contained}), WorkloadType::Inference);  // a prefix, any case
  EXPECT_EQ(type_of(labels, kGpu, {pod}), WorkloadType::Hpc);
  EXPECT_EQ(type_of(labels, kGpu, {{14, "pythonx", "", "", ""}}), std::nullopt);
  EXPECT_EQ(type_of(labels, kGpu), std::nullopt);
  const DeclaredLookup d = labels.lookup(kGpu, std::vector{contained});
  ASSERT_TRUE(d.declaration);
  EXPECT_EQ(d.declaration->key, "container:3F2A9C1B7E4D");  // as written
  EXPECT_FALSE(labels_of("0=training\n").has_process_keys());
}

TEST(DeclaredLabels, PrecedenceGpuThenPodThenContainerThenProcess) {
  const auto labels = labels_of("GPU-abc=mining\n0=graphics\npod:p=hpc\ncontainer:" + kId.substr(0, 12) +
                                "=inference\nprocess:python=training\n");
  const ProcessIdentity all{11, "python", kId, "p", ""}, no_pod{11, "python", kId, "", ""},
      bare{11, "python", "", "", ""};
  auto key = [&](const GpuIdentity& gpu, const ProcessIdentity& p) {
    return labels.lookup(gpu, std::vector{p}).declaration->key;
  };
  EXPECT_EQ(key(kGpu, all), "GPU-abc");
  EXPECT_EQ(key({0, "GPU-other", "", "", ""}, all), "0");
  EXPECT_EQ(key({1, "GPU-other", "", "", ""}, all), "pod:p");
  EXPECT_EQ(key({1, "", "", "", ""}, no_pod), "container:" + kId.substr(0, 12));
  EXPECT_EQ(key({1, "", "", "", ""}, bare), "process:python");
  // A process declared at a lower level does not override another's declaration at a higher one.
  EXPECT_EQ(type_of(labels, {1, "", "", "", ""}, {bare, {12, "vllm", "", "p", ""}}), WorkloadType::Hpc);
}

TEST(DeclaredLabels, SlurmJobKeysComeAfterPodsAndBeforeContainers) {
  const auto labels = labels_of("slurm:4242=inference\ncontainer:" + kId.substr(0, 12) + "=mining\npod:p=hpc\n");
  EXPECT_TRUE(labels.has_process_keys());
  EXPECT_TRUE(labels_of("slurm:1=training\n").has_process_keys());
  const ProcessIdentity in_job{11, "python", kId, "", "4242"}, in_pod_too{11, "python", kId, "p", "4242"};
  EXPECT_EQ(type_of(labels, kGpu, {in_job}), WorkloadType::Inference);
  EXPECT_EQ(type_of(labels, kGpu, {in_pod_too}), WorkloadType::Hpc);
  EXPECT_EQ(type_of(labels, kGpu, {{11, "python", kId, "", "4243"}}), WorkloadType::Mining);  // another job
  EXPECT_EQ(labels.lookup(kGpu, std::vector{in_job}).declaration->key, "slurm:4242");
  EXPECT_THROW(parse_declared_flags({"slurm:4242_7=training"}), std::invalid_argument);  // an array task's own ID
}

TEST(DeclaredLabels, LongestContainerPrefixAndKubernetesIdsWin) {
  const auto labels = labels_of("container:" + kId.substr(0, 12) + "=training\ncontainer:containerd://" +
                                kId.substr(0, 20) + "=inference\n");
  EXPECT_EQ(type_of(labels, kGpu, {{1, "", kId, "", ""}}), WorkloadType::Inference);
  EXPECT_EQ(type_of(labels, kGpu, {{1, "", kId.substr(0, 12) + std::string(52, 'b'), "", ""}}), WorkloadType::Training);
}

TEST(DeclaredLabels, ProcessNamesAreComparedAsTheKernelTruncatesThem) {
  const auto labels = labels_of("process:tritonserver-launcher=inference\n");
  EXPECT_EQ(type_of(labels, kGpu, {{1, "tritonserver-la", "", "", ""}}), WorkloadType::Inference);
}

TEST(DeclaredLabels, ProcessesDeclaredDifferentlyAreAConflictAndNoDeclaration) {
  const auto labels = labels_of("process:python=training\nprocess:vllm=inference\n");
  const DeclaredLookup d = labels.lookup(
      kGpu, std::vector<ProcessIdentity>{
                {11, "python", "", "", ""}, {12, "vllm", "", "", ""}, {13, "python", "", "", ""}});
  EXPECT_FALSE(d.declaration);
  EXPECT_EQ(d.conflict, "process:python=TRAINING (pid 11, 13); process:vllm=INFERENCE (pid 12)");
  // Two keys that agree are no conflict; both are named.
  const auto agree = labels_of("process:python=training\nprocess:torchrun=training\n");
  const DeclaredLookup a =
      agree.lookup(kGpu, std::vector<ProcessIdentity>{{11, "python", "", "", ""}, {12, "torchrun", "", "", ""}});
  ASSERT_TRUE(a.declaration);
  EXPECT_EQ(a.declaration->key, "process:python, process:torchrun");
  EXPECT_TRUE(a.conflict.empty());
}

TEST(DeclaredLabels, PodsASourceNamesComeWithNoPid) {
  // A GPU shared by two pods (dcgm-exporter names both), declared differently.
  const auto labels = labels_of("pod:trainer-0=training\npod:llm-serve=inference\n");
  const DeclaredLookup d =
      labels.lookup(kGpu, std::vector<ProcessIdentity>{{0, "", "", "llm-serve", ""}, {0, "", "", "trainer-0", ""}});
  EXPECT_FALSE(d.declaration);
  EXPECT_EQ(d.conflict, "pod:llm-serve=INFERENCE (named by the source); pod:trainer-0=TRAINING (named by the source)");
  EXPECT_EQ(type_of(labels, kGpu, {{0, "", "", "trainer-0", ""}}), WorkloadType::Training);
}

TEST(DeclaredLabels, ASeriesLabelDeclaresWhenItsValuesAgree) {
  const std::string key = "label:workloadtruth_io_declared";
  std::vector<std::string> ignored;
  const std::vector<std::string> one{"Inference"};
  DeclaredLookup d = lookup_declared_values(key, one, ignored);
  ASSERT_TRUE(d.declaration);
  EXPECT_EQ(d.declaration->type, WorkloadType::Inference);
  EXPECT_EQ(d.declaration->key, "label:workloadtruth_io_declared");
  EXPECT_TRUE(ignored.empty());
  // Pods sharing the GPU that say different things: a conflict, no declaration.
  const std::vector<std::string> two{"inference", "training"};
  d = lookup_declared_values(key, two, ignored);
  EXPECT_FALSE(d.declaration);
  EXPECT_EQ(d.conflict, "label:workloadtruth_io_declared=inference; label:workloadtruth_io_declared=training");
  // A value that names no type is left out, and said.
  const std::vector<std::string> odd{"serving", "training"};
  d = lookup_declared_values(key, odd, ignored);
  ASSERT_TRUE(d.declaration);
  EXPECT_EQ(d.declaration->type, WorkloadType::Training);
  EXPECT_EQ(ignored, std::vector<std::string>{"serving"});
  ignored.clear();
  const std::vector<std::string> only_odd{"serving"};
  d = lookup_declared_values(key, only_odd, ignored);
  EXPECT_FALSE(d.declaration);
  EXPECT_TRUE(d.conflict.empty());
  EXPECT_EQ(ignored.size(), 1u);
}

TEST(DeclaredLabels, BadProcessKeysNameFileAndLine) {
  auto error = [](const std::string& text) {
    try {
      parse_mapping(text, "m.txt");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(
      error("0=idle\nuser:bob=training\n"),
      "m.txt:2: 'user:bob': unknown key kind 'user:' (process:, container:, pod:, slurm:, or a GPU index, HOST/INDEX or UUID)");
  EXPECT_EQ(error("container:3f2a=training\n"),
            "m.txt:1: 'container:3f2a': a container ID is 12 to 64 hex digits (the full ID or a prefix)");
  EXPECT_EQ(error("pod:=training\n"), "m.txt:1: 'pod:' names no pod");
  EXPECT_EQ(error(R"({"process:": "training"})"), "m.txt: 'process:' names no process");
  EXPECT_THROW(parse_declared_flags({"container:xyz=training"}), std::invalid_argument);
  EXPECT_TRUE(type_of(parse_declared_flags({"process:python=training"}), kGpu, {{1, "python", "", "", ""}}));
}

TEST(DeclaredLabels, PodKeysWithAndWithoutANamespace) {
  const auto labels = labels_of("pod:vllm-0=inference\npod:team-b/vllm-0=training\n");
  const ProcessIdentity team_a{0, "", "", "team-a/vllm-0", ""}, team_b{0, "", "", "team-b/vllm-0", ""},
      unqualified{13, "x", "", "vllm-0", ""};
  EXPECT_EQ(type_of(labels, kGpu, {team_a}), WorkloadType::Inference);  // a name alone: any namespace
  EXPECT_EQ(type_of(labels, kGpu, {team_b}), WorkloadType::Training);   // its own namespace's key first
  EXPECT_EQ(type_of(labels, kGpu, {unqualified}), WorkloadType::Inference);
  EXPECT_EQ(type_of(labels_of("pod:team-b/vllm-0=training\n"), kGpu, {team_a}), std::nullopt);
  EXPECT_EQ(type_of(labels_of("pod:team-b/vllm-0=training\n"), kGpu, {unqualified}), std::nullopt);
  std::string why;
  DeclaredLabels bad;
  for (const char* key : {"pod:/vllm-0", "pod:team-b/", "pod:a/b/c"}) {
    EXPECT_FALSE(bad.set(key, WorkloadType::Training, why)) << key;
    EXPECT_EQ(why, "'" + std::string(key) + "': a pod is NAME (in any namespace) or NAMESPACE/NAME");
  }
}

TEST(DeclaredLabels, MissingMappingFileIsAnError) { EXPECT_THROW(MappingFile("/nonexistent/mapping.txt"), InputError); }

}  // namespace wt::watch
