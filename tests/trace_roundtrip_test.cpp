// record -> replay gives back the same samples, in both formats.
#include <gtest/gtest.h>

#include <sstream>

#include "sink/trace_writer.hpp"
#include "source/synthetic_source.hpp"
#include "test_util.hpp"

namespace wt {
namespace {

std::string record(TraceFormat format, const std::vector<Sample>& samples) {
  std::ostringstream out;
  auto w = make_trace_writer(format, out);
  for (const auto& s : samples) w->write(s);
  return out.str();
}

void expect_same(const std::vector<Sample>& a, const std::vector<Sample>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time_s, b[i].time_s) << i;
    EXPECT_EQ(*a[i].gpu, *b[i].gpu) << i;
    EXPECT_EQ(a[i].values, b[i].values) << i;
  }
}

class RoundTrip : public ::testing::TestWithParam<TraceFormat> {};

TEST_P(RoundTrip, SyntheticSamplesComeBackIdentical) {
  for (const char* profile : {"training", "inference", "idle"}) {
    SyntheticSource src({profile, 120, 0, 3});
    const auto original = test::drain(src);
    const std::string path = test::write_temp(std::string("rt_") + profile, record(GetParam(), original));
    ReplaySource replay(path, {GetParam(), {}});
    expect_same(original, test::drain(replay));
    EXPECT_TRUE(replay.diagnostics().empty());
  }
}

TEST_P(RoundTrip, RecordedRealLayoutIsStable) {
  ReplaySource first(test::fixture("csv/two_gpus.csv"));
  const auto a = test::drain(first);
  const std::string text = record(GetParam(), a);
  ReplaySource second(test::write_temp("rt_two", text), {GetParam(), {}});
  const auto b = test::drain(second);
  expect_same(a, b);
  EXPECT_EQ(record(GetParam(), b), text);  // byte-identical on the second pass
}

TEST_P(RoundTrip, HostsKeepGpusOfSeveralNodesApart) {
  // Two nodes' GPU 0, without UUIDs: only the host tells them apart (a Prometheus range).
  std::vector<Sample> v(4);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i].time_s = 100.0 + static_cast<double>(i / 2);
    v[i].gpu = std::make_shared<GpuIdentity>(GpuIdentity{0, "", "NVIDIA A100", "", i % 2 ? "n2" : "n1"});
    v[i].values.set(Signal::Power, 100.0 + static_cast<double>(i));
  }
  const std::string text = record(GetParam(), v);
  if (GetParam() == TraceFormat::Csv) {
    EXPECT_TRUE(text.starts_with("timestamp, index, uuid, name, pci.bus_id, host, ")) << text;
  }
  ReplaySource r(test::write_temp("rt_hosts", text), {GetParam(), {}});
  const auto back = test::drain(r);
  expect_same(v, back);
  EXPECT_EQ(back[0].gpu.get(), back[2].gpu.get());  // one identity per host's GPU
  EXPECT_NE(back[0].gpu.get(), back[1].gpu.get());
  EXPECT_TRUE(r.diagnostics().empty());
}

INSTANTIATE_TEST_SUITE_P(Formats, RoundTrip, ::testing::Values(TraceFormat::Csv, TraceFormat::Jsonl),
                         [](const auto& p) { return p.param == TraceFormat::Csv ? "csv" : "jsonl"; });

TEST(RoundTripNames, CommasInNamesSurvive) {
  auto gpu = std::make_shared<GpuIdentity>(GpuIdentity{1, "GPU-z", "Weird, Inc. GPU", "0000:01:00.0", ""});
  std::vector<Sample> v(1);
  v[0].time_s = 100;
  v[0].gpu = gpu;
  v[0].values.set(Signal::Temperature, 40);
  ReplaySource r(test::write_temp("rt_names.csv", record(TraceFormat::Csv, v)));
  expect_same(v, test::drain(r));
}

}  // namespace
}  // namespace wt
