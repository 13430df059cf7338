#include "audit/log_summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <utility>

#include "audit/mapped_file.hpp"
#include "audit/signing_key.hpp"
#include "core/diagnostic.hpp"
#include "core/time_format.hpp"

namespace wt::audit {
namespace {

using nlohmann::json;

constexpr double kSureConfidence = 0.9;

// The members of one entry the summary reads; everything else (reasons, most features) is
// skipped as it streams past: over a million-entry log, 8.0 s instead of 10.3 s for building each
// entry's JSON (wt_bench, one run each).
struct EntryFields {
  bool object = false, has_workload_type = false;
  std::string type, uuid, host, workload_type, window_start, window_end, state, declared, observed, at;
  std::optional<double> gpu_index, confidence, watts;
};

// A SAX handler for nlohmann's parser (non-recursive, so any nesting is safe): top-level strings
// and numbers by name, and features.avg_power_watts.
class FieldReader {
 public:
  explicit FieldReader(EntryFields& f) : f_(f) {}
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t v) { return number(static_cast<double>(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return number(static_cast<double>(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return number(v); }
  bool string(json::string_t& v) {
    if (depth_ != 1) return true;
    if (key_ == "type") f_.type = std::move(v);
    else if (key_ == "uuid") f_.uuid = std::move(v);
    else if (key_ == "host") f_.host = std::move(v);
    else if (key_ == "workload_type") f_.workload_type = std::move(v), f_.has_workload_type = true;
    else if (key_ == "window_start") f_.window_start = std::move(v);
    else if (key_ == "window_end") f_.window_end = std::move(v);
    else if (key_ == "state") f_.state = std::move(v);
    else if (key_ == "declared") f_.declared = std::move(v);
    else if (key_ == "observed") f_.observed = std::move(v);
    else if (key_ == "at") f_.at = std::move(v);
    return true;
  }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) {
    if (depth_ == 0) f_.object = true;
    if (depth_ == 1) in_features_ = key_ == "features";  // objects nested deeper leave it as it is
    ++depth_;
    return true;
  }
  bool key(json::string_t& k) {
    if (depth_ == 1) key_ = std::move(k);
    else if (depth_ == 2 && in_features_) nested_key_ = std::move(k);
    return true;
  }
  bool end_object() { return end(); }
  bool start_array(std::size_t) {
    ++depth_;
    return true;
  }
  bool end_array() { return end(); }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) {
    return false;
  }

 private:
  bool number(double v) {
    if (depth_ == 1) {
      if (key_ == "gpu_index") f_.gpu_index = v;
      else if (key_ == "confidence") f_.confidence = v;
    } else if (depth_ == 2 && in_features_ && nested_key_ == "avg_power_watts") {
      f_.watts = v;
    }
    return true;
  }
  bool end() {
    if (--depth_ == 1) in_features_ = false;
    return true;
  }

  EntryFields& f_;
  int depth_ = 0;
  bool in_features_ = false;
  std::string key_, nested_key_;
};

std::optional<EntryFields> read_entry(std::string_view line) {
  EntryFields f;
  FieldReader reader(f);
  if (!json::sax_parse(line.begin(), line.end(), &reader) || !f.object) return std::nullopt;
  return f;
}

// Calls `fn` with each line of `text` that reads as an entry, until it returns false.
template <class Fn>
void for_each_entry(std::string_view text, Fn fn) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::optional<EntryFields> e = read_entry(text.substr(pos, end - pos));
    pos = end + 1;
    if (e && !fn(*e)) return;
  }
}

WorkloadType class_of(const std::string& text) { return parse_workload_type(text).value_or(WorkloadType::Unknown); }

// The GPU an entry is about: its UUID, else (seed-format entries) its index on its host. An
// index too large for an integer (a crafted entry) is kept as the double it is, not cast.
std::string gpu_key(const EntryFields& e) {
  if (!e.uuid.empty()) return e.uuid;
  if (!e.gpu_index) return "unnamed";
  const double i = *e.gpu_index;
  return "index " + (std::abs(i) < 1e15 ? std::to_string(static_cast<long long>(i)) : std::to_string(i)) +
         (e.host.empty() ? "" : " of " + e.host);
}

struct ClassTally {
  ClassTotals totals;
  std::set<std::string> gpus;
};

struct MismatchTally {
  std::size_t alerts = 0;
  std::set<std::string> gpus;
};

using MismatchKind = std::pair<WorkloadType, WorkloadType>;  // declared, observed

// The figures of one stretch of time that are not published.
struct Withheld {
  std::set<WorkloadType> classes;
  std::set<MismatchKind> kinds;
};

// Everything counted over one stretch of time (the whole report, or one calendar period),
// before the GPU floor decides what is published.
struct Tally {
  std::set<std::string> gpus;  // with a verdict
  std::array<ClassTally, kWorkloadTypeCount> by_class;
  std::map<MismatchKind, MismatchTally> by_mismatch;

  // One verdict window, of which `hours` are counted here (nullopt: the entry has no times).
  void add_window(WorkloadType type, const std::string& gpu, std::optional<double> hours, const EntryFields& e) {
    gpus.insert(gpu);
    ClassTally& c = by_class[static_cast<std::size_t>(type)];
    ++c.totals.windows;
    c.gpus.insert(gpu);
    if (!hours) return;
    ++c.totals.timed_windows;
    c.totals.gpu_hours += *hours;
    if (e.confidence.value_or(0) >= kSureConfidence) c.totals.sure_gpu_hours += *hours;
    if (e.watts && std::isfinite(*e.watts) && *e.watts >= 0) {
      c.totals.energy_kwh += *e.watts * *hours / 1000.0;
      c.totals.energy_gpu_hours += *hours;
    }
  }

  void add_alert(const EntryFields& e, const std::string& gpu) {
    MismatchTally& m = by_mismatch[{class_of(e.declared), class_of(e.observed)}];
    ++m.alerts;
    m.gpus.insert(gpu);
  }

  // The figures fewer than `min_gpus` GPUs make.
  Withheld below_floor(std::size_t min_gpus) const {
    Withheld w;
    for (std::size_t k = 0; k < kWorkloadTypeCount; ++k)
      if (by_class[k].totals.windows > 0 && by_class[k].gpus.size() < min_gpus)
        w.classes.insert(static_cast<WorkloadType>(k));
    for (const auto& [kind, m] : by_mismatch)
      if (m.gpus.size() < min_gpus) w.kinds.insert(kind);
    return w;
  }

  void publish(const Withheld& withheld, Aggregate& out) const {
    out.gpus = gpus.size();
    for (std::size_t k = 0; k < kWorkloadTypeCount; ++k) {
      const ClassTally& c = by_class[k];
      if (c.totals.windows == 0) continue;
      if (withheld.classes.contains(static_cast<WorkloadType>(k))) {
        ++out.classes_withheld;
        continue;
      }
      ClassTotals t = c.totals;
      t.type = static_cast<WorkloadType>(k);
      t.gpus = c.gpus.size();
      out.classes.push_back(t);
    }
    for (const auto& [kind, m] : by_mismatch) {
      if (withheld.kinds.contains(kind)) {
        ++out.mismatch_kinds_withheld;
        continue;
      }
      out.mismatches.push_back({kind.first, kind.second, m.alerts, m.gpus.size()});
    }
  }
};

// One figure (a class or mismatch kind) in each period, whose sum the whole report shows: the
// whole minus the periods shown gives the withheld ones' sum, so together they must cover the
// floor's GPUs too. The shown ones on the fewest GPUs (the earliest first) are withheld with them
// until they do, or until all are (then the whole's own floor protects them).
struct PeriodCell {
  std::size_t period;  // its place in the report's periods
  const std::set<std::string>* gpus;
  bool withheld;
};
void withhold_complements(std::vector<PeriodCell>& cells, std::size_t min_gpus) {
  std::set<std::string> covered;
  for (const PeriodCell& c : cells)
    if (c.withheld) covered.insert(c.gpus->begin(), c.gpus->end());
  if (covered.empty()) return;
  std::vector<PeriodCell*> shown;
  for (PeriodCell& c : cells)
    if (!c.withheld) shown.push_back(&c);
  std::stable_sort(shown.begin(), shown.end(),
                   [](const PeriodCell* a, const PeriodCell* b) { return a->gpus->size() < b->gpus->size(); });
  for (PeriodCell* c : shown) {
    if (covered.size() >= min_gpus) break;
    c->withheld = true;
    covered.insert(c->gpus->begin(), c->gpus->end());
  }
}

// The calendar periods of a report cut by `by`, made as entries reach them.
class PeriodTallies {
 public:
  explicit PeriodTallies(CalendarUnit unit) : unit_(unit) {}

  Tally& at(double period_start_s) {
    auto [it, added] = tallies_.try_emplace(period_start_s);
    if (added && tallies_.size() > kMaxReportPeriods)
      throw InputError("the report would have more than " + std::to_string(kMaxReportPeriods) + " " +
                       to_string(unit_) + "s: narrow the period (from, to) or cut it by a longer unit");
    return it->second;
  }

  // Splits the window [start, stop) over the periods it touches; of each piece only what lies
  // after `covered_from` (the end of the GPU's time counted before) adds hours.
  void add_window(WorkloadType type, const std::string& gpu, double start, double stop, double covered_from,
                  const EntryFields& e) {
    for (double p = period_start(start, unit_);;) {
      const double next = next_period_start(p, unit_);
      const double piece_start = std::max(start, p), piece_stop = std::min(stop, next);
      at(p).add_window(type, gpu, std::max(0.0, piece_stop - std::max(piece_start, covered_from)) / 3600.0, e);
      if (stop <= next) break;
      p = next;
    }
  }

  // Each period's figures over the floor, less those that the whole report's (`whole`, with
  // what it withholds) would give away by subtraction.
  void publish(std::size_t min_gpus, const Tally& whole, const Withheld& whole_withheld,
               std::vector<PeriodAggregate>& out) const {
    std::vector<Withheld> withheld;
    for (const auto& [start, tally] : tallies_) withheld.push_back(tally.below_floor(min_gpus));
    for (std::size_t k = 0; k < kWorkloadTypeCount; ++k) {
      const auto type = static_cast<WorkloadType>(k);
      if (whole.by_class[k].totals.windows == 0 || whole_withheld.classes.contains(type)) continue;
      guard_figure(withheld, &Withheld::classes, type, min_gpus, [k](const Tally& t) {
        return t.by_class[k].totals.windows > 0 ? &t.by_class[k].gpus : nullptr;
      });
    }
    for (const auto& whole_kind : whole.by_mismatch) {
      const MismatchKind& kind = whole_kind.first;  // named, not bound: clang 14 captures no structured binding
      if (whole_withheld.kinds.contains(kind)) continue;
      guard_figure(withheld, &Withheld::kinds, kind, min_gpus, [&kind](const Tally& t) {
        const auto it = t.by_mismatch.find(kind);
        return it != t.by_mismatch.end() ? &it->second.gpus : nullptr;
      });
    }
    std::size_t i = 0;
    for (const auto& [start, tally] : tallies_) {
      PeriodAggregate& p = out.emplace_back();
      p.start_s = start;
      p.end_s = next_period_start(start, unit_);
      tally.publish(withheld[i++], p);
    }
  }

 private:
  // Withholds one figure (`key` in `Withheld::*set`) in the periods where showing it would give
  // the withheld ones away; `gpus_of(tally)` names its GPUs in a period (nullptr: not there).
  template <class Key, class GpusOf>
  void guard_figure(std::vector<Withheld>& withheld, std::set<Key> Withheld::*set, const Key& key,
                    std::size_t min_gpus, GpusOf gpus_of) const {
    std::vector<PeriodCell> cells;
    std::size_t i = 0;
    for (const auto& [start, tally] : tallies_) {
      if (const std::set<std::string>* gpus = gpus_of(tally))
        cells.push_back({i, gpus, (withheld[i].*set).contains(key)});
      ++i;
    }
    withhold_complements(cells, min_gpus);
    for (const PeriodCell& c : cells)
      if (c.withheld) (withheld[c.period].*set).insert(key);
  }

  CalendarUnit unit_;
  std::map<double, Tally> tallies_;
};

}  // namespace

// Everything the summary keeps between the logs it reads.
struct LogSummarizer::State {
  explicit State(const SummaryOptions& o)
      : options(o),
        period_from(o.from_s.value_or(-INFINITY)),
        period_to(o.to_s.value_or(INFINITY)),
        period(o.from_s || o.to_s) {
    if (o.by) periods.emplace(*o.by);
  }
  SummaryOptions options;
  double period_from, period_to;
  bool period;
  std::size_t mismatch_events = 0;
  Tally whole;
  std::optional<PeriodTallies> periods;
  std::map<std::string, double> covered_until;  // per GPU: the end of the telemetry time counted so far
  std::optional<double> first_start, last_end;

  bool in_period(const std::optional<double>& t) const { return t ? *t >= period_from && *t < period_to : !period; }
  void add_entry(const EntryFields& e);
};

void LogSummarizer::State::add_entry(const EntryFields& e) {
  if (e.type == "mismatch") {
    ++mismatch_events;
    const auto at = parse_timestamp(e.at);
    if (e.state != "raised" || !in_period(at)) return;
    whole.add_alert(e, gpu_key(e));
    if (periods && at) periods->at(period_start(*at, *options.by)).add_alert(e, gpu_key(e));
    return;
  }
  if (!e.type.empty() || !e.has_workload_type) return;  // checkpoints, and anything newer

  const std::string gpu = gpu_key(e);
  const WorkloadType type = class_of(e.workload_type);
  const auto start = parse_timestamp(e.window_start);
  const auto stop = parse_timestamp(e.window_end);
  const bool timed = start && stop && *stop >= *start;
  if (period && (!timed || *stop <= period_from || *start >= period_to)) return;
  if (!timed) {
    whole.add_window(type, gpu, std::nullopt, e);
    return;
  }
  const double clipped_start = std::max(*start, period_from), clipped_stop = std::min(*stop, period_to);
  first_start = std::min(first_start.value_or(clipped_start), clipped_start);
  last_end = std::max(last_end.value_or(clipped_stop), clipped_stop);
  const auto until = covered_until.try_emplace(gpu, *start).first;
  const double covered_from = until->second;
  whole.add_window(type, gpu, std::max(0.0, clipped_stop - std::max(clipped_start, covered_from)) / 3600.0, e);
  if (periods) periods->add_window(type, gpu, clipped_start, clipped_stop, covered_from, e);
  until->second = std::max(until->second, *stop);
}

LogSummarizer::LogSummarizer(const SummaryOptions& options) : state_(std::make_unique<State>(options)) {}
LogSummarizer::~LogSummarizer() = default;

void LogSummarizer::add(std::string_view text) {
  for_each_entry(text, [this](const EntryFields& e) {
    state_->add_entry(e);
    return true;
  });
}

LogSummary LogSummarizer::finish() const {
  const State& st = *state_;
  LogSummary s;
  s.options = st.options;
  s.mismatch_events = st.mismatch_events;
  const Withheld whole_withheld = st.whole.below_floor(st.options.min_gpus);
  st.whole.publish(whole_withheld, s);
  if (st.periods) st.periods->publish(st.options.min_gpus, st.whole, whole_withheld, s.periods);
  if (st.first_start) {
    s.first_window_start = format_iso_time(*st.first_start);
    s.last_window_end = format_iso_time(*st.last_end);
  }
  return s;
}

LogSummary summarize_log(std::string_view text, const SummaryOptions& options) {
  LogSummarizer s(options);
  s.add(text);
  return s.finish();
}

std::optional<double> first_window_start(std::string_view text) {
  std::optional<double> first;
  for_each_entry(text, [&first](const EntryFields& e) {
    if (e.type.empty() && e.has_workload_type) first = parse_timestamp(e.window_start);
    return !first;
  });
  return first;
}

SummaryOptions parse_summary_options(std::size_t min_gpus, const std::string& from, const std::string& to,
                                     const std::string& by, const std::string& flag_prefix) {
  SummaryOptions o;
  o.min_gpus = min_gpus;
  if (!from.empty()) o.from_s = parse_time_option(flag_prefix + "from", from);
  if (!to.empty()) o.to_s = parse_time_option(flag_prefix + "to", to);
  if (o.from_s && o.to_s && *o.from_s >= *o.to_s)
    throw std::invalid_argument(flag_prefix + "from must come before " + flag_prefix + "to");
  if (!by.empty()) {
    o.by = parse_calendar_unit(by);
    if (!o.by) throw std::invalid_argument(flag_prefix + "by '" + by + "': give day, week or month");
  }
  return o;
}

namespace {

// Each log checked with its own options; summed up only if every one verified.
VerifiedLogs verify_each_and_summarize(const std::vector<std::string>& paths, const std::vector<VerifyOptions>& verify,
                                       const SummaryOptions& summary) {
  VerifiedLogs out;
  std::vector<std::unique_ptr<MappedFile>> logs;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    logs.push_back(std::make_unique<MappedFile>(paths[i]));
    out.checks.push_back(verify_log_text(logs.back()->text(), verify[i]));
  }
  if (!std::all_of(out.checks.begin(), out.checks.end(), [](const VerifyResult& r) { return r.valid(); })) return out;
  // The same chain twice (a copy, or a copy taken earlier) would count its windows twice: its
  // first entry's hash names a chain.
  std::map<std::string, std::size_t> chains;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string_view text = logs[i]->text();
    const std::string first = json::parse(text.substr(0, text.find('\n')), nullptr, false).value("entry_hash", "");
    if (first.empty()) continue;  // an empty log
    if (const auto [it, added] = chains.try_emplace(first, i); !added)
      throw InputError(paths[i] + ": the same log as " + paths[it->second] +
                       " (the same first entry): each log is summed up once");
  }
  // Oldest first, so that a GPU's windows across a rotated log arrive in time order (the time
  // counted per GPU only moves forward); logs without a timed verdict last.
  std::vector<std::size_t> order(paths.size());
  std::vector<double> first(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    order[i] = i;
    first[i] = first_window_start(logs[i]->text()).value_or(INFINITY);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return first[a] < first[b]; });
  LogSummarizer summarizer(summary);
  for (const std::size_t i : order) {
    try {
      summarizer.add(logs[i]->text());
    } catch (const InputError& e) {
      throw InputError(paths[i] + ": " + e.what());
    }
  }
  out.summary = summarizer.finish();
  return out;
}

}  // namespace

VerifiedSummary verify_and_summarize(const std::string& path, const VerifyOptions& verify,
                                     const SummaryOptions& summary) {
  VerifiedLogs all = verify_each_and_summarize({path}, {verify}, summary);
  return {std::move(all.checks.front()), std::move(all.summary)};
}

VerifiedLogs verify_and_summarize(const std::vector<std::string>& paths, const std::vector<std::string>& key_files,
                                  const SummaryOptions& summary, const std::string& keys_name) {
  if (key_files.size() > 1 && key_files.size() != paths.size())
    throw std::invalid_argument(keys_name + ": give one key for every log, or one per log in the logs' order (" +
                                std::to_string(paths.size()) + " logs, " + std::to_string(key_files.size()) +
                                " keys)");
  std::vector<PublicKey> keys;
  for (const std::string& k : key_files) keys.push_back(PublicKey::load(k));
  std::vector<VerifyOptions> verify(paths.size());
  for (std::size_t i = 0; i < verify.size() && !keys.empty(); ++i)
    verify[i].public_key = &keys[keys.size() == 1 ? 0 : i];
  return verify_each_and_summarize(paths, verify, summary);
}

}  // namespace wt::audit
