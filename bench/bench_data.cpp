#include "bench_data.hpp"

#include <cstdio>
#include <random>

#include "core/time_format.hpp"

namespace wt::bench {

std::string make_nvidia_smi_csv(std::size_t bytes, int gpus, bool header, std::size_t first_poll) {
  std::string out;
  out.reserve(bytes + 512);
  if (header)
    out += "timestamp, index, name, uuid, utilization.gpu [%], utilization.memory [%], memory.used [MiB], "
           "memory.total [MiB], power.draw [W], temperature.gpu, clocks.sm [MHz], clocks.mem [MHz]\n";
  std::mt19937 rng(7);
  char line[256];
  for (std::size_t poll = first_poll; out.size() < bytes; ++poll) {
    const std::string ts = format_nvidia_smi_time(1.7e9 + static_cast<double>(poll) * 0.1);
    for (int g = 0; g < gpus; ++g) {
      const unsigned r = rng();
      const int n = std::snprintf(line, sizeof line,
                                  "%s, %d, NVIDIA H100 80GB HBM3, GPU-3f2a9c1e-0000-4000-8000-00000000000%d, %u %%, "
                                  "%u %%, %u MiB, 81559 MiB, %u.%02u W, %u, %u MHz, 2619 MHz\n",
                                  ts.c_str(), g, g, 60 + r % 41, 20 + r % 50, 40000 + r % 30000, 300 + r % 400,
                                  r % 100, 40 + r % 30, 1500 + r % 480);
      out.append(line, static_cast<std::size_t>(n));
    }
  }
  return out;
}

std::vector<Sample> make_samples(std::size_t n) {
  auto gpu = std::make_shared<GpuIdentity>(GpuIdentity{0, "GPU-bench", "NVIDIA H100 80GB HBM3", "", ""});
  std::mt19937 rng(11);
  std::normal_distribution<double> util(88, 4), power(600, 20);
  std::vector<Sample> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].time_s = 1.7e9 + static_cast<double>(i) * 0.1;
    v[i].gpu = gpu;
    v[i].values.set(Signal::GpuUtil, util(rng));
    v[i].values.set(Signal::MemUtil, 60);
    v[i].values.set(Signal::MemUsed, 60000 + static_cast<double>(i % 1000));
    v[i].values.set(Signal::MemTotal, 81559);
    v[i].values.set(Signal::Power, power(rng));
    v[i].values.set(Signal::ProcessCount, 1);
  }
  return v;
}

}  // namespace wt::bench
