// AmdSource against the fake librocm_smi64.so (tests/fake_rocm), which replays
// tests/fixtures/rocm/*.txt, as a ROCm 5 or a ROCm 6 library as the fixture says.
#include "source/amd/amd_source.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "source/amd/rocm_smi_library.hpp"
#include "test_util.hpp"

namespace {

using wt::Signal;

using wt::test::ScopedEnv;

testing::AssertionResult fake_rocm_found() {
  return wt::test::fake_library_found("librocm_smi64.so", "wt_fake_rocm_smi");
}

wt::AmdOptions options(std::size_t samples, std::optional<int> gpu = std::nullopt, double interval_s = 0.001) {
  wt::AmdOptions o;
  o.samples = samples;
  o.interval_s = interval_s;
  o.gpu = gpu;
  o.amd_smi_libraries = {"libamd_smi-not-installed.so"};  // a host with ROCm SMI only
  o.rocm_smi_libraries = {"librocm_smi64.so"};
  o.pcie_min_interval_s = 0;  // the fake answers at once; the real call takes a second
  o.kfd_root = wt::test::fixture("kfd/not-an-amdgpu-host");  // not this machine's /sys
  return o;
}

[[nodiscard]] ScopedEnv use_fixture(const std::string& name) {
  return {"FAKE_RSMI_FIXTURE", wt::test::fixture("rocm/" + name)};
}

TEST(AmdSource, FirstPollConvertsEveryUnit) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 98);
  EXPECT_EQ(v.get(Signal::MemUtil), 40);
  EXPECT_EQ(v.get(Signal::MemUsed), 32768);   // bytes -> MiB
  EXPECT_EQ(v.get(Signal::MemTotal), 65520);  // bytes -> MiB
  EXPECT_EQ(v.get(Signal::Power), 480);       // µW -> W: power_ave, as the energy counter needs two readings
  EXPECT_EQ(v.get(Signal::PowerLimit), 560);  // µW -> W
  EXPECT_EQ(v.get(Signal::Temperature), 52);  // m°C -> °C, edge sensor
  EXPECT_EQ(v.get(Signal::SmClock), 1700);    // Hz -> MHz, ROCm 5 rsmi_frequencies_t
  EXPECT_EQ(v.get(Signal::MemClock), 1600);
  EXPECT_EQ(v.get(Signal::PcieTx), 0.256);  // 1000 packets x 256 B in a second -> MB/s
  EXPECT_EQ(v.get(Signal::PcieRx), 0.512);
  EXPECT_FALSE(v.has(Signal::NvlinkTx));
  EXPECT_FALSE(v.has(Signal::ProcessCount));
  EXPECT_EQ(source.describe(), "amd");
  EXPECT_EQ(source.gpu_count(), 2U);
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdSource, ZeroIsAReadingAndTheJunctionSensorStandsInForAMissingEdge) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  const wt::SignalValues& idle = samples[1].values;
  EXPECT_EQ(idle.get(Signal::GpuUtil), 0);
  EXPECT_EQ(idle.get(Signal::MemUtil), 0);
  EXPECT_EQ(idle.get(Signal::Temperature), 45);
  EXPECT_EQ(idle.get(Signal::SmClock), 800);
}

TEST(AmdSource, IdentityComesFromTheLibrary) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(2));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 4U);
  const wt::GpuIdentity& gcd0 = *samples[0].gpu;
  EXPECT_EQ(gcd0.index, 0);
  EXPECT_EQ(gcd0.name, "AMD Instinct MI250X");
  EXPECT_EQ(gcd0.uuid, "0x3c2e7a1f00d4b2a1");
  EXPECT_EQ(gcd0.pci_bus_id, "0000:c1:00.0");
  EXPECT_EQ(samples[1].gpu->pci_bus_id, "0000:c6:00.0");
  EXPECT_NE(gcd0.key(), samples[1].gpu->key());
  EXPECT_EQ(samples[0].gpu.get(), samples[2].gpu.get());
}

TEST(AmdSource, ProcessesComeFromTheDriversListByPciAddress) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  {
    wt::AmdSource no_kfd(options(1));
    for (const wt::Sample& s : wt::test::drain(no_kfd)) EXPECT_EQ(s.processes, nullptr);  // unknown, not none
  }
  wt::AmdOptions o = options(2);
  o.kfd_root = wt::test::fixture("kfd/mi250x");
  wt::AmdSource source(o);
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 4U);
  ASSERT_TRUE(samples[0].processes && samples[1].processes);
  EXPECT_EQ(*samples[0].processes, (wt::ProcessIds{4243, 4301}));
  EXPECT_EQ(*samples[1].processes, (wt::ProcessIds{4250, 4301}));
  EXPECT_EQ(samples[2].processes.get(), samples[0].processes.get());  // listed again every 5 s, shared
}

TEST(AmdSource, LaterPollsTakePowerFromTheEnergyCounter) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(3));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 6U);
  // 20000000 steps of 15.3 µJ in 1 s = 306 W, though power_ave says 490 W.
  EXPECT_NEAR(*samples[2].values.get(Signal::Power), 306, 1e-3);
  // 5000000 steps in 1 s = 76.5 W on the idle GCD.
  EXPECT_NEAR(*samples[3].values.get(Signal::Power), 76.5, 1e-3);
  // Poll 2: power_ave fails, but the energy counter still gives power.
  EXPECT_NEAR(*samples[4].values.get(Signal::Power), 306, 1e-3);
}

TEST(AmdSource, UnsupportedIsMissingNotZeroAndErrorsAreReportedOnce) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(5, 0));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 5U);
  EXPECT_FALSE(samples[1].values.has(Signal::MemUtil));  // not supported: no diagnostic
  EXPECT_EQ(samples[1].values.get(Signal::GpuUtil), 99);
  // Poll 3: power_ave fails and the energy counter is not supported: no power, not 0 W.
  EXPECT_FALSE(samples[3].values.has(Signal::Power));
  EXPECT_EQ(samples[3].values.get(Signal::PowerLimit), 560);
  // Poll 4: the counter is back, but a rate needs two readings: power_ave's 470 W.
  EXPECT_EQ(samples[4].values.get(Signal::Power), 470);
  const wt::Diagnostics d = source.diagnostics();
  ASSERT_EQ(d.size(), 1U);  // power_ave failed twice, reported once
  EXPECT_NE(d[0].text().find("GPU 0 (0x3c2e7a1f00d4b2a1): rsmi_dev_power_ave_get failed: RSMI_STATUS_PERMISSION"),
            std::string::npos)
      << d[0].text();
  EXPECT_TRUE(d[0].is_error);
}

TEST(AmdSource, GoneGpuIsReportedAndTheOtherKeepsStreaming) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(5));
  const auto samples = wt::test::drain(source);
  std::vector<int> order;
  for (const wt::Sample& s : samples) order.push_back(s.gpu->index);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 0}));
  bool gone = false;
  for (const wt::Diagnostic& d : source.diagnostics())
    gone = gone || d.text().find(
                       "GPU 1 (0x5a1b2c3d4e5f6071): GPU is gone (rsmi_dev_busy_percent_get: "
                       "RSMI_STATUS_FILE_ERROR") == 0;
  EXPECT_TRUE(gone);
}

TEST(AmdSource, EndsWhenEveryGpuIsGone) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(6, 1));
  EXPECT_EQ(wt::test::drain(source).size(), 3U);
  wt::Sample s;
  EXPECT_FALSE(source.next(s));
}

TEST(AmdSource, Rocm6FrequencyLayoutIsDecodedByVersion) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi300x_rocm6.txt");
  wt::AmdSource source(options(2));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  // Read with the ROCm 5 layout, has_deep_sleep would be taken for num_supported (1) and the
  // real count (2) for the current level: an impossible table.
  EXPECT_EQ(samples[0].values.get(Signal::SmClock), 2100);
  EXPECT_EQ(samples[0].values.get(Signal::MemClock), 1300);
  EXPECT_TRUE(source.diagnostics().empty());
  const wt::GpuIdentity& gpu = *samples[0].gpu;
  EXPECT_EQ(gpu.uuid, "");  // no unique id: identified by the PCI address
  EXPECT_EQ(gpu.pci_bus_id, "0001:0c:00.0");
  EXPECT_EQ(gpu.key(), "0001:0c:00.0");
  EXPECT_EQ(samples[0].values.get(Signal::MemTotal), 196592);
  EXPECT_EQ(samples[0].values.get(Signal::Temperature), 55);  // junction: MI300X has no edge sensor
  EXPECT_FALSE(samples[0].values.has(Signal::Power));         // no power_ave, one energy reading
  EXPECT_NEAR(*samples[1].values.get(Signal::Power), 612, 1e-3);
  EXPECT_FALSE(samples[0].values.has(Signal::PcieTx));  // not supported
}

TEST(AmdSource, LayoutIsRecognisedWhenTheVersionDoesNotTell) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("version1_layout6.txt");
  wt::AmdSource source(options(1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 1U);
  EXPECT_EQ(samples[0].values.get(Signal::SmClock), 1900);
  EXPECT_EQ(samples[0].values.get(Signal::MemClock), 960);
  EXPECT_EQ(samples[0].values.get(Signal::Power), 120);
  EXPECT_EQ(samples[0].gpu->pci_bus_id, "0000:03:00.0");
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdSource, PcieIsNotReadWhenPollsAreFasterThanTheThreshold) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdOptions o = options(1);
  o.pcie_min_interval_s = 2;  // the default: polls 1 ms apart are too fast
  wt::AmdSource source(o);
  const auto samples = wt::test::drain(source);
  ASSERT_FALSE(samples.empty());
  EXPECT_FALSE(samples[0].values.has(Signal::PcieTx));
  EXPECT_FALSE(samples[0].values.has(Signal::PcieRx));
  EXPECT_EQ(samples[0].values.get(Signal::GpuUtil), 98);
}

TEST(AmdSource, GpuOptionReadsOnlyThatGpu) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi250x_rocm5.txt");
  wt::AmdSource source(options(2, 1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 2U);
  for (const wt::Sample& s : samples) EXPECT_EQ(s.gpu->index, 1);
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource bad(options(1, 7)); });
  EXPECT_NE(msg.find("no GPU 7: this machine has 2 AMD GPUs"), std::string::npos) << msg;
}

TEST(AmdSource, NoGpuIsNoTelemetry) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("no_gpus.txt");
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1)); });
  EXPECT_NE(msg.find("no AMD GPU found"), std::string::npos) << msg;
}

TEST(AmdSource, InitFailureIsNoTelemetryWithTheLibrarysReason) {
  ASSERT_TRUE(fake_rocm_found());
  ScopedEnv env("FAKE_RSMI_INIT_ERROR", std::to_string(wt::rsmi::RSMI_STATUS_INIT_ERROR));
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1)); });
  EXPECT_NE(msg.find("rsmi_init failed: RSMI_STATUS_INIT_ERROR"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(AmdSource, MissingLibraryIsNoTelemetryWithAHint) {
  wt::AmdOptions missing = options(1);
  missing.rocm_smi_libraries = {"libdoes-not-exist.so", "libdoes-not-exist.so.6"};
  const std::string msg = wt::test::no_telemetry_message([&] { wt::AmdSource source(missing); });
  EXPECT_NE(msg.find("librocm_smi64.so) cannot be loaded (libdoes-not-exist.so:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--backend synthetic"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(AmdSource, VersionedNamesAreTriedInTurn) {
  ASSERT_TRUE(fake_rocm_found());
  const auto env = use_fixture("mi300x_rocm6.txt");
  const wt::RocmSmiLibrary lib({"libdoes-not-exist.so", "librocm_smi64.so"});
  EXPECT_EQ(lib.name(), "librocm_smi64.so");
  EXPECT_EQ(lib.major_version(), 6U);
  EXPECT_TRUE(lib.expects_frequencies_v6());
}

}  // namespace
