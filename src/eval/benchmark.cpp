#include "eval/benchmark.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "classify/rule_classifier.hpp"
#include "classify/trained_classifier.hpp"
#include "eval/run_folds.hpp"
#include "eval/tally.hpp"
#include "features/gpu_context.hpp"
#include "sim/gpu_models.hpp"
#include "pipeline/classify_stream.hpp"
#include "source/replay/replay_source.hpp"
#include "train/fit.hpp"
#include "train/real_traces.hpp"
#include "train/sim_dataset.hpp"

namespace wt {
namespace {

using nlohmann::json;

// A recorded trace held in memory, so that every classifier sees the very same samples.
class Recorded final : public TelemetrySource {
 public:
  explicit Recorded(TelemetrySource& from) : name_(from.describe()) {
    Sample s;
    while (from.next(s)) samples_.push_back(s);
  }
  bool next(Sample& out) override {
    if (pos_ >= samples_.size()) return false;
    out = samples_[pos_++];
    return true;
  }
  std::string describe() const override { return name_; }
  void rewind() { pos_ = 0; }

 private:
  std::string name_;
  std::vector<Sample> samples_;
  std::size_t pos_ = 0;
};

// One GPU's summary verdict against its truth, with how its windows were called, so that a
// reader can see which real GPUs a figure loses and how far off each one was:
// {"gpu", "truth", "verdict", "confidence", "windows": {"TRAINING": n, ...}} (classes with no
// window left out).
json gpu_outcome(const GpuReport& g, WorkloadType truth) {
  std::array<std::size_t, kWorkloadTypeCount> called{};
  for (const WindowVerdict& w : g.windows) ++called[static_cast<std::size_t>(w.type)];
  json windows = json::object();
  for (std::size_t k = 0; k < kWorkloadTypeCount; ++k)
    if (called[k]) windows[std::string(to_string(static_cast<WorkloadType>(k)))] = called[k];
  return {{"gpu", g.gpu.index},
          {"truth", to_string(truth)},
          {"verdict", to_string(g.verdict.type)},
          {"confidence", g.verdict.confidence},
          {"windows", windows}};
}

// Classifies a trace and counts windows and per-GPU summaries against the truth. A GPU whose
// whole stream is without compute is IDLE whatever the job (the context-only GPU of a 1-GPU job).
// `disguised`: the trace is training built to evade (its training windows are scored apart).
// `gpus`, when given, gets each GPU's summary against its truth (see gpu_outcome). The trace's
// GPUs pooled as one job count as one run (IDLE when every GPU is), described in `run` if given.
Tally score(Recorded& trace, const Classifier& c, WorkloadType label, const WindowSpec& window,
            bool disguised = false, json* gpus = nullptr, json* run = nullptr) {
  trace.rewind();
  const ClassifyResult r = classify_stream(trace, c, window);
  Tally t;
  std::vector<const std::vector<WindowVerdict>*> run_windows;
  WorkloadType run_truth = WorkloadType::Idle;
  for (const GpuReport& g : r.gpus) {
    const auto util = g.verdict.features.avg_gpu_util_pct;
    const WorkloadType gpu_truth = util && *util < kIdleWindowMaxUtilPct ? WorkloadType::Idle : label;
    t.jobs.add(gpu_truth, g.verdict.type);
    if (gpu_truth != WorkloadType::Idle) run_truth = label;
    run_windows.push_back(&g.windows);
    if (gpus) gpus->push_back(gpu_outcome(g, gpu_truth));
    for (const WindowVerdict& w : g.windows) {
      const WorkloadType truth = window_truth(label, w);
      t.windows.add(truth, w.type);
      // An abstention claims no class, so its confidence has nothing to be right about.
      if (w.type == WorkloadType::Unknown)
        ++t.calibration.abstained;
      else
        t.calibration.add(w.confidence, truth == w.type);
      if (w.training_score && truth != WorkloadType::Idle)
        t.training_score.add(*w.training_score, truth != WorkloadType::Training ? ScoreCurve::Truth::Other
                                                : disguised                      ? ScoreCurve::Truth::Disguised
                                                                                 : ScoreCurve::Truth::Training);
    }
  }
  if (!r.gpus.empty()) {
    const Verdict v = summarize_job(run_windows);
    t.runs.add(run_truth, v.type);
    if (run) *run = {{"truth", to_string(run_truth)}, {"verdict", to_string(v.type)}, {"confidence", v.confidence}};
  }
  return t;
}

double ratio(std::size_t a, std::size_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

// Share of truly-training windows (and jobs) called TRAINING.
json detection(const Tally& t) {
  const auto tr = static_cast<std::size_t>(WorkloadType::Training);
  std::size_t w_total = 0, j_total = 0;
  for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) w_total += t.windows.n[tr][p], j_total += t.jobs.n[tr][p];
  return {{"windows", ratio(t.windows.n[tr][tr], w_total)}, {"training_windows", w_total},
          {"jobs", ratio(t.jobs.n[tr][tr], j_total)}, {"training_jobs", j_total}};
}

// Share of windows (and jobs) of a non-training truth that were called TRAINING.
json false_training(const Tally& t) {
  const auto tr = static_cast<std::size_t>(WorkloadType::Training);
  json out = json::object();
  for (std::size_t truth = 0; truth < kWorkloadTypeCount; ++truth) {
    if (truth == tr) continue;
    std::size_t w = 0, j = 0;
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) w += t.windows.n[truth][p], j += t.jobs.n[truth][p];
    if (w == 0 && j == 0) continue;
    out[std::string(to_string(static_cast<WorkloadType>(truth)))] = {
        {"windows", ratio(t.windows.n[truth][tr], w)}, {"jobs", ratio(t.jobs.n[truth][tr], j)}, {"window_count", w}};
  }
  return out;
}

// Accuracy over the windows whose truth is not IDLE; null when there are none.
json active_window_accuracy(const Tally& t) {
  std::size_t right = 0, total = 0;
  for (std::size_t tr = 0; tr < kWorkloadTypeCount; ++tr) {
    if (tr == static_cast<std::size_t>(WorkloadType::Idle)) continue;
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) total += t.windows.n[tr][p];
    right += t.windows.n[tr][tr];
  }
  return total ? json(ratio(right, total)) : json(nullptr);
}

// Per truth, the share of its windows given that class: {"TRAINING": {"windows", "window_count"}, ...}.
json per_class_accuracy(const Confusion& c) {
  json out = json::object();
  for (std::size_t truth = 0; truth < kWorkloadTypeCount; ++truth) {
    std::size_t n = 0;
    for (std::size_t p = 0; p < kWorkloadTypeCount; ++p) n += c.n[truth][p];
    if (n) out[std::string(to_string(static_cast<WorkloadType>(truth)))] = {{"windows", ratio(c.n[truth][truth], n)},
                                                                            {"window_count", n}};
  }
  return out;
}

json accuracy(const Tally& t) {
  return {{"windows", ratio(t.windows.right(), t.windows.total())}, {"window_count", t.windows.total()},
          {"jobs", ratio(t.jobs.right(), t.jobs.total())}, {"job_count", t.jobs.total()}};
}

struct Contenders {
  RuleClassifier rules;
  std::unique_ptr<TrainedClassifier> trained;
};

// One way a test trace was recorded: how often it was polled, which signals it kept, whether
// it was cut short. `order` sorts the values of one dimension.
struct Recording {
  int dimension = 0;
  double order = 0;
  std::string name;
  auto operator<=>(const Recording&) const = default;
};

std::vector<Recording> recording_of(const TraceDraw& d) {
  std::ostringstream interval;
  interval << "polled every " << d.interval_s << " s";
  return {{0, d.interval_s, interval.str()},
          {1, static_cast<double>(d.signal_set), "signals: " + std::string(recorded_signal_sets()[d.signal_set].name)},
          {2, d.shortened ? 1.0 : 0.0, d.shortened ? "cut short (20-60 s)" : "full length"}};
}

// The traces recorded one way: the clean scenarios and the disguised training apart.
struct RecordingTally {
  Tally clean, disguised;
};

// Test traces of every catalog scenario (or those `keep` accepts), scored by each classifier.
struct SimRun {
  std::map<std::string, std::map<std::string, Tally>> rows;  // row -> classifier -> tally
  std::map<std::string, Tally> all;                          // classifier -> everything
  std::map<Recording, std::map<std::string, RecordingTally>> by_recording;
};

std::string row_of(const sim::ScenarioSpec& s) {
  return s.evasion.empty() ? "clean:" + std::string(to_string(s.label)) : "evasion:" + s.evasion;
}

void run_sim(const BenchmarkOptions& o, const std::vector<std::pair<std::string, const Classifier*>>& classifiers,
             const std::function<bool(const sim::ScenarioSpec&)>& keep, const std::string& gpu_model, SimRun& run,
             const ProgressFn& progress, std::size_t& done, std::size_t total) {
  for (const auto& spec : sim::scenario_catalog()) {
    if (!keep(spec)) continue;
    for (std::size_t i = 0; i < o.trials; ++i) {
      const TraceDraw draw = draw_trace(spec, "bench", i, o.seed, o.duration_s, o.interval_s, o.signal_set);
      auto src = simulated_trace(spec, draw, gpu_model);
      Recorded trace(*src);
      const std::vector<Recording> recorded_as = recording_of(draw);
      for (const auto& [name, c] : classifiers) {
        const Tally t = score(trace, *c, spec.label, o.window, !spec.evasion.empty());
        run.rows[row_of(spec)][name] += t;
        run.all[name] += t;
        for (const Recording& r : recorded_as) {
          RecordingTally& rt = run.by_recording[r][name];
          (spec.evasion.empty() ? rt.clean : rt.disguised) += t;
        }
      }
      if (progress) progress(++done, total, spec.name());
    }
  }
}

std::string seconds(double s) {
  std::ostringstream out;
  out << s << " s";
  return out.str();
}

// How the test traces were recorded, for the report's data line: polling, and the signals kept
// when they are fixed.
std::string recording(const BenchmarkOptions& o) {
  std::ostringstream out;
  if (o.interval_s)
    out << "polled every " << seconds(*o.interval_s);
  else
    out << "polled every " << training_intervals().front() << "-" << training_intervals().back()
        << " s (drawn per trace)";
  if (o.signal_set) out << ", signals: " << recorded_signal_sets()[*o.signal_set].name;
  return out.str();
}

std::size_t count_traces(const BenchmarkOptions& o, const std::function<bool(const sim::ScenarioSpec&)>& keep) {
  std::size_t n = 0;
  for (const auto& s : sim::scenario_catalog()) n += keep(s) ? o.trials : 0;
  return n;
}

json standard(const BenchmarkOptions& o, const Contenders& c, const ProgressFn& progress) {
  const std::vector<std::pair<std::string, const Classifier*>> cls{{"rules", &c.rules}, {"xgboost", c.trained.get()}};
  SimRun run;
  std::size_t done = 0;
  const auto all = [](const sim::ScenarioSpec&) { return true; };
  run_sim(o, cls, all, "", run, progress, done, count_traces(o, all));
  json clean = json::array(), evasion = json::array();
  for (const auto& [row, by] : run.rows) {
    json r{{"row", row}};
    for (const auto& [name, t] : by)
      r[name] = row.starts_with("evasion:") ? json{{"detection", detection(t)}, {"accuracy", accuracy(t)}}
                                            : json{{"accuracy", accuracy(t)}, {"called_training", false_training(t)}};
    (row.starts_with("evasion:") ? evasion : clean).push_back(r);
  }
  json by_recording = json::array();
  for (const auto& [recording, by] : run.by_recording) {
    json r{{"recording", recording.name}};
    for (const auto& [name, t] : by)
      r[name] = {{"clean",
                  {{"accuracy", accuracy(t.clean)},
                   {"per_class", per_class_accuracy(t.clean.windows)},
                   {"calibration", t.clean.calibration.to_json()}}},
                 {"disguised", detection(t.disguised)}};
    by_recording.push_back(r);
  }
  json per_classifier = json::object();
  for (const auto& [name, t] : run.all) {
    per_classifier[name] = {{"accuracy", accuracy(t)},
                            {"false_training", false_training(t)},
                            {"false_training_pooled", t.jobs.active_called_training()},
                            {"confusion_windows", t.windows.to_json()},
                            {"calibration", t.calibration.to_json()},
                            {"abstained_windows", t.calibration.abstained}};
    if (!t.training_score.points.empty())  // only the trained classifier gives a training score
      per_classifier[name]["training_score"] = t.training_score.to_json();
  }
  return {{"data", "synthetic: simulator test traces, " + std::to_string(o.trials) + " per scenario, " +
                       std::to_string(static_cast<int>(o.duration_s)) + " s each (one in four cut to 20-60 s), " +
                       recording(o) + ", seeds never used in training"},
          {"clean", clean},
          {"evasion", evasion},
          {"by_recording", by_recording},
          {"overall", per_classifier}};
}

// What every held-out retraining draws from, built (and read) once; each fold filters it.
struct LosoData {
  std::vector<LabelledWindow> train, calib;  // simulator
  std::vector<LabelledWindow> real;          // every --real directory, group "real:<source>"
};

LosoData build_loso_data(const BenchmarkOptions& o) {
  SimDatasetOptions d;
  d.traces_per_scenario = o.train_traces;
  d.duration_s = o.duration_s;
  d.window = o.window;
  LosoData data;
  build_sim_dataset(d, data.train, data.calib);
  for (const auto& dir : o.real_dirs) add_real_traces(dir, o.window, data.real, o.real_weight);
  return data;
}

// How many times each real training window counts, where it is not once.
std::string counted(const BenchmarkOptions& o) {
  std::ostringstream weight;
  if (o.real_weight != 1) weight << ", each of their windows counted " << o.real_weight << " times";
  return weight.str();
}

// What the synthetic folds' models train on besides the simulator.
std::string real_in_training(const BenchmarkOptions& o) {
  return o.real_dirs.empty() ? "" : " and the real traces of every --real directory" + counted(o);
}

// A model retrained as `train` builds one (the simulator, and the real traces of every --real
// directory) without one evasion family, or without some GPU models.
TrainedClassifier retrain_without(const LosoData& data, const std::string& evasion,
                                  const std::vector<std::string>& gpu_models) {
  std::vector<LabelledWindow> train = without_held_out(data.train, evasion, gpu_models);
  std::ranges::copy(without_held_out(data.real, evasion, gpu_models), std::back_inserter(train));
  return TrainedClassifier(fit_model(train, without_held_out(data.calib, evasion, gpu_models), XgbParams{}),
                           gpu_context_for);
}

// Reports (done, total, what) as folds finish, in whatever order they finish.
std::function<void(std::size_t)> fold_progress(const ProgressFn& progress, const std::vector<std::string>& what) {
  if (!progress) return {};
  return [progress, what, done = std::size_t{0}](std::size_t i) mutable { progress(++done, what.size(), what[i]); };
}

// Leave one evasion family out, then one GPU model out, then AMD: retrain without it, test on it.
json loso_synthetic(const BenchmarkOptions& o, const LosoData& data, const ProgressFn& progress) {
  const auto evasions = sim::evasion_families();
  std::vector<std::string> gpu_names, amd;
  for (const auto& m : sim::gpu_models()) {
    gpu_names.emplace_back(m.name);
    if (m.vendor == "AMD") amd.emplace_back(m.name);
  }
  // Clean scenarios forced onto `gpu`, scored by `model`.
  auto on_gpu = [&](const TrainedClassifier& model, const std::string& gpu) {
    SimRun run;
    std::size_t done = 0;
    run_sim(o, {{"xgboost", &model}}, [](const sim::ScenarioSpec& s) { return s.evasion.empty(); }, gpu, run, nullptr,
            done, 0);
    const Tally& t = run.all["xgboost"];
    return json{{"held_out", gpu}, {"accuracy", accuracy(t)}, {"detection", detection(t)},
                {"false_training", false_training(t)}};
  };
  // Folds: each family, each GPU model, then every AMD model at once (cross-vendor).
  std::vector<std::string> what;
  for (const auto& f : evasions) what.push_back("without " + f);
  for (const auto& g : gpu_names) what.push_back("without " + g);
  what.emplace_back("without AMD");
  const auto results = run_folds<json>(
      what.size(), o.jobs,
      [&](std::size_t i) -> json {
        if (i < evasions.size()) {
          const std::string& family = evasions[i];
          const TrainedClassifier model = retrain_without(data, family, {});
          SimRun run;
          std::size_t done = 0;
          const auto keep = [&](const sim::ScenarioSpec& s) {
            return s.evasion == family || s.label != WorkloadType::Training;
          };
          run_sim(o, {{"xgboost", &model}}, keep, "", run, nullptr, done, 0);
          Tally held, others;
          for (const auto& [row, by] : run.rows) (row == "evasion:" + family ? held : others) += by.at("xgboost");
          Tally both = held;
          both += others;
          return {{"held_out", family},
                  {"detection", detection(held)},
                  {"false_training", false_training(others)},
                  {"false_training_pooled", others.jobs.active_called_training()},
                  {"training_score", both.training_score.to_json()}};
        }
        if (i < evasions.size() + gpu_names.size()) {
          const std::string& gpu = gpu_names[i - evasions.size()];
          return on_gpu(retrain_without(data, "", {gpu}), gpu);
        }
        const TrainedClassifier nvidia_only = retrain_without(data, "", amd);
        json cross = json::array();
        for (const std::string& gpu : amd) cross.push_back(on_gpu(nvidia_only, gpu));
        return cross;
      },
      fold_progress(progress, what));
  const auto part = [&](std::size_t from, std::size_t to) {
    return json(std::vector<json>(results.begin() + static_cast<std::ptrdiff_t>(from),
                                  results.begin() + static_cast<std::ptrdiff_t>(to)));
  };
  return {{"data", "synthetic: retrained without the held-out part on the simulator (" +
                       std::to_string(o.train_traces) + " traces per scenario)" + real_in_training(o) +
                       "; tested on it" +
                       (o.interval_s || o.signal_set ? " (test traces " + recording(o) + ")" : std::string())},
          {"leave_one_evasion_family_out", part(0, evasions.size())},
          {"leave_one_gpu_model_out", part(evasions.size(), evasions.size() + gpu_names.size())},
          {"nvidia_only_tested_on_amd", results.back()}};
}

// Per file, per source, per label; the per-GPU truth is IDLE for a GPU without compute.
// `trained_sources`: the real sources the scored model was trained on (its provenance), whose
// figures are in-sample and say so.
json real(const std::string& dir, const std::vector<std::pair<std::string, const Classifier*>>& cls,
          const std::set<std::string>& trained_sources, const WindowSpec& window, const ProgressFn& progress) {
  const auto traces = list_real_traces(dir);
  std::map<std::string, std::map<std::string, Tally>> by_source, by_label;
  std::map<std::string, Tally> all;
  json files = json::array();
  std::size_t done = 0;
  for (const RealTrace& t : traces) {
    ReplaySource src(t.path);
    Recorded rec(src);
    json f{{"file", t.file}, {"run", t.run}, {"source", t.source}, {"label", to_string(t.label)}};
    for (const auto& [name, c] : cls) {
      json gpus = json::array(), run;
      const Tally tally = score(rec, *c, t.label, window, false, &gpus, &run);
      by_source[t.source][name] += tally;
      by_label[std::string(to_string(t.label))][name] += tally;
      all[name] += tally;
      f[name] = accuracy(tally);
      f[name]["gpus"] = std::move(gpus);
      f[name]["run"] = std::move(run);
    }
    files.push_back(f);
    if (progress) progress(++done, traces.size(), t.file);
  }
  auto group = [](const std::map<std::string, std::map<std::string, Tally>>& m) {
    json out = json::object();
    for (const auto& [key, by] : m)
      for (const auto& [name, t] : by)
        out[key][name] = {{"accuracy", accuracy(t)},
                          {"active_window_accuracy", active_window_accuracy(t)},
                          {"confusion_jobs", t.jobs.to_json()}};
    return out;
  };
  const bool manifest = std::filesystem::exists(std::filesystem::path(dir) / kRealTraceManifest);
  const std::string labels = manifest ? "MANIFEST.csv, else file names" : "file names";
  std::vector<std::string> in_training;
  for (const auto& [source, by] : by_source)
    if (trained_sources.contains(source)) in_training.push_back(source);
  std::string trained;
  for (const auto& source : in_training) trained += (trained.empty() ? "" : ", ") + source;
  if (!trained.empty()) trained = "; the model was trained on " + trained + ": in-sample figures, not a test";
  json report{{"data", "real: " + dir + " (labels from " + labels + "; not blended with synthetic figures" + trained + ")"},
              {"trained_on_sources", in_training},
              {"files", files},
              {"by_source", group(by_source)},
              {"by_label", group(by_label)}};
  for (const auto& [name, t] : all) {
    report["runs"][name] = {{"right", t.runs.right()}, {"count", t.runs.total()}};
    report["calibration"][name] = {{"bins", t.calibration.to_json()}, {"abstained_windows", t.calibration.abstained}};
    if (!t.training_score.points.empty()) report["training_score"][name] = t.training_score.to_json();
  }
  return report;
}

// Leave one real source out: train on the simulator and the other sources, test on it.
json real_loso(const BenchmarkOptions& o, const std::string& dir, const LosoData& data, const ProgressFn& progress) {
  const auto traces = list_real_traces(dir);
  std::vector<std::string> sources, what;
  for (const auto& t : traces)
    if (std::find(sources.begin(), sources.end(), t.source) == sources.end()) {
      sources.push_back(t.source);
      what.push_back("without " + t.source);
    }
  const auto out = run_folds<json>(
      sources.size(), o.jobs,
      [&](std::size_t i) -> json {
        const std::string& held = sources[i];
        const std::string held_group = real_group(held);
        std::vector<LabelledWindow> train = data.train;
        for (const LabelledWindow& r : data.real)
          if (r.group != held_group) train.push_back(r);
        const TrainedClassifier model(fit_model(train, data.calib, XgbParams{}), gpu_context_for);
        Tally tally;
        json files = json::array();
        for (const RealTrace& t : traces) {
          if (t.source != held) continue;
          ReplaySource src(t.path);
          Recorded rec(src);
          json gpus = json::array();
          tally += score(rec, model, t.label, o.window, false, &gpus);
          files.push_back({{"file", t.file}, {"run", t.run}, {"label", to_string(t.label)}, {"gpus", std::move(gpus)}});
        }
        return {{"held_out_source", held}, {"accuracy", accuracy(tally)}, {"files", std::move(files)}};
      },
      fold_progress(progress, what));
  return {{"data", "real: " + dir + ", each source held out of training (trained on the simulator and the other "
                                    "real sources of every --real directory" + counted(o) + ")"},
          {"leave_one_source_out", out}};
}

}  // namespace

nlohmann::json run_benchmark(const BenchmarkOptions& o, const ProgressFn& progress) {
  // A window needs a few samples (WindowSpec::min_samples); a trace polled more sparsely than
  // that would leave nothing to score, and every figure would read 0 %.
  const auto min_samples = static_cast<double>(o.window.min_samples);
  if (o.interval_s && !(*o.interval_s > 0 && o.duration_s / *o.interval_s + 1 >= min_samples))
    throw std::invalid_argument("polling every " + seconds(*o.interval_s) + " leaves fewer than " +
                                std::to_string(o.window.min_samples) + " samples in a " + seconds(o.duration_s) +
                                " trace: nothing could be scored");
  json report{{"window_seconds", o.window.length_s}, {"stride_seconds", o.window.stride_s}, {"protocol", o.protocol}};
  json reals = json::array();
  if (o.protocol == "standard") {
    Contenders c;
    c.trained = std::make_unique<TrainedClassifier>(load_model_bundle(o.model_path), gpu_context_for);
    report["model"] = c.trained->model().provenance.value("date", "");
    report["synthetic"] = standard(o, c, progress);
    const std::vector<std::pair<std::string, const Classifier*>> cls{{"rules", &c.rules}, {"xgboost", c.trained.get()}};
    std::set<std::string> trained_sources;
    const json& provenance = c.trained->model().provenance;
    if (provenance.contains("data") && provenance["data"].contains("real_sources"))
      trained_sources = provenance["data"]["real_sources"].get<std::set<std::string>>();
    for (const auto& dir : o.real_dirs) reals.push_back(real(dir, cls, trained_sources, o.window, progress));
  } else {
    // The held-out protocols score models they retrain, not a loaded one: the report names the
    // recipe instead. Every retraining filters one dataset, built once.
    report["model"] = "retrained";
    report["train_traces"] = o.train_traces;
    report["real_weight"] = o.real_weight;
    const LosoData data = build_loso_data(o);
    if (o.protocol == "loso") report["synthetic"] = loso_synthetic(o, data, progress);
    for (const auto& dir : o.real_dirs) reals.push_back(real_loso(o, dir, data, progress));
  }
  if (!reals.empty()) report["real"] = reals;
  return report;
}

}  // namespace wt
