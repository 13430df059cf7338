// `workloadtruth benchmark`: rules and trained classifier side by side, synthetic and real.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finite_range.hpp"
#include "cli/run_guarded.hpp"
#include "eval/benchmark.hpp"
#include "output/benchmark_text.hpp"
#include "train/sim_dataset.hpp"

namespace wt::cli {
namespace {

struct BenchOptions {
  BenchmarkOptions b;
  bool json = false;
  bool retrain_options_given = false;     // --train-traces, --jobs or --real-weight
  bool test_trace_options_given = false;  // --trials, --seed, --interval or --signals
  std::string signals;                    // a recorded_signal_sets() key, "" = drawn per trace
  bool real_weight_given = false;
};

// A one-line bar on stderr, only when stderr is a terminal.
void progress_bar(std::size_t done, std::size_t total, const std::string& what) {
  constexpr std::size_t kWidth = 30;
  const std::size_t fill = total ? done * kWidth / total : 0;
  std::cerr << "\r[" << std::string(fill, '#') << std::string(kWidth - fill, '.') << "] " << done << "/" << total << " "
            << what.substr(0, 40) << "\033[K" << std::flush;
}

int run_bench(const BenchOptions& o) {
  if (o.b.window.stride_s > o.b.window.length_s) throw std::invalid_argument("--stride must not exceed --window");
  if (o.b.protocol == "loso-real" && o.b.real_dirs.empty())
    throw std::invalid_argument("--protocol loso-real holds out real sources: give them with --real DIR");
  // Each protocol scores either the given model or models it retrains, never both: an option the
  // protocol would ignore is refused rather than silently dropped.
  if (o.b.protocol != "standard" && !o.b.model_path.empty())
    throw std::invalid_argument("--model has no effect under --protocol " + o.b.protocol +
                                ": every held-out part is scored by a model retrained without it");
  if (o.b.protocol == "standard" && o.retrain_options_given)
    throw std::invalid_argument("--train-traces, --jobs and --real-weight have no effect under --protocol standard, "
                                "which retrains nothing");
  if (o.real_weight_given && o.b.real_dirs.empty())
    throw std::invalid_argument("--real-weight weighs the real traces the held-out folds train on: give them with "
                                "--real DIR");
  if (o.b.protocol == "loso-real" && o.test_trace_options_given)
    throw std::invalid_argument("--trials, --seed, --interval and --signals shape the simulated test traces, which --protocol "
                                "loso-real does not make (it tests on the real sources only)");
  BenchmarkOptions b = o.b;
  if (!o.signals.empty()) b.signal_set = find_signal_set(o.signals);
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const auto report = run_benchmark(b, tty ? ProgressFn(progress_bar) : ProgressFn());
  if (tty) std::cerr << "\r\033[K";
  if (o.json)
    std::cout << report.dump(2) << '\n';
  else
    print_benchmark_text(std::cout, report);
  return exit_code::kOk;
}

}  // namespace

Command add_benchmark_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("benchmark", "Score the rules and the trained classifier on simulated (and real) traces");
  CLI::Option* trials =
      sub->add_option("--trials", o->b.trials, "Test traces per simulator scenario")->capture_default_str();
  trials->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  sub->add_option("--window", o->b.window.length_s, "Window length in seconds")->capture_default_str()
      ->check(finite_range(1.0, 3600.0));
  sub->add_option("--stride", o->b.window.stride_s, "Seconds between window starts")->capture_default_str()
      ->check(finite_range(1.0, 3600.0));
  sub->add_option("--duration", o->b.duration_s, "Seconds per simulated trace")->capture_default_str()
      ->check(finite_range(30.0, 86400.0));
  CLI::Option* seed = sub->add_option("--seed", o->b.seed, "Seed of the test traces")->capture_default_str();
  CLI::Option* interval = sub->add_option("--interval", o->b.interval_s,
                  "Poll the simulated test traces every S seconds, e.g. 30 for a Prometheus scrape every 30 s "
                  "(default: drawn per trace from 0.1-5 s, as in training)")
      ->check(finite_range(0.05, 3600.0));
  std::vector<std::string> signal_keys;
  for (const auto& set : recorded_signal_sets()) signal_keys.emplace_back(set.key);
  CLI::Option* signals =
      sub->add_option("--signals", o->signals,
                      "Keep only these signals in the simulated test traces: all (what live NVML reads), smi (util, "
                      "memory, power, temperature, clocks), util-memused-power, util-memutil-power, util-mem-power "
                      "(default: drawn per trace, as in training)")
          ->check(CLI::IsMember(signal_keys));
  sub->add_option("--protocol", o->b.protocol,
                  "standard; loso: leave one evasion family / GPU model / real source out of training; "
                  "loso-real: only the real sources, each held out (needs --real)")
      ->capture_default_str()->check(CLI::IsMember({"standard", "loso", "loso-real"}));
  sub->add_option("--real", o->b.real_dirs,
                  "Also score labelled real traces in DIR (MANIFEST.csv labels, else <label>__<source>__<run>.csv); "
                  "under loso every retrained model also trains on them, but for the source it is tested on")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--model", o->b.model_path, "Trained model file (default: the built-in model)");
  CLI::Option* train_traces =
      sub->add_option("--train-traces", o->b.train_traces, "Traces per scenario when loso retrains")->capture_default_str();
  CLI::Option* jobs =
      sub->add_option("--jobs,-j", o->b.jobs,
                      "Held-out retrainings run side by side under loso (0: one per core; each holds its own "
                      "copy of the training data)")
          ->capture_default_str()->check(CLI::Range(0u, 256u));
  CLI::Option* real_weight =
      sub->add_option("--real-weight", o->b.real_weight,
                      "Under loso: each window of the real sources a fold trains on counts as this many simulated ones")
          ->capture_default_str()->check(finite_range(0.001, 1e6));
  sub->add_flag("--json", o->json, "Print JSON");
  return {sub, [o, train_traces, jobs, real_weight, trials, seed, interval, signals] {
            o->real_weight_given = real_weight->count() > 0;
            o->retrain_options_given = train_traces->count() > 0 || jobs->count() > 0 || o->real_weight_given;
            o->test_trace_options_given =
                trials->count() > 0 || seed->count() > 0 || interval->count() > 0 || signals->count() > 0;
            return run_guarded(o->json, [o] { return run_bench(*o); });
          }};
}

}  // namespace wt::cli
