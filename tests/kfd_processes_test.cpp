#include "source/amd/kfd_processes.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.hpp"

namespace wt {
namespace {

using Listed = std::map<std::string, ProcessIds>;

// A copy of the fixture tree, to change.
std::string copy_of_fixture(const std::string& name) {
  const auto root = std::filesystem::path(test::write_temp(name + ".marker", "")).parent_path() / name;
  std::filesystem::remove_all(root);
  std::filesystem::copy(test::fixture("kfd/mi250x"), root, std::filesystem::copy_options::recursive);
  return root.string();
}

}  // namespace

TEST(KfdPciAddress, PacksBusDeviceFunctionAsTheReadersWriteIt) {
  EXPECT_EQ(kfd_pci_address(0xc100, 0), "0000:c1:00.0");
  EXPECT_EQ(kfd_pci_address((0x3b << 8) | (0x1f << 3) | 7, 0x10), "0010:3b:1f.7");
}

TEST(KfdProcesses, AProcessIsOnTheGpusWhereItRunsAQueueOrHoldsMemory) {
  const auto listed = list_kfd_processes(test::fixture("kfd/mi250x"));
  ASSERT_TRUE(listed);
  // 4300 holds nothing anywhere; 4301 has memory on one GPU and a queue on the other.
  EXPECT_EQ(*listed, (Listed{{"0000:c1:00.0", {4243, 4301}}, {"0000:c6:00.0", {4250, 4301}}}));
}

TEST(KfdProcesses, NoTopologyIsNotAListButNoProcessIs) {
  EXPECT_FALSE(list_kfd_processes(test::fixture("kfd/does-not-exist")));
  const std::string root = copy_of_fixture("kfd_no_proc");
  std::filesystem::remove_all(std::filesystem::path(root) / "proc");
  EXPECT_EQ(list_kfd_processes(root), Listed{});
}

TEST(KfdProcesses, OddEntriesAreSkippedNotMisread) {
  const std::string root = copy_of_fixture("kfd_odd");
  const std::filesystem::path proc = std::filesystem::path(root) / "proc";
  std::filesystem::create_directories(proc / "self");                  // not a PID
  std::filesystem::create_directories(proc / "99999999999");           // not a 32-bit PID
  std::filesystem::create_directories(proc / "4400" / "queues" / "0");  // a queue on an unknown GPU
  std::ofstream(proc / "4400" / "queues" / "0" / "gpuid") << "777";
  std::ofstream(proc / "4400" / "vram_61845") << "12 MiB\n";  // not a number
  std::ofstream(proc / "4243" / "vram_x") << "5\n";           // no GPU id
  // A node whose properties lack location_id is no GPU this source can name.
  std::ofstream(std::filesystem::path(root) / "topology" / "nodes" / "2" / "properties") << "simd_count 440\n";
  const auto listed = list_kfd_processes(root);
  ASSERT_TRUE(listed);
  EXPECT_EQ(*listed, (Listed{{"0000:c1:00.0", {4243, 4301}}}));
}

}  // namespace wt
