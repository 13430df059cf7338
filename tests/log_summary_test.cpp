// An audit log's aggregate (src/audit/log_summary.cpp): time covered per class with windows that
// overlap, energy, confidence, withholding below the GPU floor (and in periods, what would give a
// withheld figure away), mismatch alerts, a period asked for, seed-format entries.
#include "audit/log_summary.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "audit/audit_log.hpp"
#include "core/diagnostic.hpp"
#include "core/time_format.hpp"

namespace wt::audit {
namespace {

using nlohmann::json;

// One verdict line as watch logs it (hashes left out: summarize_log reads a log already verified).
std::string verdict(const std::string& uuid, const std::string& type, double confidence, int start_s, int end_s,
                    double watts = -1) {
  auto at = [](int s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "2026-01-01T%02d:%02d:%02d.000", s / 3600, s / 60 % 60, s % 60);
    return std::string(buf);
  };
  json e = {{"uuid", uuid},           {"gpu_index", 0},          {"workload_type", type},
            {"confidence", confidence}, {"window_start", at(start_s)}, {"window_end", at(end_s)},
            {"features", json::object()}};
  if (watts >= 0) e["features"]["avg_power_watts"] = watts;
  return e.dump() + "\n";
}

std::string mismatch(const std::string& uuid, const std::string& state, const std::string& declared,
                     const std::string& observed) {
  return json{{"type", "mismatch"}, {"state", state},       {"uuid", uuid},
              {"declared", declared}, {"observed", observed}, {"declared_by", "pod:secret-customer"}}
             .dump() +
         "\n";
}

SummaryOptions at_least(std::size_t gpus) {
  SummaryOptions o;
  o.min_gpus = gpus;
  return o;
}

TEST(LogSummary, CountsOverlappingWindowsOnceAndWeighsEnergyAndConfidence) {
  std::string log;
  // GPU a: four 30 s windows every 15 s (75 s covered), 400 W; the first one unsure.
  log += verdict("GPU-a", "TRAINING", 0.6, 0, 30, 400);
  for (int k = 1; k < 4; ++k) log += verdict("GPU-a", "TRAINING", 0.99, 15 * k, 15 * k + 30, 400);
  // GPU b: trains 30 s at 200 W, then serves 15 s without power recorded.
  log += verdict("GPU-b", "TRAINING", 0.95, 0, 30, 200);
  log += verdict("GPU-b", "INFERENCE", 0.9, 15, 45);
  log += R"({"type":"checkpoint","entries":6,"head":"x","final":true})" "\n";
  const LogSummary s = summarize_log(log, at_least(1));
  EXPECT_EQ(s.gpus, 2u);
  EXPECT_EQ(s.first_window_start, "2026-01-01T00:00:00.000");
  EXPECT_EQ(s.last_window_end, "2026-01-01T00:01:15.000");
  ASSERT_EQ(s.classes.size(), 2u);
  const ClassTotals& t = s.classes[0];
  EXPECT_EQ(t.type, WorkloadType::Training);
  EXPECT_EQ(t.gpus, 2u);
  EXPECT_EQ(t.windows, 5u);
  EXPECT_NEAR(t.gpu_hours * 3600, 75 + 30, 1e-6);
  EXPECT_NEAR(t.sure_gpu_hours * 3600, 45 + 30, 1e-6);  // a's first 30 s were at 0.6
  EXPECT_NEAR(t.energy_kwh * 3.6e6, 400 * 75 + 200 * 30, 1e-3);
  EXPECT_NEAR(t.energy_gpu_hours, t.gpu_hours, 1e-12);
  const ClassTotals& i = s.classes[1];
  EXPECT_EQ(i.type, WorkloadType::Inference);
  EXPECT_NEAR(i.gpu_hours * 3600, 15, 1e-6);  // only what follows b's training window
  EXPECT_EQ(i.energy_gpu_hours, 0);
}

TEST(LogSummary, WithholdsWhatFewerGpusThanTheFloorShow) {
  std::string log;
  for (const char* g : {"GPU-1", "GPU-2", "GPU-3"}) log += verdict(g, "INFERENCE", 1, 0, 30);
  log += verdict("GPU-4", "MINING", 1, 0, 30);
  for (const char* g : {"GPU-1", "GPU-2", "GPU-3"}) log += mismatch(g, "raised", "INFERENCE", "TRAINING");
  log += mismatch("GPU-1", "cleared", "INFERENCE", "TRAINING");
  log += mismatch("GPU-4", "raised", "TRAINING", "MINING");
  const LogSummary s = summarize_log(log, at_least(3));
  EXPECT_EQ(s.gpus, 4u);
  ASSERT_EQ(s.classes.size(), 1u);
  EXPECT_EQ(s.classes[0].type, WorkloadType::Inference);
  EXPECT_EQ(s.classes_withheld, 1u);  // MINING, on one GPU
  EXPECT_EQ(s.mismatch_events, 5u);
  ASSERT_EQ(s.mismatches.size(), 1u);
  EXPECT_EQ(s.mismatches[0].declared, WorkloadType::Inference);
  EXPECT_EQ(s.mismatches[0].observed, WorkloadType::Training);
  EXPECT_EQ(s.mismatches[0].alerts, 3u);  // the cleared event is no alert
  EXPECT_EQ(s.mismatches[0].gpus, 3u);
  EXPECT_EQ(s.mismatch_kinds_withheld, 1u);

  const LogSummary everything = summarize_log(log, at_least(1));
  EXPECT_EQ(everything.classes.size(), 2u);
  EXPECT_EQ(everything.mismatches.size(), 2u);
}

TEST(LogSummary, APeriodCountsOnlyWhatFallsInsideIt) {
  std::string log;
  // One GPU, 30 s windows every 15 s from 0 to 120 s; an alert raised at 100 s.
  for (int k = 0; k < 7; ++k) log += verdict("GPU-a", "TRAINING", 1, 15 * k, 15 * k + 30, 300);
  log += json{{"type", "mismatch"}, {"state", "raised"}, {"uuid", "GPU-a"}, {"declared", "INFERENCE"},
              {"observed", "TRAINING"}, {"at", "2026-01-01T00:01:40.000"}}
             .dump() +
         "\n";
  log += R"({"timestamp": "2026-01-01T00:00:00", "gpu_index": 3, "workload_type": "IDLE"})" "\n";  // seed format
  SummaryOptions o = at_least(1);
  o.from_s = *parse_timestamp("2026-01-01T00:00:40");
  o.to_s = *parse_timestamp("2026-01-01T00:01:30");
  const LogSummary s = summarize_log(log, o);
  ASSERT_EQ(s.classes.size(), 1u);  // the seed-format entry has no time to place it by
  EXPECT_NEAR(s.classes[0].gpu_hours * 3600, 50, 1e-6);
  EXPECT_NEAR(s.classes[0].energy_kwh * 3.6e6, 300 * 50, 1e-3);
  EXPECT_EQ(s.classes[0].windows, 5u);  // those that start before 90 s and end after 40 s
  EXPECT_EQ(s.first_window_start, "2026-01-01T00:00:40.000");
  EXPECT_EQ(s.last_window_end, "2026-01-01T00:01:30.000");
  EXPECT_TRUE(s.mismatches.empty());  // raised after the period
  o.to_s.reset();
  EXPECT_EQ(summarize_log(log, o).mismatches.size(), 1u);
}

TEST(LogSummary, ReadsPowerAfterANestedFeatureAndSurvivesAnAbsurdIndex) {
  const std::string log =
      R"({"gpu_index":0,"uuid":"GPU-a","workload_type":"TRAINING","confidence":1,)"
      R"("window_start":"2026-01-01T00:00:00.000","window_end":"2026-01-01T01:00:00.000",)"
      R"("features":{"extra":{"avg_power_watts":1},"avg_power_watts":250}})" "\n"
      R"({"gpu_index":1e300,"workload_type":"IDLE"})" "\n";
  const LogSummary s = summarize_log(log, at_least(1));
  ASSERT_EQ(s.classes.size(), 2u);
  EXPECT_NEAR(s.classes[0].energy_kwh, 0.25, 1e-9);  // the top-level feature, not the nested one
  EXPECT_EQ(s.gpus, 2u);
}

TEST(LogSummary, SeedFormatEntriesCountAsWindowsWithoutTime) {
  const std::string log =
      R"({"timestamp": "2026-01-01T00:00:00", "gpu_index": 0, "workload_type": "TRAINING", "confidence": 1.0})" "\n"
      R"({"timestamp": "2026-01-01T00:00:15", "gpu_index": 1, "workload_type": "COOKING", "confidence": 0.5})" "\n"
      "not json\n";
  const LogSummary s = summarize_log(log, at_least(1));
  EXPECT_EQ(s.gpus, 2u);  // told apart by index
  EXPECT_EQ(s.first_window_start, "");
  ASSERT_EQ(s.classes.size(), 2u);
  EXPECT_EQ(s.classes[0].type, WorkloadType::Training);
  EXPECT_EQ(s.classes[0].timed_windows, 0u);
  EXPECT_EQ(s.classes[0].gpu_hours, 0);
  EXPECT_EQ(s.classes[1].type, WorkloadType::Unknown);  // a class this build does not know
}

TEST(LogSummary, ByDaySplitsWindowsAcrossMidnightAndFloorsEachDay) {
  // Two GPUs train across midnight (23:59:40 .. 00:00:20, 200 W); three more serve on day two
  // only; an alert is raised on each day.
  const auto entry = [](const std::string& uuid, const std::string& type, const char* start, const char* end) {
    return json{{"uuid", uuid},          {"gpu_index", 0}, {"workload_type", type}, {"confidence", 1},
                {"window_start", start}, {"window_end", end}, {"features", {{"avg_power_watts", 200}}}}
               .dump() +
           "\n";
  };
  const auto alert = [](const std::string& uuid, const char* at) {
    return json{{"type", "mismatch"}, {"state", "raised"}, {"uuid", uuid}, {"declared", "INFERENCE"},
                {"observed", "TRAINING"}, {"at", at}}
               .dump() +
           "\n";
  };
  std::string log;
  for (const char* g : {"GPU-a", "GPU-b"}) {
    log += entry(g, "TRAINING", "2026-01-01T23:59:40.000", "2026-01-02T00:00:10.000");
    log += entry(g, "TRAINING", "2026-01-01T23:59:50.000", "2026-01-02T00:00:20.000");  // overlaps the first
  }
  for (const char* g : {"GPU-c", "GPU-d", "GPU-e"}) log += entry(g, "INFERENCE", "2026-01-02T08:00:00.000", "2026-01-02T08:00:30.000");
  log += alert("GPU-a", "2026-01-01T23:59:55.000");
  log += alert("GPU-b", "2026-01-02T00:00:15.000");
  log += R"({"timestamp": "2026-01-01T00:00:00", "gpu_index": 3, "workload_type": "IDLE"})" "\n";  // seed format: no day

  SummaryOptions o = at_least(1);
  o.by = CalendarUnit::Day;
  const LogSummary s = summarize_log(log, o);
  ASSERT_EQ(s.classes.size(), 3u);  // the whole log as without --by, seed entry included
  EXPECT_NEAR(s.classes[0].gpu_hours * 3600, 2 * 40, 1e-6);
  ASSERT_EQ(s.periods.size(), 2u);
  const PeriodAggregate& day1 = s.periods[0];
  const PeriodAggregate& day2 = s.periods[1];
  EXPECT_EQ(format_iso_time(day1.start_s), "2026-01-01T00:00:00.000");
  EXPECT_EQ(format_iso_time(day1.end_s), "2026-01-02T00:00:00.000");
  EXPECT_EQ(day1.gpus, 2u);
  EXPECT_EQ(day2.gpus, 5u);
  ASSERT_EQ(day1.classes.size(), 1u);
  EXPECT_NEAR(day1.classes[0].gpu_hours * 3600, 2 * 20, 1e-6);  // 23:59:40 .. 24:00, once per GPU
  EXPECT_NEAR(day1.classes[0].energy_kwh * 3.6e6, 200 * 40, 1e-3);
  ASSERT_EQ(day2.classes.size(), 2u);
  EXPECT_EQ(day1.classes[0].windows, 4u);  // both windows of both GPUs reach into each day
  EXPECT_EQ(day2.classes[0].windows + day2.classes[1].windows, 7u);
  EXPECT_NEAR(day2.classes[0].gpu_hours * 3600, 2 * 20, 1e-6);  // 00:00 .. 00:00:20
  EXPECT_NEAR(day2.classes[1].gpu_hours * 3600, 3 * 30, 1e-6);
  ASSERT_EQ(day1.mismatches.size(), 1u);
  ASSERT_EQ(day2.mismatches.size(), 1u);
  EXPECT_EQ(s.mismatches[0].alerts, 2u);

  // With a floor of 3 GPUs: day 1 (two GPUs) shows nothing, day 2 only the serving GPUs.
  o.min_gpus = 3;
  const LogSummary floored = summarize_log(log, o);
  EXPECT_TRUE(floored.periods[0].classes.empty());
  EXPECT_EQ(floored.periods[0].classes_withheld, 1u);
  EXPECT_EQ(floored.periods[0].mismatch_kinds_withheld, 1u);
  ASSERT_EQ(floored.periods[1].classes.size(), 1u);
  EXPECT_EQ(floored.periods[1].classes[0].type, WorkloadType::Inference);
}

TEST(LogSummary, APeriodIsAlsoWithheldWhereTheWholeLessTheOthersWouldGiveOneAway) {
  // A GPU's 30 s TRAINING window on a day of January 2026, with a mismatch alert raised in it.
  const auto on_day = [](const std::string& uuid, int day) {
    const std::string date = "2026-01-0" + std::to_string(day);
    return json{{"uuid", uuid}, {"workload_type", "TRAINING"}, {"window_start", date + "T08:00:00"},
                {"window_end", date + "T08:00:30"}}
               .dump() +
           "\n" +
           json{{"type", "mismatch"}, {"state", "raised"}, {"uuid", uuid}, {"declared", "INFERENCE"},
                {"observed", "TRAINING"}, {"at", date + "T08:00:15"}}
               .dump() +
           "\n";
  };
  SummaryOptions o = at_least(5);
  o.by = CalendarUnit::Day;
  // Day 1: GPUs 1-5; day 2: GPUs 1-6; day 3: GPU 7 alone. The whole (7 GPUs) is shown; day 3 is
  // under the floor, and the whole less days 1 and 2 would be GPU 7's figures: day 1, the shown
  // day on the fewest GPUs, is withheld with it (together 6 GPUs).
  std::string log;
  for (int g = 1; g <= 5; ++g) log += on_day("GPU-" + std::to_string(g), 1);
  for (int g = 1; g <= 6; ++g) log += on_day("GPU-" + std::to_string(g), 2);
  log += on_day("GPU-7", 3);
  const LogSummary s = summarize_log(log, o);
  ASSERT_EQ(s.classes.size(), 1u);
  EXPECT_EQ(s.classes[0].gpus, 7u);
  ASSERT_EQ(s.mismatches.size(), 1u);
  ASSERT_EQ(s.periods.size(), 3u);
  for (const std::size_t day : {0u, 2u}) {
    EXPECT_TRUE(s.periods[day].classes.empty()) << day;
    EXPECT_EQ(s.periods[day].classes_withheld, 1u) << day;
    EXPECT_TRUE(s.periods[day].mismatches.empty()) << day;
    EXPECT_EQ(s.periods[day].mismatch_kinds_withheld, 1u) << day;
  }
  ASSERT_EQ(s.periods[1].classes.size(), 1u);
  EXPECT_EQ(s.periods[1].classes[0].gpus, 6u);
  EXPECT_EQ(s.periods[1].mismatches.size(), 1u);

  // Withheld days that together cover the floor need no other: day 4 (GPUs 8-11) and day 3 make 5.
  for (int g = 8; g <= 11; ++g) log += on_day("GPU-" + std::to_string(g), 4);
  const LogSummary four = summarize_log(log, o);
  ASSERT_EQ(four.periods.size(), 4u);
  EXPECT_EQ(four.periods[0].classes.size(), 1u);
  EXPECT_EQ(four.periods[1].classes.size(), 1u);
  EXPECT_TRUE(four.periods[2].classes.empty());
  EXPECT_TRUE(four.periods[3].classes.empty());
  EXPECT_EQ(four.periods[0].mismatches.size(), 1u);
}

TEST(LogSummary, RefusesMoreThanTheMostPeriods) {
  const std::string log = json{{"uuid", "GPU-a"}, {"workload_type", "TRAINING"}, {"window_start", "1970-01-01T00:00:00"},
                               {"window_end", "9999-12-31T00:00:00"}}
                              .dump() +
                          "\n";
  SummaryOptions o = at_least(1);
  o.by = CalendarUnit::Day;
  EXPECT_THROW(summarize_log(log, o), InputError);
  o.by = CalendarUnit::Month;  // about 96 000 months: still too many
  EXPECT_THROW(summarize_log(log, o), InputError);
  o.from_s = *parse_timestamp("2026-01-01T00:00:00");
  o.to_s = *parse_timestamp("2027-01-01T00:00:00");
  EXPECT_EQ(summarize_log(log, o).periods.size(), 12u);  // a period asked for bounds it
}

TEST(LogSummary, RotatedLogsCountEachGpuOnceInWhateverOrderTheyCome) {
  // One GPU's log rotated at 60 s, plus another node's GPU: given newest first, the older log is
  // still read first, so none of its time is lost behind the newer one's.
  const auto dir = std::filesystem::temp_directory_path() / ("wt_rotated_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& uuid, int from_s, int to_s) {
    const std::string path = (dir / name).string();
    AuditLog log(path, {});
    for (int t = from_s; t < to_s; t += 15)
      log.append(json::parse(verdict(uuid, "TRAINING", 1, t, t + 30, 300)));
    log.close();
    return path;
  };
  const std::string old_log = write("old.jsonl", "GPU-a", 0, 60), new_log = write("new.jsonl", "GPU-a", 60, 120);
  const std::string other = write("other.jsonl", "GPU-b", 0, 30);
  SummaryOptions o = at_least(2);
  const VerifiedLogs r = verify_and_summarize({new_log, old_log, other}, {}, o, "keys");
  ASSERT_EQ(r.checks.size(), 3u);
  ASSERT_TRUE(r.summary);
  EXPECT_EQ(r.summary->gpus, 2u);
  ASSERT_EQ(r.summary->classes.size(), 1u);
  EXPECT_NEAR(r.summary->classes[0].gpu_hours * 3600, (135 - 0) + 45, 1e-6);  // GPU a 0..135 s, GPU b 0..45 s
  std::filesystem::remove_all(dir);
}

TEST(LogSummary, TooManyPeriodsNamesTheLogFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("wt_summary_test_" + std::to_string(::getpid()) + ".jsonl")).string();
  std::filesystem::remove(path);
  {
    AuditLog log(path, {});
    log.append({{"uuid", "GPU-a"}, {"workload_type", "TRAINING"}, {"window_start", "1970-01-01T00:00:00"},
                {"window_end", "9999-12-31T00:00:00"}});
    log.close();
  }
  SummaryOptions o = at_least(1);
  o.by = CalendarUnit::Day;
  try {
    verify_and_summarize(path, {}, o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": the report would have more than 10000 days", 0), 0u) << e.what();
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace wt::audit
