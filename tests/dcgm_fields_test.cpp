#include "source/prometheus/dcgm_fields.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_util.hpp"

namespace wt {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<Sample> samples_of(const std::string& page, DcgmReadings& r, Diagnostics& problems,
                               std::int64_t time_ms = 1'000'000) {
  const auto e = parse_exposition(page);
  for (const auto& p : e.points) r.add(p, time_ms, "test", problems);
  return r.take();
}

TEST(DcgmFields, ReadsAnExporterScrape) {
  DcgmReadings r;
  Diagnostics problems;
  const auto s = samples_of(read(test::fixture("dcgm/two-a100.metrics")), r, problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].time_s, 1000.0);
  EXPECT_EQ(s[0].gpu->index, 0);
  EXPECT_EQ(s[0].gpu->uuid, "GPU-0e2a3c51-8b1f-4d5e-9a7c-1f2e3d4c5b6a");
  EXPECT_EQ(s[0].gpu->name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(s[0].gpu->pci_bus_id, "00000000:07:00.0");
  EXPECT_EQ(s[1].gpu->index, 1);
  const SignalValues& v = s[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 97);  // the classic field wins over the profiling ratio
  EXPECT_EQ(v.get(Signal::MemUtil), 41);
  EXPECT_EQ(v.get(Signal::MemUsed), 76351);
  EXPECT_EQ(v.get(Signal::MemTotal), 76351 + 4102 + 631);  // used + free + reserved
  EXPECT_EQ(v.get(Signal::Power), 352.918);
  EXPECT_EQ(v.get(Signal::Temperature), 61);
  EXPECT_EQ(v.get(Signal::SmClock), 1410);
  EXPECT_EQ(v.get(Signal::MemClock), 1593);
  EXPECT_DOUBLE_EQ(*v.get(Signal::PcieTx), 52.4288);  // bytes/s -> MB/s
  EXPECT_DOUBLE_EQ(*v.get(Signal::PcieRx), 209.7152);
  EXPECT_FALSE(v.has(Signal::PowerLimit));
  EXPECT_EQ(s[0].gpu->host, "gpu-node-7");
  EXPECT_EQ(s[0].gpu->label(), "gpu-node-7/0");
  // The exporter's Kubernetes mode: GPU 0 belongs to a pod, GPU 1 (pod="") to none.
  ASSERT_TRUE(s[0].pods);
  EXPECT_EQ(*s[0].pods, PodNames{"serving/llm-serve-7d9f"});  // in its namespace
  ASSERT_TRUE(s[1].pods);
  EXPECT_TRUE(s[1].pods->empty());
}

TEST(DcgmFields, PodsOfASharedGpuAndTheirChanges) {
  DcgmReadings r;
  Diagnostics problems;
  const std::string two = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"b-pod\"} 50\n"
                          "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"a-pod\"} 50\n";
  const auto first = samples_of(two, r, problems, 1000);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(*first[0].pods, (PodNames{"a-pod", "b-pod"}));
  // The same values and pods: a repeat, dropped. The same values, one pod gone: kept.
  EXPECT_TRUE(samples_of(two, r, problems, 2000).empty());
  const auto changed = samples_of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"a-pod\"} 50\n", r, problems, 3000);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(*changed[0].pods, PodNames{"a-pod"});
  // Unchanged pods are shared, not copied per sample.
  const auto next = samples_of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"a-pod\"} 51\n", r, problems, 4000);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].pods.get(), changed[0].pods.get());
  // Without the exporter's Kubernetes mode there are no pod labels, and no pods at all.
  DcgmReadings plain;
  EXPECT_FALSE(samples_of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\"} 5\n", plain, problems)[0].pods);
}

TEST(DcgmFields, PodsAsPrometheusKeepsThemWithoutHonorLabels) {
  // Prometheus's Kubernetes discovery gives the exporter's own pod and namespace as target
  // labels; without honor_labels the exporter's clashing labels become exported_*.
  DcgmReadings r;
  Diagnostics problems;
  const auto s = samples_of(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",Hostname=\"dcgm-exporter-x7\",pod=\"dcgm-exporter-x7\","
      "namespace=\"gpu-operator\",exported_pod=\"vllm-0\",exported_namespace=\"team-b\"} 50\n"
      // A GPU no pod holds: the exporter's empty labels clash with nothing, the target's stay.
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"b\",Hostname=\"dcgm-exporter-x7\",pod=\"dcgm-exporter-x7\","
      "namespace=\"gpu-operator\"} 0\n"
      // With honor_labels: the exporter's own labels.
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\",UUID=\"c\",Hostname=\"dcgm-exporter-x7\",pod=\"vllm-0\",namespace=\"team-a\"} 50\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"3\",UUID=\"d\",Hostname=\"dcgm-exporter-x7\",pod=\"trainer-0\",namespace=\"\"} 50\n",
      r, problems);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(*s[0].pods, PodNames{"team-b/vllm-0"});
  ASSERT_TRUE(s[1].pods);
  EXPECT_TRUE(s[1].pods->empty());
  EXPECT_EQ(*s[2].pods, PodNames{"team-a/vllm-0"});  // another team's vllm-0: another pod
  EXPECT_EQ(*s[3].pods, PodNames{"trainer-0"});       // no namespace named
}

TEST(DcgmFields, ADeclarationLabelIsCarriedAsWrittenAndAsTheExporterNamesIt) {
  // dcgm-exporter --kubernetes-enable-pod-labels copies each pod label onto its GPU's series,
  // the label's name with every character but [A-Za-z0-9_] made '_'.
  DcgmReadings r(std::nullopt, "workloadtruth.io/declared");
  Diagnostics problems;
  const std::string page =
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"serve-0\",workloadtruth_io_declared=\"inference\"} 90\n"
      // Time-slicing: two pods on GPU 1 that say different things; GPU 2's pod says nothing.
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"b\",pod=\"x\",workloadtruth_io_declared=\"training\"} 50\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"b\",pod=\"y\",workloadtruth_io_declared=\"serving\"} 50\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\",UUID=\"c\",pod=\"z\"} 50\n";
  const auto s = samples_of(page, r, problems, 1000);
  ASSERT_EQ(s.size(), 3u);
  ASSERT_TRUE(s[0].declared);
  EXPECT_EQ(*s[0].declared, DeclaredValues{"inference"});
  EXPECT_EQ(*s[1].declared, (DeclaredValues{"serving", "training"}));  // judged by watch, not here
  ASSERT_TRUE(s[2].declared);
  EXPECT_TRUE(s[2].declared->empty());
  // A label changed on the same values is news; unchanged ones are shared, not copied.
  const auto relabelled = samples_of(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"serve-0\",workloadtruth_io_declared=\"training\"} 90\n",
      r, problems, 2000);
  ASSERT_EQ(relabelled.size(), 1u);
  EXPECT_EQ(*relabelled[0].declared, DeclaredValues{"training"});
  const auto next = samples_of(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",pod=\"serve-0\",workloadtruth_io_declared=\"training\"} 91\n",
      r, problems, 3000);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].declared.get(), relabelled[0].declared.get());
  // A name that needs no change is read as it is; with no name asked, nothing is carried.
  DcgmReadings own(std::nullopt, "declared");
  EXPECT_EQ(*samples_of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",declared=\"hpc\"} 5\n", own, problems)[0].declared,
            DeclaredValues{"hpc"});
  DcgmReadings plain;
  EXPECT_FALSE(samples_of(page, plain, problems)[0].declared);
}

TEST(DcgmFields, ProfilingCountersStandInWhereTheClassicFieldsAreMissing) {
  DcgmReadings r;
  Diagnostics problems;
  // Order does not matter: the classic utilization wins whichever comes first.
  auto s = samples_of(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\"} 50\nDCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"a\"} 0.9\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"1\",UUID=\"b\"} 0.9\nDCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"b\"} 60\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"2\",UUID=\"c\"} 0.25\nDCGM_FI_PROF_DRAM_ACTIVE{gpu=\"2\",UUID=\"c\"} 0.5\n"
      "DCGM_FI_DEV_POWER_MGMT_LIMIT{gpu=\"2\",UUID=\"c\"} 400\nDCGM_FI_DEV_ENFORCED_POWER_LIMIT{gpu=\"2\",UUID=\"c\"} 300\n",
      r, problems);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].values.get(Signal::GpuUtil), 50);
  EXPECT_EQ(s[1].values.get(Signal::GpuUtil), 60);
  EXPECT_EQ(s[2].values.get(Signal::GpuUtil), 25);
  EXPECT_EQ(s[2].values.get(Signal::MemUtil), 50);
  EXPECT_EQ(s[2].values.get(Signal::PowerLimit), 300);
}

TEST(DcgmFields, AbsurdValuesAreLeftMissingWithADiagnostic) {
  DcgmReadings r;
  Diagnostics problems;
  const auto s = samples_of(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"3\",UUID=\"a\"} 250\nDCGM_FI_DEV_POWER_USAGE{gpu=\"3\",UUID=\"a\"} NaN\n"
      "DCGM_FI_DEV_GPU_TEMP{gpu=\"3\",UUID=\"a\"} 40\nother_metric 1e99\n",
      r, problems);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_FALSE(s[0].values.has(Signal::GpuUtil));
  EXPECT_FALSE(s[0].values.has(Signal::Power));
  EXPECT_EQ(s[0].values.get(Signal::Temperature), 40);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].text(), "test: DCGM_FI_DEV_GPU_UTIL of GPU 3: 250 is outside the plausible range; left missing");
}

TEST(DcgmFields, ARepeatOfTheExportersLastRefreshIsDropped) {
  DcgmReadings r;
  Diagnostics problems;
  const std::string page = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\"} 50\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"a\"} 120.5\n";
  EXPECT_EQ(samples_of(page, r, problems, 1000).size(), 1u);
  EXPECT_EQ(samples_of(page, r, problems, 2000).size(), 0u);
  const auto changed = samples_of(page + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"a\"} 41\n", r, problems, 3000);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0].time_s, 3.0);
  // Samples of one GPU share one identity across takes.
  const auto again = samples_of("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\"} 51\n", r, problems, 4000);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].gpu.get(), changed[0].gpu.get());
}

TEST(DcgmFields, MigInstancesAndHostsAreToldApart) {
  DcgmReadings r;
  Diagnostics problems;
  const auto s = samples_of(
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-x\",GPU_I_ID=\"1\",GPU_I_PROFILE=\"3g.40gb\",Hostname=\"n1\"} 0.5\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",UUID=\"GPU-x\",GPU_I_ID=\"2\",GPU_I_PROFILE=\"3g.40gb\",Hostname=\"n1\"} 0.1\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n2\"} 7\n",
      r, problems);
  ASSERT_EQ(s.size(), 3u);
  std::set<std::string> keys;
  for (const auto& x : s) keys.insert(x.gpu->key());
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_TRUE(keys.contains("GPU-x/mig1"));
  std::set<std::string> hosts;
  for (const auto& x : s) hosts.insert(x.gpu->host);
  EXPECT_EQ(hosts, (std::set<std::string>{"n1", "n2"}));
}

TEST(DcgmFields, SamplesComeOutInTimeOrder) {
  DcgmReadings r;
  Diagnostics problems;
  for (std::int64_t t : {3000, 1000, 2000})
    for (const auto& p : parse_exposition("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\"} " + std::to_string(t / 100) +
                                          "\nDCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"b\"} 1\n")
                             .points)
      r.add(p, t, "test", problems);
  const auto s = r.take();
  ASSERT_EQ(s.size(), 4u);  // GPU 1's repeats of 1 % are dropped
  EXPECT_EQ(s[0].time_s, 1.0);
  EXPECT_EQ(s[0].gpu->index, 0);
  EXPECT_EQ(s[1].gpu->index, 1);
  EXPECT_EQ(s[2].time_s, 2.0);
  EXPECT_EQ(s[3].time_s, 3.0);
  EXPECT_EQ(s[3].values.get(Signal::GpuUtil), 30);
}

}  // namespace
}  // namespace wt
