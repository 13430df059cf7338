#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/gpu_models.hpp"
#include "sim/gpu_physics.hpp"

namespace wt::sim {
namespace {

const GpuModel& model(const char* name) {
  const GpuModel* m = find_gpu_model(name);
  EXPECT_NE(m, nullptr) << name;
  return *m;
}

GpuPhysics physics(const GpuModel& gpu, Reader reader, std::uint64_t seed = 1) {
  return GpuPhysics(gpu, PhysicsParams{1.0, 1.0, 30, reader}, Rng(seed));
}

// Advances `seg` for `seconds` in 10 ms steps, as the simulated source does between polls.
void advance(GpuPhysics& p, const Segment& seg, double seconds) {
  for (double t = 0; t < seconds - 1e-9; t += 0.01) p.advance(seg, 0.01);
}

// Begins `seg`, then runs it for `seconds`.
void run(GpuPhysics& p, const Segment& seg, double seconds) {
  p.begin(seg);
  advance(p, seg, seconds);
}

const Segment kBusy{1, {1.0, 0.8, 0.4, 0, 0, 0}, 1000, 1};
const Segment kPause{1, {}, 1000, 1};

TEST(GpuPhysics, NvidiaSmiReadsTheLastUtilizationSampleOurReaderTheIntervalMean) {
  // 4 s of kernels, then a 1 s host pause (longer than any sample period), then a poll.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    GpuPhysics smi = physics(model("NVIDIA H100 80GB HBM3"), Reader::LatestSample, seed);
    GpuPhysics ours = physics(model("NVIDIA H100 80GB HBM3"), Reader::IntervalMean, seed);
    for (GpuPhysics* p : {&smi, &ours}) {
      run(*p, kBusy, 4);
      run(*p, kPause, 1);
    }
    EXPECT_EQ(smi.read(kPause).value(Signal::GpuUtil), 0) << seed;
    EXPECT_EQ(ours.read(kPause).value(Signal::GpuUtil), 80) << seed;
  }
}

TEST(GpuPhysics, PolledFasterThanItsSamplePeriodNvidiaSmiRepeatsAValue) {
  // Utilization that changes every 50 ms, polled every 50 ms: the driver's 1/6-0.5 s sample
  // period shows as runs of equal readings, as in the 0.1 s nvidia-smi logs.
  GpuPhysics p = physics(model("NVIDIA A100-SXM4-80GB"), Reader::LatestSample);
  std::vector<double> util;
  for (int i = 0; i < 200; ++i) {
    const Segment seg{0.05, {0.3 + 0.6 * ((i * 7) % 10) / 10.0, 0.5, 0.3, 0, 0, 0}, 1000, 1};
    run(p, seg, 0.05);
    util.push_back(p.read(seg).value(Signal::GpuUtil));
  }
  int repeats = 0;
  for (std::size_t i = 1; i < util.size(); ++i) repeats += util[i] == util[i - 1];
  EXPECT_GT(repeats, 100);
}

// Relative scatter of power readings polled every second through one steady busy phase,
// against the dynamic draw.
double power_scatter(const GpuModel& gpu, Reader reader) {
  GpuPhysics p = physics(gpu, reader, 3);
  run(p, kBusy, 10);
  std::vector<double> w;
  for (int i = 0; i < 400; ++i) {
    advance(p, kBusy, 1);
    w.push_back(p.read(kBusy).value(Signal::Power));
  }
  double mean = 0, var = 0;
  for (double x : w) mean += x / static_cast<double>(w.size());
  for (double x : w) var += (x - mean) * (x - mean) / static_cast<double>(w.size());
  return std::sqrt(var) / (mean - gpu.context_power_w);
}

TEST(GpuPhysics, V100AndA100PowerReadByNvidiaSmiIsAnInstant) {
  for (const char* name : {"Tesla V100-SXM2-32GB", "NVIDIA A100-SXM4-40GB"}) {
    const GpuModel& gpu = model(name);
    EXPECT_TRUE(gpu.instant_power) << name;
    EXPECT_GT(power_scatter(gpu, Reader::LatestSample), 0.04) << name;
    EXPECT_LT(power_scatter(gpu, Reader::IntervalMean), 0.015) << name;  // our reader averages the samples
  }
  const GpuModel& h100 = model("NVIDIA H100 80GB HBM3");
  EXPECT_FALSE(h100.instant_power);
  EXPECT_LT(power_scatter(h100, Reader::LatestSample), 0.015);
}

// Power polled every 0.1 s through a job that works 0.3 s and sleeps 0.2 s (step-and-sleep
// training): the readings' standard deviation, against the GPU's range from context to limit.
double power_sd_through_sleeps(const GpuModel& gpu, Reader reader) {
  GpuPhysics p = physics(gpu, reader, 7);
  std::vector<double> w;
  for (int i = 0; i < 1000; ++i) {
    const Segment& seg = i % 5 < 3 ? kBusy : kPause;
    run(p, seg, 0.1);
    w.push_back(p.read(seg).value(Signal::Power));
  }
  double mean = 0, var = 0;
  for (double x : w) mean += x / static_cast<double>(w.size());
  for (double x : w) var += (x - mean) * (x - mean) / static_cast<double>(w.size());
  return std::sqrt(var) / (gpu.power_limit_w - gpu.context_power_w);
}

TEST(GpuPhysics, AfterGa100NvidiaSmiReadsPowerAveragedOurReaderTheMeanSinceItsLastPoll) {
  // Our H200 recordings of step-and-sleep training, both readers polling every 0.1 s side by
  // side: 65 W of scatter through ours, 13 W through nvidia-smi's one-second average.
  const GpuModel& h200 = model("NVIDIA H200");
  EXPECT_FALSE(h200.instant_power);
  EXPECT_GT(power_sd_through_sleeps(h200, Reader::IntervalMean), 3 * power_sd_through_sleeps(h200, Reader::LatestSample));
  // Polled every 5 s, our reader gives the mean of the whole interval, whatever the draw at the poll.
  GpuPhysics ours = physics(h200, Reader::IntervalMean);
  run(ours, kPause, 2.5);
  run(ours, kBusy, 2.5);
  const double half_busy_w = ours.read(kBusy).value(Signal::Power);
  run(ours, kBusy, 5);
  const double busy_w = ours.read(kBusy).value(Signal::Power);
  const double dynamic = busy_w - h200.context_power_w;
  EXPECT_NEAR(half_busy_w - h200.context_power_w, dynamic / 2, 0.1 * dynamic);
}

TEST(GpuPhysics, AnInstantMayExceedTheLimitButNotTheBoard) {
  const GpuModel& gpu = model("Tesla V100-SXM2-32GB");
  GpuPhysics p = physics(gpu, Reader::LatestSample, 5);
  const Segment flat_out{1, {1.0, 1.0, 1.0, 0, 0, 0}, 1000, 1};
  double highest = 0;
  for (int i = 0; i < 500; ++i) {
    run(p, flat_out, 1);
    highest = std::max(highest, p.read(flat_out).value(Signal::Power));
  }
  EXPECT_GT(highest, gpu.power_limit_w);
  EXPECT_LE(highest, gpu.power_limit_w * 1.25);
}

}  // namespace
}  // namespace wt::sim
