// AmdSource through AMD SMI: the fake libamd_smi.so (tests/fake_amdsmi) replays
// tests/fixtures/amdsmi/*.txt in the 24.6 or the 26 struct layouts; the choice between AMD SMI
// and ROCm SMI (tests/fake_rocm) is tested with both fakes on the loader's path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "source/amd/amd_smi_library.hpp"
#include "source/amd/amd_source.hpp"
#include "test_util.hpp"

namespace {

using wt::Signal;
using wt::test::ScopedEnv;

testing::AssertionResult fake_amd_smi_found() {
  return wt::test::fake_library_found("libamd_smi.so", "wt_fake_amd_smi");
}

wt::AmdOptions options(std::size_t samples, std::optional<int> gpu = std::nullopt) {
  wt::AmdOptions o;
  o.samples = samples;
  o.interval_s = 0.001;
  o.gpu = gpu;
  o.amd_smi_libraries = {"libamd_smi.so"};
  o.rocm_smi_libraries = {"librocm_smi64-not-installed.so"};  // a host with AMD SMI only
  o.pcie_min_interval_s = 0;                                  // the fake answers at once; the real call takes a second
  return o;
}

[[nodiscard]] ScopedEnv use_fixture(const std::string& name) {
  return {"FAKE_AMDSMI_FIXTURE", wt::test::fixture("amdsmi/" + name)};
}

TEST(AmdSmiSource, FirstPollConvertsEveryUnit) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi300x_v26.txt");
  wt::AmdSource source(options(1));
  EXPECT_EQ(source.library(), "AMD SMI 26.1.0 (libamd_smi.so)");
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(v.get(Signal::GpuUtil), 100);     // gfx_activity
  EXPECT_EQ(v.get(Signal::MemUtil), 61);      // umc_activity
  EXPECT_EQ(v.get(Signal::MemUsed), 147456);  // bytes -> MiB
  EXPECT_EQ(v.get(Signal::MemTotal), 196592);
  EXPECT_EQ(v.get(Signal::Power), 702);       // current_socket_power: MI300 has no average
  EXPECT_EQ(v.get(Signal::PowerLimit), 750);  // µW -> W
  EXPECT_EQ(v.get(Signal::Temperature), 71);  // °C, the hotspot: MI300 has no edge sensor
  EXPECT_EQ(v.get(Signal::SmClock), 2100);    // MHz
  EXPECT_EQ(v.get(Signal::MemClock), 1300);
  EXPECT_EQ(v.get(Signal::PcieTx), 0.256);  // 1000 packets x 256 B in a second -> MB/s
  EXPECT_EQ(v.get(Signal::PcieRx), 0.512);
  EXPECT_FALSE(v.has(Signal::NvlinkTx));
  EXPECT_EQ(source.gpu_count(), 3U);
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdSmiSource, EveryGpuOfEverySocketWithItsIdentity) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi300x_v26.txt");
  wt::AmdSource source(options(1));
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);
  const std::vector<std::string> bus{"0000:c1:00.0", "0000:c1:00.1", "0001:e5:00.0"};
  for (std::size_t i = 0; i < 3; ++i) {
    const wt::GpuIdentity& g = *samples[i].gpu;
    EXPECT_EQ(g.index, static_cast<int>(i));
    EXPECT_EQ(g.name, "AMD Instinct MI300X");
    EXPECT_EQ(g.pci_bus_id, bus[i]);
  }
  EXPECT_EQ(samples[0].gpu->uuid, "3f00c1a2-0000-1000-8000-00000000c100");
  EXPECT_EQ(samples[2].gpu->uuid, "7b22e5d4-0000-1000-8000-00000000e500");
}

TEST(AmdSmiSource, EnergyCounterPowerErrorsOnceAndAGoneGpu) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi300x_v26.txt");
  wt::AmdSource source(options(3));
  const auto samples = wt::test::drain(source);
  std::vector<int> order;
  for (const wt::Sample& s : samples) order.push_back(s.gpu->index);
  ASSERT_EQ(order, (std::vector<int>{0, 1, 2, 0, 1, 0, 1}));
  // 10000000 steps of 15.3 µJ in 1 s = 153 W, though current_socket_power says 141 W.
  EXPECT_NEAR(*samples[3].values.get(Signal::Power), 153, 1e-3);
  EXPECT_NEAR(*samples[5].values.get(Signal::Power), 612, 1e-3);
  EXPECT_FALSE(samples[5].values.has(Signal::PowerLimit));  // permission error
  EXPECT_FALSE(samples[5].values.has(Signal::PcieTx));      // not supported: missing, no error
  std::vector<std::string> texts;
  for (const wt::Diagnostic& d : source.diagnostics()) texts.push_back(d.text());
  ASSERT_EQ(texts.size(), 3U) << testing::PrintToString(texts);
  EXPECT_EQ(texts[0].find("GPU 2 (7b22e5d4-0000-1000-8000-00000000e500): GPU is gone (amdsmi_get_gpu_activity: "
                          "AMDSMI_STATUS_FILE_ERROR"),
            0U)
      << texts[0];
  EXPECT_EQ(texts[1].find("GPU 0 (3f00c1a2-0000-1000-8000-00000000c100): amdsmi_get_power_cap_info failed: "
                          "AMDSMI_STATUS_NO_PERM"),
            0U)
      << texts[1];
  EXPECT_NE(texts[2].find("GPU 1 "), std::string::npos);
}

TEST(AmdSmiSource, Version24LayoutAndSentinelsAreMissingNotValues) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi250x_v24.txt");
  wt::AmdSource source(options(3));
  EXPECT_EQ(source.library(), "AMD SMI 24.6.1 (libamd_smi.so)");
  const auto samples = wt::test::drain(source);
  ASSERT_EQ(samples.size(), 3U);
  const wt::SignalValues& v = samples[0].values;
  EXPECT_EQ(samples[0].gpu->name, "AMD Instinct MI250X");  // the 24.6 amdsmi_asic_info_t
  EXPECT_EQ(samples[0].gpu->uuid, "");
  EXPECT_EQ(samples[0].gpu->key(), "0000:c1:00.0");
  EXPECT_EQ(v.get(Signal::GpuUtil), 98);
  EXPECT_FALSE(v.has(Signal::MemUtil));       // 0xFFFF: not available, not 65535 %
  EXPECT_EQ(v.get(Signal::Power), 480);       // average_socket_power, at offset 4 in 24.6
  EXPECT_EQ(v.get(Signal::Temperature), 52);  // edge
  EXPECT_EQ(v.get(Signal::SmClock), 1700);
  EXPECT_NEAR(*samples[1].values.get(Signal::Power), 306, 1e-3);  // 20000000 x 15.3 µJ in 1 s
  EXPECT_FALSE(samples[2].values.has(Signal::SmClock));           // its call fails; the memory clock's does not
  EXPECT_EQ(samples[2].values.get(Signal::MemClock), 1600);
  ASSERT_EQ(source.diagnostics().size(), 1U);
  EXPECT_NE(source.diagnostics()[0].text().find("amdsmi_get_clock_info failed: AMDSMI_STATUS_NO_PERM"),
            std::string::npos);
}

TEST(AmdSmiSource, AmdSmiIsPreferredWhenBothLibrariesArePresent) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto amd = use_fixture("mi250x_v24.txt");
  const ScopedEnv rocm("FAKE_RSMI_FIXTURE", wt::test::fixture("rocm/mi300x_rocm6.txt"));
  wt::AmdOptions o = options(1);
  o.rocm_smi_libraries = {"librocm_smi64.so"};
  wt::AmdSource source(o);
  EXPECT_EQ(source.library(), "AMD SMI 24.6.1 (libamd_smi.so)");
  EXPECT_EQ(wt::test::drain(source)[0].gpu->name, "AMD Instinct MI250X");
  EXPECT_TRUE(source.diagnostics().empty());
}

TEST(AmdSmiSource, RocmSmiIsUsedWhenAmdSmiIsNotInstalled) {
  const ScopedEnv rocm("FAKE_RSMI_FIXTURE", wt::test::fixture("rocm/mi300x_rocm6.txt"));
  wt::AmdOptions o = options(1);
  o.amd_smi_libraries = {"libamd_smi-not-installed.so"};
  o.rocm_smi_libraries = {"librocm_smi64.so"};
  wt::AmdSource source(o);
  EXPECT_EQ(source.library(), "ROCm SMI 6 (librocm_smi64.so)");
  EXPECT_TRUE(source.diagnostics().empty());  // AMD SMI simply absent: nothing to say
}

TEST(AmdSmiSource, AnUnknownVersionFallsBackToRocmSmiWithANote) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto amd = use_fixture("version27.txt");
  const ScopedEnv rocm("FAKE_RSMI_FIXTURE", wt::test::fixture("rocm/mi300x_rocm6.txt"));
  wt::AmdOptions o = options(1);
  o.rocm_smi_libraries = {"librocm_smi64.so"};
  wt::AmdSource source(o);
  EXPECT_EQ(source.library(), "ROCm SMI 6 (librocm_smi64.so)");
  ASSERT_EQ(source.diagnostics().size(), 1U);
  const wt::Diagnostic note = source.diagnostics()[0];
  EXPECT_FALSE(note.is_error);
  EXPECT_NE(note.message.find("AMD SMI not used: AMD SMI library libamd_smi.so is version 27.0.0 (ABI major 27), "
                              "whose struct layouts this build does not know"),
            std::string::npos)
      << note.message;
  EXPECT_NE(note.message.find("reading through ROCm SMI 6 (librocm_smi64.so) instead"), std::string::npos);
}

TEST(AmdSmiSource, AnUnknownVersionAloneIsNoTelemetry) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("version27.txt");
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1)); });
  EXPECT_NE(msg.find("is version 27.0.0 (ABI major 27)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--backend synthetic"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(AmdSmiSource, InitFailureNamesTheLibrarysReason) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi300x_v26.txt");
  const ScopedEnv fail("FAKE_AMDSMI_INIT_ERROR", "18");
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1)); });
  EXPECT_NE(msg.find("amdsmi_init failed: AMDSMI_STATUS_INIT_ERROR"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(AmdSmiSource, NeitherLibraryIsOneLineOfNoTelemetry) {
  wt::AmdOptions o = options(1);
  o.amd_smi_libraries = {"libamd_smi-not-installed.so"};
  const std::string msg = wt::test::no_telemetry_message([&] { wt::AmdSource source(o); });
  EXPECT_EQ(msg.find("no AMD GPU library: AMD SMI library (libamd_smi.so) cannot be loaded"), 0U) << msg;
  EXPECT_NE(msg.find("AMD ROCm SMI library (librocm_smi64.so) cannot be loaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is ROCm installed?"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(AmdSmiSource, NoGpuAndAMissingGpuIndex) {
  ASSERT_TRUE(fake_amd_smi_found());
  {
    const auto env = use_fixture("no_gpus.txt");
    const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1)); });
    EXPECT_NE(msg.find("no AMD GPU found (AMD SMI 26.1.0 (libamd_smi.so) is loaded but reports no GPU"),
              std::string::npos)
        << msg;
  }
  const auto env = use_fixture("mi300x_v26.txt");
  wt::AmdSource one(options(1, 2));
  const auto samples = wt::test::drain(one);
  ASSERT_EQ(samples.size(), 1U);
  EXPECT_EQ(samples[0].gpu->index, 2);
  const std::string msg = wt::test::no_telemetry_message([] { wt::AmdSource source(options(1, 3)); });
  EXPECT_NE(msg.find("no GPU 3: this machine has 3 AMD GPUs"), std::string::npos) << msg;
}

TEST(AmdSmiSource, VersionedNamesAreTriedInTurn) {
  ASSERT_TRUE(fake_amd_smi_found());
  const auto env = use_fixture("mi250x_v24.txt");
  const wt::AmdSmiLibrary lib({"libamd_smi.so.99", "libamd_smi.so"});
  EXPECT_EQ(lib.name(), "libamd_smi.so");
  EXPECT_EQ(lib.layout(), wt::AmdSmiLibrary::Layout::V6);
  EXPECT_EQ(lib.gpus().size(), 1U);
}

}  // namespace
