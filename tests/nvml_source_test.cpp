// NvmlSource against the fake libnvidia-ml.so.1 (tests/fake_nvml), which replays
// tests/fixtures/nvml/*.txt. The fake exports a mix of plain and versioned names (plain
// nvmlDeviceGetCount, nvmlDeviceGetComputeRunningProcesses_v2 only), so every test that reads
// anything also proves NvmlLibrary's symbol fallback.
#include "source/nvml/nvml_source.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "test_util.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "source/nvml/nvml_library.hpp"

namespace {

using wt::Signal;

std::string fixture(const std::string& name) {
  const char* dir = std::getenv("WT_FIXTURE_DIR");
  const std::filesystem::path base =
      dir ? std::filesystem::path(dir) : std::filesystem::path(__FILE__).parent_path() / "fixtures";
  return (base / "nvml" / name).string();
}

using wt::test::ScopedEnv;

testing::AssertionResult fake_nvml_found() { return wt::test::fake_library_found("libnvidia-ml.so.1", "wt_fake_nvml"); }

wt::NvmlOptions options(std::size_t samples, std::optional<int> gpu = std::nullopt, double interval_s = 0.001) {
  return {samples, interval_s, gpu, "libnvidia-ml.so.1"};
}

std::vector<wt::Sample> read_all(wt::TelemetrySource& source) {
  std::vector<wt::Sample> out;
  for (wt::Sample s; source.next(s);) out.push_back(s);
  return out;
}

// Points the fake at tests/fixtures/nvml/NAME for the rest of the scope.
[[nodiscard]] ScopedEnv use_fixture(const std::string& name) { return {"FAKE_NVML_FIXTURE", fixture(name)}; }

TEST(NvmlSource, FirstPollConvertsEveryUnit) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(1));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 2U);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 87);  // instantaneous: no sample mean on the first poll
  EXPECT_EQ(v.get(Signal::MemUtil), 40);
  EXPECT_EQ(v.get(Signal::MemUsed), 16384);  // bytes -> MiB
  EXPECT_EQ(v.get(Signal::MemTotal), 40960);
  EXPECT_EQ(v.get(Signal::Power), 250);       // mW -> W
  EXPECT_EQ(v.get(Signal::PowerLimit), 400);  // mW -> W
  EXPECT_EQ(v.get(Signal::Temperature), 61);
  EXPECT_EQ(v.get(Signal::SmClock), 1410);
  EXPECT_EQ(v.get(Signal::MemClock), 1215);
  EXPECT_EQ(v.get(Signal::PcieTx), 12);  // KB/s -> MB/s
  EXPECT_EQ(v.get(Signal::PcieRx), 3);
  EXPECT_EQ(v.get(Signal::ProcessCount), 2);
  EXPECT_FALSE(v.has(Signal::NvlinkTx));  // a rate needs two readings
  EXPECT_FALSE(v.has(Signal::NvlinkRx));
  EXPECT_EQ(samples[1].values.get(Signal::MemTotal), 81920);
  EXPECT_EQ(samples[1].values.get(Signal::PowerLimit), 700);
  EXPECT_EQ(source.describe(), "nvml");
  EXPECT_TRUE(source.diagnostics().empty());
}

// Compute (_v2, nvmlProcessInfo_t) and graphics (unversioned, nvmlProcessInfo_v1_t) lists merged,
// each grown from a size query; listed again only when due or when the compute count changes.
TEST(NvmlSource, ProcessesAreListedPerGpuAndRelistedWhenTheirCountChanges) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlOptions o = options(6);
  o.process_refresh_s = 3600;  // never due in this test: only a count change re-lists
  wt::NvmlSource source(o);
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 9U);  // GPU 1 is lost at poll 3
  ASSERT_TRUE(samples[0].processes);
  EXPECT_EQ(*samples[0].processes, (wt::ProcessIds{3100, 4242, 4243}));
  EXPECT_EQ(samples[2].processes, samples[0].processes);  // the same list, not read again
  EXPECT_EQ(samples[4].processes, samples[0].processes);  // graphics PID 3200 started: not due yet
  ASSERT_TRUE(samples[1].processes);
  EXPECT_TRUE(samples[1].processes->empty());  // GPU 1 runs none
  ASSERT_TRUE(samples[6].processes);           // GPU 0, poll 3: 4250 started
  EXPECT_EQ(*samples[6].processes, (wt::ProcessIds{3100, 3200, 4242, 4243, 4250}));
  EXPECT_EQ(samples[8].processes, samples[6].processes);
}

TEST(NvmlSource, ProcessesAreRelistedWhenDue) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlOptions o = options(3);
  o.process_refresh_s = 0;  // every poll
  wt::NvmlSource source(o);
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(samples[2].processes, samples[0].processes);  // read again, unchanged: still shared
  ASSERT_TRUE(samples[4].processes);
  EXPECT_EQ(*samples[4].processes, (wt::ProcessIds{3100, 3200, 4242, 4243}));
}

TEST(NvmlSource, IdentityComesFromTheDriverAndIsSharedPerGpu) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(2));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 4U);
  const wt::GpuIdentity& a100 = *samples[0].gpu;
  EXPECT_EQ(a100.index, 0);
  EXPECT_EQ(a100.uuid, "GPU-0a1b2c3d-0000-4000-8000-000000000000");
  EXPECT_EQ(a100.name, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(a100.pci_bus_id, "00000000:3B:00.0");
  const wt::GpuIdentity& h100 = *samples[1].gpu;
  EXPECT_EQ(h100.index, 1);
  EXPECT_EQ(h100.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(h100.pci_bus_id, "");  // not supported by the driver
  EXPECT_EQ(samples[0].gpu.get(), samples[2].gpu.get());
  EXPECT_EQ(samples[1].gpu.get(), samples[3].gpu.get());
}

TEST(NvmlSource, TimestampsAreWallClockMillisecondsSharedByOnePoll) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  const double before = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  wt::NvmlSource source(options(2));
  const auto samples = read_all(source);
  const double after = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  ASSERT_EQ(samples.size(), 4U);
  for (const wt::Sample& s : samples) {
    EXPECT_GE(s.time_s, before - 0.001);
    EXPECT_LE(s.time_s, after + 0.001);
    EXPECT_NEAR(s.time_s * 1000, std::round(s.time_s * 1000), 1e-3);
  }
  EXPECT_EQ(samples[0].time_s, samples[1].time_s);
  EXPECT_LE(samples[1].time_s, samples[2].time_s);
}

TEST(NvmlSource, LaterPollsUseTheMeanOfTheDriverSampleBuffer) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(2));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 4U);
  const wt::SignalValues& a100 = samples[2].values;
  EXPECT_EQ(a100.get(Signal::Power), 310);   // mean of 300, 310, 320 W; the instantaneous reading is 305
  EXPECT_EQ(a100.get(Signal::GpuUtil), 92);  // mean of 90, 92, 94; instantaneous 91
  EXPECT_EQ(a100.get(Signal::MemUtil), 42);  // no memory-utilization buffer: instantaneous
  const wt::SignalValues& h100 = samples[3].values;
  EXPECT_EQ(h100.get(Signal::Power), 160);   // no power buffer on this GPU: instantaneous
  EXPECT_EQ(h100.get(Signal::GpuUtil), 25);  // mean of 24, 25, 26 (only entries newer than poll 1)
}

TEST(NvmlSource, NvlinkRateComesFromCumulativeCounters) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(3));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 6U);
  EXPECT_EQ(samples[2].values.get(Signal::NvlinkTx), 2000);  // 1953125 KiB in 1 s
  EXPECT_EQ(samples[2].values.get(Signal::NvlinkRx), 1024);  // 1000000 KiB in 1 s
  EXPECT_EQ(samples[4].values.get(Signal::NvlinkTx), 2000);
  for (const wt::Sample& s : samples) {
    if (s.gpu->index == 1) {
      EXPECT_FALSE(s.values.has(Signal::NvlinkTx));  // no NVLink: absent, not 0
    }
  }
}

TEST(NvmlSource, UnsupportedSignalsAreAbsentNotZero) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(3));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 6U);
  const wt::SignalValues& a100 = samples[4].values;  // poll 3: temperature not supported
  EXPECT_FALSE(a100.has(Signal::Temperature));
  EXPECT_EQ(a100.get(Signal::Power), 310);
  // Zero compute processes is a reading (SUCCESS with count 0), not a missing one.
  EXPECT_EQ(samples[5].values.get(Signal::ProcessCount), 0);
}

TEST(NvmlSource, LostGpuIsReportedAndTheOtherKeepsStreaming) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(6));
  const auto samples = read_all(source);
  std::vector<int> order;
  for (const wt::Sample& s : samples) order.push_back(s.gpu->index);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(samples.back().values.get(Signal::Power), 340);
  const wt::Diagnostics diagnostics = source.diagnostics();
  ASSERT_EQ(diagnostics.size(), 1U);
  EXPECT_EQ(diagnostics[0].text(), "GPU 1 (GPU-11111111-2222-4333-8444-555555555555): GPU is lost; no longer read");
  EXPECT_TRUE(diagnostics[0].is_error);
}

TEST(NvmlSource, EndsWhenEveryGpuIsLost) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(6, 1));
  EXPECT_EQ(read_all(source).size(), 3U);
  wt::Sample s;
  EXPECT_FALSE(source.next(s));
  EXPECT_EQ(source.diagnostics().size(), 1U);
}

TEST(NvmlSource, GpuOptionReadsOnlyThatGpu) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(3, 0));
  const auto samples = read_all(source);
  ASSERT_EQ(samples.size(), 3U);
  for (const wt::Sample& s : samples) EXPECT_EQ(s.gpu->index, 0);
}

TEST(NvmlSource, ZeroSamplesPollsUntilStopped) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  wt::NvmlSource source(options(0, 0, 0));
  wt::Sample s;
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(source.next(s)) << "poll " << i;
  EXPECT_EQ(s.values.get(Signal::Power), 340);  // past the fixture's end its last poll repeats
}

TEST(NvmlSource, FirstPollIsImmediateAndLaterOnesWaitForTheInterval) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  wt::NvmlSource source(options(3, 0, 0.2));
  wt::Sample s;
  ASSERT_TRUE(source.next(s));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 0.1);
  ASSERT_TRUE(source.next(s));
  ASSERT_TRUE(source.next(s));
  EXPECT_GE(std::chrono::duration<double>(Clock::now() - start).count(), 0.4);
  EXPECT_FALSE(source.next(s));
}

TEST(NvmlSource, NonexistentGpuIndexNamesHowManyExist) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("two_gpus.txt");
  const std::string msg = wt::test::no_telemetry_message([] { wt::NvmlSource source(options(1, 5)); });
  EXPECT_NE(msg.find("no GPU 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 NVIDIA GPUs"), std::string::npos) << msg;
}

TEST(NvmlSource, NoGpuIsNoTelemetry) {
  ASSERT_TRUE(fake_nvml_found());
  const auto env = use_fixture("no_gpus.txt");
  const std::string msg = wt::test::no_telemetry_message([] { wt::NvmlSource source(options(1)); });
  EXPECT_NE(msg.find("no NVIDIA GPU found"), std::string::npos) << msg;
}

TEST(NvmlSource, InitFailureIsNoTelemetryWithNvmlsReason) {
  ASSERT_TRUE(fake_nvml_found());
  ScopedEnv env("FAKE_NVML_INIT_ERROR", std::to_string(wt::nvml::NVML_ERROR_DRIVER_NOT_LOADED));
  const std::string msg = wt::test::no_telemetry_message([] { wt::NvmlSource source(options(1)); });
  EXPECT_NE(msg.find("nvmlInit failed: Driver Not Loaded"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(NvmlSource, MissingLibraryIsNoTelemetryWithAHint) {
  wt::NvmlOptions missing = options(1);
  missing.library = "libdoes-not-exist.so.1";
  const std::string msg = wt::test::no_telemetry_message([&] { wt::NvmlSource source(missing); });
  EXPECT_NE(msg.find("libdoes-not-exist.so.1 cannot be loaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--backend synthetic"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

}  // namespace
