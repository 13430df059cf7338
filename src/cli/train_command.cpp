// `workloadtruth train`: rebuilds the trained classifier from the simulator (and labelled real
// traces given with --real), deterministically, and writes the model with its provenance.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finite_range.hpp"
#include "cli/run_guarded.hpp"
#include "sim/simulated_source.hpp"
#include "train/fit.hpp"
#include "train/real_traces.hpp"
#include "train/sim_dataset.hpp"

namespace wt::cli {
namespace {

// The committed model's recipe is the default: `workloadtruth train` rebuilds it.
inline constexpr std::size_t kDefaultTracesPerScenario = 800;

struct TrainOptions {
  TrainOptions() { data.traces_per_scenario = kDefaultTracesPerScenario; }
  SimDatasetOptions data;
  XgbParams xgb;
  std::vector<std::string> real_dirs;
  float real_weight = 1;
  std::string out = "models/workloadtruth.model.json";
  bool json = false;
};

// Window accuracy of a bundle on rows it did not train on (each GPU's windows in order, as a
// verdict weighs them), overall and per class.
nlohmann::json accuracy(const ModelBundle& b, const std::vector<LabelledWindow>& rows) {
  const auto probs = verdict_probabilities(b, rows);
  const std::size_t k = b.classes.size();
  std::vector<std::size_t> right(k), total(k);
  std::size_t scored = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& q = probs[i];
    if (q.empty()) continue;
    const std::size_t truth = *b.class_index(rows[i].label);  // a row with probabilities has a model class
    ++scored;
    ++total[truth];
    right[truth] += most_probable(q) == truth;
  }
  nlohmann::json per_class = nlohmann::json::object();
  std::size_t all_right = 0;
  for (std::size_t c = 0; c < k; ++c) {
    all_right += right[c];
    if (total[c]) per_class[std::string(to_string(b.classes[c]))] = {{"windows", total[c]}, {"accuracy", static_cast<double>(right[c]) / static_cast<double>(total[c])}};
  }
  return {{"windows", scored}, {"accuracy", scored ? static_cast<double>(all_right) / static_cast<double>(scored) : 0.0}, {"per_class", per_class}};
}

// The real sources among the training rows from `first` on (groups "real:<source>"), sorted:
// `benchmark` marks their figures as in-sample.
std::set<std::string> real_sources(const std::vector<LabelledWindow>& rows, std::size_t first) {
  std::set<std::string> out;
  for (std::size_t i = first; i < rows.size(); ++i) out.insert(rows[i].group.substr(real_group("").size()));
  return out;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

int run_train(const TrainOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<LabelledWindow> train, calibration;
  build_sim_dataset(o.data, train, calibration);
  std::size_t real_files = 0;
  const std::size_t sim_rows = train.size();
  for (const auto& dir : o.real_dirs) real_files += add_real_traces(dir, o.data.window, train, o.real_weight);
  if (!o.json) std::cerr << "train: " << train.size() << " training windows, " << calibration.size() << " calibration windows\n";

  ModelBundle b = fit_model(train, calibration, o.xgb);
  const nlohmann::json metrics = accuracy(b, calibration);
  b.provenance = {
      {"tool", std::string("workloadtruth ") + WT_VERSION},
      {"date", utc_now()},
      {"data",
       {{"source", "simulator (src/sim), every catalog scenario"},
        {"scenarios", sim::scenario_catalog().size()},
        {"traces_per_scenario", o.data.traces_per_scenario},
        {"duration_s", o.data.duration_s},
        {"intervals_s", training_intervals()},
        {"seed", o.data.seed},
        {"window_s", o.data.window.length_s},
        {"stride_s", o.data.window.stride_s},
        {"real_dirs", o.real_dirs},
        {"real_files", real_files},
        {"real_sources", real_sources(train, sim_rows)},
        {"real_windows", train.size() - sim_rows},
        {"real_weight", o.real_weight},
        {"training_windows", train.size()},
        {"calibration_windows", calibration.size()},
        {"calibration_split", "every 5th trace of each scenario (held out of training)"}}},
      {"xgboost",
       {{"rounds", o.xgb.rounds}, {"max_depth", o.xgb.max_depth}, {"eta", o.xgb.eta}, {"subsample", o.xgb.subsample},
        {"colsample_bytree", o.xgb.colsample_bytree}, {"min_child_weight", o.xgb.min_child_weight}, {"seed", o.xgb.seed},
        {"class_weights", "balanced"}}},
      {"temperature", b.temperature},
      {"window_stay", b.window_stay},
      {"window_stay_step_s", b.window_stay_step_s},
      {"metrics", {{"calibration_windows_synthetic", metrics}}},
  };
  std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(o.out + ": cannot be written");
  out << b.to_json() << '\n';
  out.close();
  if (!out) throw InputError(o.out + ": write failed");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.json) {
    std::cout << nlohmann::json{{"out", o.out}, {"seconds", secs}, {"provenance", b.provenance}}.dump(2) << '\n';
  } else {
    std::cout << "wrote " << o.out << " in " << static_cast<int>(secs) << " s: " << train.size() << " training windows; "
              << "held-out synthetic window accuracy " << metrics["accuracy"].get<double>() * 100 << "% (temperature "
              << b.temperature << ", confidence map of " << b.confidence.points().size() << " points)\n";
  }
  return exit_code::kOk;
}

}  // namespace

Command add_train_command(CLI::App& app) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* sub = app.add_subcommand("train", "Rebuild the trained classifier from the simulator (deterministic)");
  sub->add_option("--out", o->out, "Model file to write")->capture_default_str();
  sub->add_option("--traces", o->data.traces_per_scenario, "Traces per simulator scenario")->capture_default_str()
      ->check(CLI::Range(std::size_t{5}, std::size_t{10000}));
  sub->add_option("--duration", o->data.duration_s, "Seconds per trace")->capture_default_str()->check(finite_range(30.0, 86400.0));
  sub->add_option("--seed", o->data.seed, "Data seed")->capture_default_str();
  sub->add_option("--rounds", o->xgb.rounds, "Boosting rounds")->capture_default_str()->check(CLI::Range(1, 5000));
  sub->add_option("--max-depth", o->xgb.max_depth, "Tree depth")->capture_default_str()->check(CLI::Range(1, 16));
  sub->add_option("--min-child-weight", o->xgb.min_child_weight,
                  "Least weight of windows a leaf may hold (larger: smaller trees)")
      ->capture_default_str()
      ->check(finite_range(0.0, 1e6));
  CLI::Option* real = sub->add_option("--real", o->real_dirs,
                  "Also train on labelled real traces in DIR (MANIFEST.csv labels, else <label>__<source>__<run>.csv)")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--real-weight", o->real_weight,
                  "Each real window counts as this many simulated ones (a few dozen real windows against "
                  "half a million simulated barely move the trees at 1)")
      ->capture_default_str()
      ->check(finite_range(0.001, 1e6))
      ->needs(real);
  sub->add_flag("--json", o->json, "Print JSON");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_train(*o); }); }};
}

}  // namespace wt::cli
