#include "sim/simulated_source.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sim/families.hpp"
#include "sim/gpu_physics.hpp"

namespace wt::sim {

namespace {

using WT = WorkloadType;

std::vector<ScenarioSpec> build_catalog() {
  std::vector<ScenarioSpec> c;
  auto add = [&](std::string family, std::vector<std::string> variants, WT label, int gpus = 1) {
    for (auto& v : variants) c.push_back({family, v, label, "", "", gpus});
  };
  add("training", {"pretrain", "finetune", "lora", "online"}, WT::Training);
  add("training", {"ddp"}, WT::Training, 4);
  add("training", {"tp"}, WT::Training, 8);
  add("inference", {"online-poisson", "online-bursty", "online-diurnal", "offline-batch", "embedding"}, WT::Inference);
  add("inference", {"offline-split"}, WT::Inference, 4);
  add("idle", {"bare", "context", "model-loaded"}, WT::Idle);
  add("hpc", {"md", "fft", "gemm-fp64", "nbody"}, WT::Hpc);
  add("mining", {"ethash", "kawpow"}, WT::Mining);
  add("graphics", {"render", "realtime", "video-encode", "video-decode"}, WT::Graphics);
  for (const EvasionInfo& e : evasion_infos())
    c.push_back({"training", std::string(e.base_variant), WT::Training, std::string(e.name), "", e.gpus});
  return c;
}

// GPU models each family plausibly runs on, for scenarios that leave the model to the seed.
std::vector<std::string_view> models_for(const ScenarioSpec& s) {
  if (s.gpus > 1)
    return {"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB", "NVIDIA H200",
            "NVIDIA B200",           "Tesla V100-SXM2-32GB",  "AMD Instinct MI300X",   "AMD Instinct MI250X"};
  if (s.family == "mining" || s.family == "graphics")
    return {"NVIDIA GeForce RTX 4090", "NVIDIA L4", "NVIDIA A100-PCIE-40GB", "Tesla V100-SXM2-32GB",
            "NVIDIA H100 PCIe"};
  std::vector<std::string_view> all;
  for (const GpuModel& m : gpu_models()) all.push_back(m.name);
  return all;
}

WorkloadPtr make_workload(const ScenarioSpec& s, const WorkloadContext& ctx) {
  if (!s.evasion.empty()) return make_evasion(s.evasion, s.variant, ctx);
  if (s.family == "training") return make_training(s.variant, ctx);
  if (s.family == "inference") return make_inference(s.variant, ctx);
  if (s.family == "idle") return make_idle(s.variant, ctx);
  if (s.family == "hpc") return make_hpc(s.variant, ctx);
  if (s.family == "mining") return make_mining(s.variant, ctx);
  if (s.family == "graphics") return make_graphics(s.variant, ctx);
  throw std::invalid_argument("unknown scenario family '" + s.family + "'");
}

class SimulatedSource final : public TelemetrySource {
 public:
  explicit SimulatedSource(const SimOptions& o) : o_(o) {
    if (!(o.interval_s > 0) || !(o.duration_s > 0))
      throw std::invalid_argument("simulation needs a positive duration and interval");
    if (o.scenario.gpus < 1 || o.scenario.gpus > 64) throw std::invalid_argument("simulation needs 1 to 64 GPUs");
    Rng seed_rng(o.seed);
    const GpuModel* model = nullptr;
    if (o.scenario.gpu_model.empty()) {
      const auto names = models_for(o.scenario);
      model = find_gpu_model(names[static_cast<std::size_t>(seed_rng.uniform() * static_cast<double>(names.size()))]);
    } else if (!(model = find_gpu_model(o.scenario.gpu_model))) {
      throw std::invalid_argument("unknown GPU model '" + o.scenario.gpu_model + "'");
    }
    // The scenario's name enters the job seed, so variants differ even under the same --seed.
    std::uint64_t job_seed = seed_rng.bits();
    for (char ch : o.scenario.name()) job_seed = (job_seed ^ static_cast<unsigned char>(ch)) * 0x100000001b3ULL;
    const double ambient = seed_rng.uniform(22, 35);
    polls_ = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(o.duration_s / o.interval_s + 1e-9)));
    for (int r = 0; r < o.scenario.gpus; ++r) {
      Rng rank_rng = seed_rng.fork();
      WorkloadPtr w = make_workload(o.scenario, WorkloadContext{model, r, o.scenario.gpus, job_seed});
      PhysicsParams pp{w->power_limit_fraction(), w->clock_cap_fraction(), ambient + rank_rng.uniform(-2, 2),
                       o.reader};
      char bus[32];
      std::snprintf(bus, sizeof bus, "00000000:%02X:00.0", 0x18 + r * 0x10 % 0xE0);
      char uuid[64];
      std::snprintf(uuid, sizeof uuid, "GPU-51a0%04x-%08llx-%04d", static_cast<unsigned>(o.seed & 0xffff),
                    static_cast<unsigned long long>(job_seed & 0xffffffffULL), r);
      gpus_.push_back(Gpu{std::make_shared<GpuIdentity>(GpuIdentity{r, uuid, std::string(model->name), bus, ""}),
                          std::move(w), GpuPhysics(*model, pp, rank_rng.fork()), Segment{}, 0, rank_rng});
    }
  }

  bool next(Sample& out) override {
    if (poll_ >= polls_) return false;
    Gpu& g = gpus_[gpu_];
    // Run the workload through one polling interval, segment by segment.
    for (double left = o_.interval_s; left > 1e-12;) {
      if (g.seg_left <= 1e-12) {
        g.seg = g.workload->next(g.rng);
        g.seg_left = g.seg.duration_s;
        g.physics.begin(g.seg);
      }
      const double dt = std::min(left, g.seg_left);
      g.physics.advance(g.seg, dt);
      g.seg_left -= dt;
      left -= dt;
    }
    out.time_s = o_.start_time_s + static_cast<double>(poll_ + 1) * o_.interval_s;
    out.gpu = g.id;
    out.values = g.physics.read(g.seg);
    if (++gpu_ == gpus_.size()) {
      gpu_ = 0;
      ++poll_;
    }
    return true;
  }

  std::string describe() const override { return "sim:" + o_.scenario.name(); }

 private:
  struct Gpu {
    GpuRef id;
    WorkloadPtr workload;
    GpuPhysics physics;
    Segment seg;
    double seg_left;
    Rng rng;
  };
  SimOptions o_;
  std::vector<Gpu> gpus_;
  std::size_t polls_ = 0, poll_ = 0, gpu_ = 0;
};

}  // namespace

const std::vector<ScenarioSpec>& scenario_catalog() {
  static const std::vector<ScenarioSpec> catalog = build_catalog();
  return catalog;
}

const ScenarioSpec* find_scenario(const std::string& name) {
  for (const auto& s : scenario_catalog())
    if (s.name() == name) return &s;
  return nullptr;
}

std::unique_ptr<TelemetrySource> make_simulated_source(const SimOptions& o) {
  return std::make_unique<SimulatedSource>(o);
}

std::vector<std::string> evasion_families() {
  std::vector<std::string> names;
  for (const auto& e : evasion_infos()) names.emplace_back(e.name);
  return names;
}

}  // namespace wt::sim
