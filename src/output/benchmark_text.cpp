#include "output/benchmark_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <string>

#include "output/counted.hpp"

namespace wt {
namespace {

using nlohmann::json;

std::string pct(double x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%5.1f%%", 100 * x);
  return buf;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

// "windows% / jobs%" of a {"windows": x, "jobs": y} object.
std::string pair(const json& j) { return pct(j.value("windows", 0.0)) + " / " + pct(j.value("jobs", 0.0)); }

// "share% (called of count)" of a {"share": x, "called": n, "count": m} object.
std::string pooled(const json& j) {
  return pct(j.value("share", 0.0)) + " (" + std::to_string(j.value("called", 0)) + " of " +
         std::to_string(j.value("count", 0)) + ")";
}

// The binary "is this training?" score: ROC AUC, and what thresholds on it catch.
void training_score(std::ostream& out, const json& classifier) {
  if (!classifier.contains("training_score") || classifier["training_score"]["roc_auc"].is_null()) return;
  const json& ts = classifier["training_score"];
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "\nIs this training? P(TRAINING) of active windows, training against every other class: "
                "ROC AUC %.3f\n",
                ts["roc_auc"].get<double>());
  out << buf << "  " << pad("TRAINING when P >=", 36) << pad("others called TRAINING", 26)
      << "training caught (clean / disguised)\n";
  const auto cell = [](const json& x) { return x.is_null() ? std::string("   n/a") : pct(x.get<double>()); };
  for (const auto& p : ts["operating_points"]) {
    std::snprintf(buf, sizeof buf, "%.3f (%s)", p["threshold"].get<double>(), p["rule"].get<std::string>().c_str());
    out << "  " << pad(buf, 36) << pad(cell(p["false_positive_rate"]), 26) << cell(p["detection_clean"]) << " / "
        << cell(p["detection_disguised"]) << '\n';
  }
}

constexpr const char* kClassNames[] = {"TRAINING", "INFERENCE", "IDLE", "HPC", "MINING", "GRAPHICS", "UNKNOWN"};
// The classes a window can truly be (UNKNOWN is only ever a verdict).
constexpr std::span<const char* const> kTrueClassNames(kClassNames, 6);

// For each way the test traces were recorded, clean windows right per class and disguised
// training windows caught: where the figures above lose their points.
void by_recording(std::ostream& out, const json& s) {
  if (!s.contains("by_recording")) return;
  out << "\nTest traces by how they were recorded (trained classifier; clean windows right per class, "
         "disguised training windows caught; n = windows)\n"
      << pad("", 54);
  for (const char* n : kTrueClassNames) out << pad(std::string(n).substr(0, 8), 9);
  out << "clean       n   disguised       n\n";
  for (const auto& r : s["by_recording"]) {
    const json& clean = r["xgboost"]["clean"];
    const json& disguised = r["xgboost"]["disguised"];
    out << "  " << pad(r["recording"].get<std::string>(), 52);
    for (const char* n : kTrueClassNames)
      out << pad(clean["per_class"].contains(n) ? pct(clean["per_class"][n]["windows"].get<double>()) : "   n/a", 9);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %6zu      %s %6zu\n", pct(clean["accuracy"]["windows"].get<double>()).c_str(),
                  clean["accuracy"]["window_count"].get<std::size_t>(),
                  pct(disguised["windows"].get<double>()).c_str(), disguised["training_windows"].get<std::size_t>());
    out << buf;
  }
}

void standard(std::ostream& out, const json& s) {
  out << s["data"].get<std::string>() << "\n\n";
  out << pad("Clean traces, accuracy (windows / per-GPU jobs)", 50) << pad("rules", 20) << "xgboost\n";
  for (const auto& r : s["clean"])
    out << "  " << pad(r["row"].get<std::string>().substr(6), 48) << pad(pair(r["rules"]["accuracy"]), 20)
        << pair(r["xgboost"]["accuracy"]) << '\n';
  out << '\n' << pad("Disguised training detected (windows / jobs)", 50) << pad("rules", 20) << "xgboost\n";
  for (const auto& r : s["evasion"])
    out << "  " << pad(r["row"].get<std::string>().substr(8), 48) << pad(pair(r["rules"]["detection"]), 20)
        << pair(r["xgboost"]["detection"]) << '\n';
  out << '\n' << pad("Non-training called TRAINING (windows / jobs)", 50) << pad("rules", 20) << "xgboost\n";
  for (const auto& [cls, v] : s["overall"]["xgboost"]["false_training"].items())
    out << "  " << pad(cls, 48) << pad(pair(s["overall"]["rules"]["false_training"].value(cls, json::object())), 20)
        << pair(v) << '\n';
  out << "  " << pad("every class but IDLE, pooled (jobs)", 48)
      << pad(pooled(s["overall"]["rules"].value("false_training_pooled", json::object())), 20)
      << pooled(s["overall"]["xgboost"].value("false_training_pooled", json::object())) << '\n';
  out << '\n' << pad("All test traces, accuracy (windows / jobs)", 50) << pad(pair(s["overall"]["rules"]["accuracy"]), 20)
      << pair(s["overall"]["xgboost"]["accuracy"]) << "\n\n";
  out << "Calibration of the trained classifier (windows): confidence bin, windows, mean confidence, accuracy\n";
  for (const auto& b : s["overall"]["xgboost"]["calibration"]) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "  %.1f-%.1f  %7zu  %s  %s\n", b["bin"][0].get<double>(), b["bin"][1].get<double>(),
                  b["windows"].get<std::size_t>(), pct(b["mean_confidence"].get<double>()).c_str(),
                  pct(b["accuracy"].get<double>()).c_str());
    out << buf;
  }
  if (const auto abstained = s["overall"]["xgboost"].value("abstained_windows", std::size_t{0}))
    out << "  UNKNOWN (abstained, no class claimed): " << abstained << " windows, not in the table\n";
  training_score(out, s["overall"]["xgboost"]);
  out << "\nConfusion of the trained classifier (windows; rows: truth, columns: verdict)\n";
  out << pad("", 12);
  for (const char* n : kClassNames) out << pad(std::string(n).substr(0, 8), 10);
  out << '\n';
  for (const auto& [truth, row] : s["overall"]["xgboost"]["confusion_windows"].items()) {
    out << pad(truth, 12);
    for (const char* n : kClassNames) out << pad(std::to_string(row.value(n, 0)), 10);
    out << '\n';
  }
  by_recording(out, s);
}

void loso(std::ostream& out, const json& s) {
  out << s["data"].get<std::string>() << "\n\n";
  out << pad("Held-out evasion family: called TRAINING (windows / jobs)", 60)
      << "non-training called TRAINING: worst class (windows), pooled (jobs)\n";
  for (const auto& r : s["leave_one_evasion_family_out"]) {
    double worst = 0;
    for (const auto& [cls, v] : r["false_training"].items()) worst = std::max(worst, v["windows"].get<double>());
    out << "  " << pad(r["held_out"].get<std::string>(), 40) << pad(pair(r["detection"]), 20) << "worst class "
        << pct(worst) << "   pooled " << pooled(r.value("false_training_pooled", json::object()));
    // The same family's windows caught by a threshold on P(TRAINING) that lets through at most 1 %
    // of the fold's non-training windows (the target, as one operating point).
    if (r.contains("training_score"))
      for (const auto& p : r["training_score"]["operating_points"])
        if (p["target_false_positive_rate"] == 0.01 && !p["detection_disguised"].is_null())
          out << "   at 1 %: " << pct(p["detection_disguised"].get<double>());
    out << '\n';
  }
  out << "  (pooled: per-GPU jobs of every class but TRAINING and IDLE called TRAINING, called / jobs;\n"
         "  at 1 %: the family's windows caught by a bar on P(TRAINING) set so that 1 % of that retrained\n"
         "  model's non-training windows pass it)\n";
  out << '\n' << pad("Held-out GPU model: accuracy (windows / jobs)", 60) << "training called TRAINING (windows / jobs)\n";
  for (const auto& r : s["leave_one_gpu_model_out"])
    out << "  " << pad(r["held_out"].get<std::string>(), 40) << pad(pair(r["accuracy"]), 20) << pair(r["detection"])
        << '\n';
  out << '\n' << pad("Trained on NVIDIA models only, tested on AMD: accuracy", 60) << "training called TRAINING\n";
  for (const auto& r : s["nvidia_only_tested_on_amd"])
    out << "  " << pad(r["held_out"].get<std::string>(), 40) << pad(pair(r["accuracy"]), 20) << pair(r["detection"])
        << '\n';
}

// The reliability table in three coarse bins: a directory of real traces has too few windows for
// ten, and the question is whether a sure verdict is a right one.
void real_calibration(std::ostream& out, const json& c) {
  struct Group {
    double lo, hi;
    std::size_t windows = 0;
    double confidence = 0, right = 0;
  };
  std::array<Group, 3> groups{{{0.9, 1.0}, {0.7, 0.9}, {0.0, 0.7}}};
  for (const auto& b : c["bins"]) {
    const double lo = b["bin"][0].get<double>();
    Group& g = *std::find_if(groups.begin(), groups.end(), [&](const Group& other) { return lo >= other.lo - 1e-9; });
    const auto n = b["windows"].get<std::size_t>();
    g.windows += n;
    g.confidence += b["mean_confidence"].get<double>() * static_cast<double>(n);
    g.right += b["accuracy"].get<double>() * static_cast<double>(n);
  }
  out << "  calibration of xgboost (windows given a class): confidence bin, windows, mean confidence, right\n";
  for (const Group& g : groups) {
    if (!g.windows) continue;
    const double n = static_cast<double>(g.windows);
    char buf[100];
    std::snprintf(buf, sizeof buf, "    %.1f-%.1f  %7zu  %s  %s\n", g.lo, g.hi, g.windows, pct(g.confidence / n).c_str(),
                  pct(g.right / n).c_str());
    out << buf;
  }
  if (const auto abstained = c.value("abstained_windows", std::size_t{0}))
    out << "    UNKNOWN (abstained, no class claimed): " << abstained << " windows\n";
}

// The per-GPU summaries that disagree with their truth, one line each, so that a reader sees
// which GPUs a figure loses and by how much: `files` holds (run, its gpu_outcome array) pairs.
void wrong_gpus(std::ostream& out, const std::vector<std::pair<std::string, const json*>>& files) {
  std::size_t total = 0;
  std::vector<std::pair<std::string, const json*>> wrong;
  for (const auto& [run, gpus] : files)
    for (const auto& g : *gpus) {
      ++total;
      if (g["truth"] != g["verdict"]) wrong.emplace_back(run, &g);
    }
  out << "  per-GPU summaries of xgboost that are wrong: " << wrong.size() << " of " << total;
  if (wrong.empty()) {
    out << '\n';
    return;
  }
  out << " (truth -> verdict, confidence; how its windows were called)\n";
  // A directory of thousands of traces would bury the rest of the report; the JSON has them all.
  constexpr std::size_t kMostListed = 40;
  const std::size_t listed = std::min(wrong.size(), kMostListed);
  std::size_t width = 0;
  for (std::size_t i = 0; i < listed; ++i) width = std::max(width, wrong[i].first.size());
  for (std::size_t i = 0; i < listed; ++i) {
    const json& g = *wrong[i].second;
    std::string windows;
    for (const auto& w : g["windows"].items())
      windows += (windows.empty() ? "" : ", ") + std::to_string(w.value().get<std::size_t>()) + " " + w.key();
    char conf[16];
    std::snprintf(conf, sizeof conf, "%.2f", g["confidence"].get<double>());
    out << "    " << pad(wrong[i].first, width + 2) << pad("GPU " + std::to_string(g["gpu"].get<int>()), 8)
        << pad(g["truth"].get<std::string>() + " -> " + g["verdict"].get<std::string>(), 23) << pad(conf, 6) << windows
        << '\n';
  }
  if (listed < wrong.size())
    out << "    ... and " << wrong.size() - listed << " more (every GPU is in the --json output)\n";
}

// Each file as one run, its GPUs pooled as one job (what `classify --job run=all` reports):
// how many runs each classifier gets right, and the multi-GPU runs xgboost gets wrong (a one-GPU
// run is its GPU, in the list that follows).
void wrong_runs(std::ostream& out, const json& r) {
  out << "  runs, each file's GPUs pooled as one job:";
  for (const char* name : {"rules", "xgboost"})
    if (r["runs"].contains(name))
      out << " " << name << " " << r["runs"][name]["right"].get<std::size_t>() << " of "
          << r["runs"][name]["count"].get<std::size_t>() << (name == std::string("rules") ? "," : "");
  std::string wrong;
  for (const auto& f : r["files"]) {
    if (!f.contains("xgboost") || !f["xgboost"].contains("run")) continue;
    const json& run = f["xgboost"]["run"];
    if (run["truth"] == run["verdict"] || f["xgboost"]["gpus"].size() < 2) continue;
    wrong += "\n    " + f["run"].get<std::string>() + " (" + std::to_string(f["xgboost"]["gpus"].size()) +
             " GPUs): " + run["truth"].get<std::string>() + " -> " + run["verdict"].get<std::string>();
  }
  out << (wrong.empty() ? "\n" : "; multi-GPU runs xgboost gets wrong (one-GPU runs are listed below):" + wrong + "\n");
}

void real(std::ostream& out, const json& r) {
  out << "\n" << r["data"].get<std::string>() << '\n';
  std::vector<std::pair<std::string, const json*>> files;
  if (r.contains("leave_one_source_out")) {
    for (const auto& s : r["leave_one_source_out"]) {
      out << "  " << pad(s["held_out_source"].get<std::string>(), 30) << "accuracy (windows / jobs) "
          << pair(s["accuracy"]) << "  (" << counted(s["accuracy"]["job_count"].get<std::size_t>(), "GPU") << ")\n";
      for (const auto& f : s["files"]) files.emplace_back(f["run"].get<std::string>(), &f["gpus"]);
    }
    wrong_gpus(out, files);
    return;
  }
  for (const char* key : {"by_source", "by_label"}) {
    out << pad(std::string("  ") + (key == std::string("by_source") ? "per source" : "per label") +
                   ": accuracy (windows / jobs), active windows",
               60)
        << pad("rules", 28) << "xgboost\n";
    for (const auto& item : r[key].items()) {  // (clang 14 cannot capture structured bindings)
      const std::string name = item.key();
      const json& by = item.value();
      auto cell = [&](const char* c) {
        const json& active = by[c]["active_window_accuracy"];
        return pair(by[c]["accuracy"]) + ", " + (active.is_null() ? std::string("   n/a") : pct(active.get<double>()));
      };
      const json& trained = r.value("trained_on_sources", json::array());
      const bool in_training = key == std::string("by_source") && std::find(trained.begin(), trained.end(), name) != trained.end();
      out << "    " << pad(name + " (" + counted(by["xgboost"]["accuracy"]["job_count"].get<std::size_t>(), "GPU") +
                             (in_training ? ", trained on" : "") + ")",
                         56)
          << pad(cell("rules"), 28) << cell("xgboost") << '\n';
    }
  }
  if (r.contains("runs")) wrong_runs(out, r);
  for (const auto& f : r["files"])
    if (f.contains("xgboost")) files.emplace_back(f["run"].get<std::string>(), &f["xgboost"]["gpus"]);
  wrong_gpus(out, files);
  if (r.contains("calibration") && r["calibration"].contains("xgboost")) real_calibration(out, r["calibration"]["xgboost"]);
  if (r.contains("training_score") && r["training_score"].contains("xgboost") &&
      !r["training_score"]["xgboost"]["roc_auc"].is_null()) {
    const json& ts = r["training_score"]["xgboost"];
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "  is this training? P(TRAINING) of active windows, training against the rest: ROC AUC %.3f "
                  "(%zu training, %zu other windows)\n",
                  ts["roc_auc"].get<double>(), ts["windows"]["training"].get<std::size_t>(),
                  ts["windows"]["other"].get<std::size_t>());
    out << buf;
  }
}

}  // namespace

void print_benchmark_text(std::ostream& out, const json& report) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "WorkloadTruth benchmark: %g s windows every %g s, protocol ",
                report["window_seconds"].get<double>(), report["stride_seconds"].get<double>());
  out << buf << report["protocol"].get<std::string>() << ", ";
  if (report.contains("train_traces"))
    out << "models retrained for each held-out part (" << report["train_traces"].get<std::size_t>()
        << " traces per scenario)\n\n";
  else
    out << "model of " << report["model"].get<std::string>() << "\n\n";
  if (report.contains("synthetic")) {  // loso-real scores real sources only
    if (report["protocol"] == "loso")
      loso(out, report["synthetic"]);
    else
      standard(out, report["synthetic"]);
  }
  if (report.contains("real"))
    for (const auto& r : report["real"]) real(out, r);
  out << "\nJobs are per-GPU summary verdicts. Synthetic and real figures are never blended.\n";
}

}  // namespace wt
