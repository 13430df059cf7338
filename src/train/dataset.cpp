#include "train/dataset.hpp"

#include <map>
#include <memory>

namespace wt {

std::size_t add_windows(TelemetrySource& source, WorkloadType label, const std::string& group,
                        const WindowSpec& spec, const GpuContextFn& context, std::vector<LabelledWindow>& out) {
  struct PerGpu {
    GpuIdentity gpu;
    GpuContext ctx;
    std::unique_ptr<Windower> windower;
  };
  std::map<std::string, PerGpu> gpus;
  const std::size_t before = out.size();
  Sample s;
  while (source.next(s)) {
    auto [it, fresh] = gpus.try_emplace(s.gpu->key());
    PerGpu& g = it->second;
    if (fresh) {
      g.gpu = *s.gpu;
      g.ctx = context ? context(g.gpu) : GpuContext{};
      // Rows appended before this trace number fewer than its first row's index: a sequence
      // id no earlier trace of `out` can have.
      const std::uint64_t sequence = (static_cast<std::uint64_t>(before) << 16) + gpus.size();
      g.windower = std::make_unique<Windower>(spec, [&out, &g, label, &group, sequence](const Window& w) {
        const WindowFeatures basic = compute_features(w.samples);
        const bool idle = basic.avg_gpu_util_pct && *basic.avg_gpu_util_pct < kIdleWindowMaxUtilPct;
        out.push_back({compute_model_features(w.samples, g.ctx), idle ? WorkloadType::Idle : label, group, g.gpu.name,
                       1, sequence, w.samples.back().time_s});
      });
    }
    g.windower->push(s);
  }
  for (auto& [key, g] : gpus) g.windower->finish();
  return out.size() - before;
}

std::optional<WorkloadType> label_from_file_name(const std::string& file_name) {
  const auto sep = file_name.find("__");
  if (sep == std::string::npos) return std::nullopt;
  return parse_workload_type(file_name.substr(0, sep));
}

}  // namespace wt
