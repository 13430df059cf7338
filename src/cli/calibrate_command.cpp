// `workloadtruth calibrate`: windows labelled real traces and the simulator's clean scenarios
// with the same window spec and prints, per class, the spread of the key model features side by
// side, so that simulator changes are driven by distributions, not by single files.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finite_range.hpp"
#include "cli/run_guarded.hpp"
#include "train/calibration.hpp"
#include "train/real_traces.hpp"
#include "train/sim_dataset.hpp"

namespace wt::cli {
namespace {

struct CalibrateOptions {
  std::vector<std::string> real_dirs;
  SimDatasetOptions sim;
  bool by_group = false;
  bool json = false;
};

nlohmann::json to_json(const FeatureSpread& s) {
  if (s.n == 0) return {{"n", 0}};
  return {{"n", s.n}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}};
}

void print_text(const std::vector<ClassComparison>& cs) {
  for (const auto& c : cs) {
    std::printf("%s: %zu real windows, %zu simulated\n", c.key.c_str(), c.real_windows, c.sim_windows);
    std::printf("  %-24s %26s   %26s  %7s\n", "feature", "real p10 / p50 / p90", "sim p10 / p50 / p90", "covered");
    for (const auto& [name, f] : c.features) {
      const std::string n(name);
      if (f.real.n == 0) {
        std::printf("  %-24s %26s\n", n.c_str(), "(not in the real traces)");
        continue;
      }
      std::printf("  %-24s %8.3f %8.3f %8.3f   %8.3f %8.3f %8.3f  %6.0f%%\n", n.c_str(), f.real.p10, f.real.p50,
                  f.real.p90, f.sim.p10, f.sim.p50, f.sim.p90, std::isfinite(f.covered) ? 100 * f.covered : NAN);
    }
  }
  std::printf(
      "covered: share of real windows within the simulated p2..p98 of "
      "the same class\n");
}

int run_calibrate(const CalibrateOptions& o) {
  std::vector<LabelledWindow> real;
  std::vector<std::string> missing;
  for (const auto& dir : o.real_dirs) {
    if (!std::filesystem::is_directory(dir)) {
      missing.push_back(dir);
      continue;
    }
    add_real_traces(dir, o.sim.window, real);
  }
  if (real.empty()) {
    const std::string why =
        "no labelled real traces (<label>__<source>__<run>.csv) found in the "
        "--real directories" +
        std::string(missing.empty() ? "" : "; absent: " + missing.front()) + "; skipping the comparison";
    if (o.json) std::cout << nlohmann::json{{"skipped", why}}.dump() << '\n';
    std::cerr << "calibrate: " << why << '\n';
    return exit_code::kOk;
  }
  for (const auto& m : missing) std::cerr << "calibrate: " << m << " absent, skipped\n";
  std::vector<LabelledWindow> sim, sim_held_out;
  build_sim_dataset(o.sim, sim, sim_held_out);
  sim.insert(sim.end(), std::make_move_iterator(sim_held_out.begin()), std::make_move_iterator(sim_held_out.end()));
  const auto cs = compare_distributions(real, sim, o.by_group);
  if (!o.json) {
    print_text(cs);
    return exit_code::kOk;
  }
  nlohmann::json classes = nlohmann::json::array();
  for (const auto& c : cs) {
    nlohmann::json fs = nlohmann::json::object();
    for (const auto& [name, f] : c.features)
      fs[std::string(name)] = {{"real", to_json(f.real)},
                               {"sim", to_json(f.sim)},
                               {"covered", std::isfinite(f.covered) ? nlohmann::json(f.covered) : nlohmann::json()}};
    classes.push_back(
        {{"key", c.key}, {"real_windows", c.real_windows}, {"sim_windows", c.sim_windows}, {"features", fs}});
  }
  std::cout << nlohmann::json{{"window_s", o.sim.window.length_s},
                              {"stride_s", o.sim.window.stride_s},
                              {"traces_per_scenario", o.sim.traces_per_scenario},
                              {"classes", classes}}
                   .dump(2)
            << '\n';
  return exit_code::kOk;
}

}  // namespace

Command add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  o->sim.traces_per_scenario = 10;
  o->sim.include_evasions = false;
  CLI::App* sub = app.add_subcommand("calibrate",
                                     "Compare feature distributions of labelled real traces with "
                                     "the simulator's, per class");
  sub->add_option("--real", o->real_dirs,
                  "Directory of labelled real traces (MANIFEST.csv labels, else <label>__<source>__<run>.csv)")
      ->required();
  sub->add_option("--traces", o->sim.traces_per_scenario, "Simulated traces per clean scenario")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  sub->add_option("--duration", o->sim.duration_s, "Seconds per simulated trace")
      ->capture_default_str()
      ->check(finite_range(30.0, 86400.0));
  sub->add_option("--seed", o->sim.seed, "Simulator data seed")->capture_default_str();
  sub->add_flag("--by-source", o->by_group, "One comparison per real source instead of per class");
  sub->add_flag("--json", o->json, "Print JSON");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_calibrate(*o); }); }};
}

}  // namespace wt::cli
