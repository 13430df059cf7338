// The MCP tools against the library: same JSON as the CLI, failures as isError, and no write
// anywhere but the configured audit log.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "audit/audit_log.hpp"
#include "audit/log_verifier.hpp"
#include "audit/signing_key.hpp"
#include "http_test_server.hpp"
#include "mcp/json_rpc.hpp"
#include "mcp/schema_check.hpp"
#include "mcp/tools.hpp"
#include "test_util.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

const Tool& find(const ToolRegistry& r, const std::string& name) {
  for (const Tool& t : r.tools())
    if (t.name == name) return t;
  throw std::runtime_error("no tool " + name);
}

// Calls a tool and checks what it returns against its own output schema.
json call(const ToolRegistry& r, const std::string& name, const json& args) {
  const json result = r.call(name, args);
  if (!result.contains("isError")) {
    const auto bad = schema_violation(find(r, name).output_schema, result["structuredContent"], "structuredContent");
    EXPECT_FALSE(bad.has_value()) << *bad;
  }
  return result;
}

std::string error_text(const json& result) {
  EXPECT_EQ(result.value("isError", false), true) << result.dump();
  return result["content"][0].value("text", "");
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("wt_mcp_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::size_t files_under(const fs::path& d) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(d)) ++n;
  return n;
}

class McpTools : public testing::Test {
 protected:
  ToolRegistry tools = make_tools(std::make_shared<ToolConfig>());
};

TEST_F(McpTools, AreTheFiveTheDocsName) {
  std::vector<std::string> names;
  for (const Tool& t : tools.tools()) {
    names.push_back(t.name);
    EXPECT_EQ(t.input_schema["type"], "object") << t.name;
    EXPECT_EQ(t.output_schema["type"], "object") << t.name;
    EXPECT_FALSE(t.description.empty());
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"classify_workload", "classify_trace", "run_benchmark", "verify_audit_log",
                                      "report_audit_logs"}));
}

TEST_F(McpTools, ClassifyTraceGivesEachGpuAVerdictAndATimeline) {
  const json r = call(tools, "classify_trace", {{"trace_file", test::fixture("csv/two_gpus.csv")}});
  ASSERT_FALSE(r.contains("isError")) << r.dump();
  const json& s = r["structuredContent"];
  ASSERT_EQ(s["gpus"].size(), 2u);
  EXPECT_EQ(s["gpus"][1]["workload_type"], "IDLE");  // GPU 1 idles throughout
  EXPECT_FALSE(s["gpus"][0]["windows"].empty());
  EXPECT_EQ(s["classifier"], "xgboost");
  EXPECT_EQ(json::parse(r["content"][0]["text"].get<std::string>()), s);
}

TEST_F(McpTools, ClassifyTraceGivesANamedJobOneVerdict) {
  const json s = call(tools, "classify_trace",
                      {{"trace_file", test::fixture("csv/two_gpus.csv")}, {"jobs", {"node=0-1"}}})["structuredContent"];
  ASSERT_EQ(s["jobs"].size(), 1u);
  EXPECT_EQ(s["jobs"][0]["job"], "node");
  EXPECT_EQ(s["jobs"][0]["gpu_indices"], json({0, 1}));
  EXPECT_EQ(s["jobs"][0]["workload_type"], s["gpus"][0]["workload_type"]);  // GPU 1 idles: the job is GPU 0's
  EXPECT_EQ(s["jobs"][0]["gpu_verdicts"]["IDLE"], 1);
  EXPECT_FALSE(call(tools, "classify_trace", {{"trace_file", test::fixture("csv/two_gpus.csv")}})["structuredContent"]
                   .contains("jobs"));
  EXPECT_NE(error_text(call(tools, "classify_trace",
                            {{"trace_file", test::fixture("csv/two_gpus.csv")}, {"jobs", {"a=0-1", "b=1"}}}))
                .find("GPU 1 is in two jobs"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "synthetic"}, {"jobs", {"a=0"}}})).find("jobs:"),
            std::string::npos);
  // job_by: the simulator lists no process, so no job is made, and a note says why (a server
  // given the host's sysfs elsewhere still runs the simulator).
  auto host_roots = std::make_shared<ToolConfig>();
  host_roots->sys_root = "/host/sys";
  const json by = call(make_tools(host_roots), "classify_workload",
                       {{"backend", "sim"}, {"samples", 60}, {"job_by", "slurm"}})["structuredContent"];
  EXPECT_FALSE(by.contains("jobs"));
  ASSERT_EQ(by["errors"].size(), 1u);
  EXPECT_EQ(by["errors"][0]["severity"], "note");
  EXPECT_EQ(by["errors"][0]["where"], "jobs by slurm");
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "sim"}, {"jobs", {"a=0"}}, {"job_by", "pod"}}))
                .find("jobs and job_by cannot be combined"),
            std::string::npos);
  EXPECT_THROW(tools.call("classify_workload", {{"backend", "sim"}, {"job_by", "node"}}), RpcError);  // not in enum
}

TEST_F(McpTools, ClassifyTraceReadsSeveralNodesTracesAsOneFleet) {
  const json r = call(tools, "classify_trace",
                      {{"trace_files", {"node7=" + test::fixture("csv/two_gpus.csv"), test::fixture("csv/bad_lines.csv")}},
                       {"jobs", {"ddp=node7/0,bad_lines/0"}}});
  ASSERT_FALSE(r.contains("isError")) << r.dump();
  const json& s = r["structuredContent"];
  std::vector<std::string> gpus;
  for (const json& g : s["gpus"]) gpus.push_back(g["host"].get<std::string>() + "/" + g["gpu_index"].dump());
  // By node, then index.
  EXPECT_EQ(gpus, (std::vector<std::string>{"bad_lines/0", "bad_lines/1", "node7/0", "node7/1"}));
  ASSERT_EQ(s["jobs"].size(), 1u);
  EXPECT_EQ(s["jobs"][0]["gpu_hosts"], json({"bad_lines", "node7"}));
  // One of the two arguments, never both or neither; files of one name are refused.
  for (const json& args : {json::object({{"trace_file", test::fixture("csv/two_gpus.csv")},
                                         {"trace_files", {test::fixture("csv/bad_lines.csv")}}}),
                           json::object()})
    EXPECT_NE(error_text(call(tools, "classify_trace", args)).find("one of the two"), std::string::npos) << args;
  EXPECT_NE(error_text(call(tools, "classify_trace",
                            {{"trace_files", {test::fixture("csv/two_gpus.csv"), test::fixture("csv/../csv/two_gpus.csv")}}}))
                .find("NODE=FILE"),
            std::string::npos);
  EXPECT_THROW(tools.call("classify_trace", {{"trace_files", json::array()}}), RpcError);  // minItems
}

TEST_F(McpTools, ClassifyTraceListsBadLinesAndStillClassifies) {
  const json s =
      call(tools, "classify_trace", {{"trace_file", test::fixture("csv/bad_lines.csv")}})["structuredContent"];
  ASSERT_FALSE(s["errors"].empty());
  EXPECT_NE(s["errors"][0]["where"].get<std::string>().find("bad_lines.csv:"), std::string::npos);
  EXPECT_FALSE(s["gpus"].empty());
}

TEST_F(McpTools, ClassifyTraceFailuresAreToolErrors) {
  EXPECT_NE(error_text(call(tools, "classify_trace", {{"trace_file", "/nonexistent/trace.csv"}}))
                .find("/nonexistent/trace.csv"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "classify_trace", {{"trace_file", test::fixture("csv")}})), "");  // a directory
  EXPECT_NE(
      error_text(
          call(tools, "classify_trace",
               {{"trace_file", test::fixture("csv/two_gpus.csv")}, {"window_seconds", 10}, {"stride_seconds", 20}}))
          .find("stride_seconds"),
      std::string::npos);
  const std::string empty = test::write_temp("empty.jsonl", "");
  EXPECT_NE(error_text(call(tools, "classify_trace", {{"trace_file", empty}})).find("no samples"), std::string::npos);
}

TEST_F(McpTools, ClassifyTraceReadsTimelessDmonWithItsIntervalAndModel) {
  const std::string dmon = test::fixture("dmon/no_time.log");
  EXPECT_NE(error_text(call(tools, "classify_trace", {{"trace_file", dmon}})).find("without a time column"),
            std::string::npos);
  const json r = call(tools, "classify_trace",
                      {{"trace_file", dmon}, {"snapshot_interval_seconds", 5}, {"gpu_model", "NVIDIA H100 80GB HBM3"}});
  ASSERT_FALSE(r.contains("isError")) << r.dump();
  const json& gpus = r["structuredContent"]["gpus"];
  ASSERT_EQ(gpus.size(), 2U);
  EXPECT_EQ(gpus[0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpus[0]["end"], "1970-01-01T00:00:10.000");  // the third row, 5 s apart
  EXPECT_NE(error_text(call(tools, "classify_trace", {{"trace_file", dmon}, {"snapshot_interval_seconds", 1},
                                                      {"gpu_model", "Voodoo 2"}}))
                .find("unknown GPU model"),
            std::string::npos);
}

TEST_F(McpTools, ClassifyWorkloadSyntheticKeepsTheSeedShape) {
  const json r = call(tools, "classify_workload",
                      {{"backend", "synthetic"}, {"profile", "idle"}, {"samples", 30}, {"classifier", "rules"}});
  ASSERT_FALSE(r.contains("isError")) << r.dump();
  EXPECT_EQ(r["structuredContent"]["workload_type"], "IDLE");
  EXPECT_EQ(r["structuredContent"]["sample_count"], 30);
  EXPECT_FALSE(r["structuredContent"].contains("audit_log"));
}

TEST_F(McpTools, ClassifyWorkloadSimGivesTheFullResult) {
  const json s = call(tools, "classify_workload",
                      {{"backend", "sim"}, {"scenario", "training/pretrain"}, {"samples", 120}})["structuredContent"];
  ASSERT_EQ(s["gpus"].size(), 1u);
  EXPECT_EQ(s["gpus"][0]["workload_type"], "TRAINING");
}

TEST_F(McpTools, ClassifyWorkloadFailuresAreToolErrors) {
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "sim"}, {"scenario", "no/such"}})).find("no/such"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "synthetic"}, {"write_to_audit_log", true}}))
                .find("--audit-log"),
            std::string::npos);
  // Schema violations are protocol errors, before anything runs.
  EXPECT_THROW(tools.call("classify_workload", {{"samples", "many"}}), RpcError);
  EXPECT_THROW(tools.call("classify_workload", {{"backend", "cuda"}}), RpcError);
}

TEST_F(McpTools, ClassifyWorkloadReadsATimeRangeFromPrometheus) {
  // One GPU's DCGM samples, a second apart from 1000 to 1060 s.
  test::HttpTestServer prometheus([](httplib::Server& s) {
    s.Get("/api/v1/query", [](const httplib::Request&, httplib::Response& res) {
      json util = json::array(), power = json::array();
      for (int t = 1000; t <= 1060; ++t) {
        util.push_back({t, std::to_string(90 + t % 7)});
        power.push_back({t, std::to_string(300 + t % 11)});
      }
      const json labels = {{"gpu", "0"}, {"UUID", "GPU-a"}, {"modelName", "NVIDIA A100-SXM4-80GB"}};
      json u = labels, p = labels;
      u["__name__"] = "DCGM_FI_DEV_GPU_UTIL";
      p["__name__"] = "DCGM_FI_DEV_POWER_USAGE";
      const json result = {{{"metric", u}, {"values", util}}, {{"metric", p}, {"values", power}}};
      res.set_content(json{{"status", "success"}, {"data", {{"resultType", "matrix"}, {"result", result}}}}.dump(),
                      "application/json");
    });
  });
  const json s = call(tools, "classify_workload",
                      {{"backend", "prometheus"}, {"url", prometheus.url()}, {"end", "1060"}, {"last_seconds", 60}})
                     ["structuredContent"];
  ASSERT_EQ(s["gpus"].size(), 1u) << s.dump();
  EXPECT_EQ(s["source"], "prometheus:" + prometheus.url());
  EXPECT_EQ(s["gpus"][0]["name"], "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(s["gpus"][0]["sample_count"], 61);
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "prometheus"}, {"last_seconds", 60}})).find("url"),
            std::string::npos);
  EXPECT_THROW(tools.call("classify_workload", {{"backend", "prometheus"}, {"last_seconds", 0}}), RpcError);
}

TEST(McpToolsCredentials, SentOnlyToTheServersOwnUrl) {
  // Two Prometheus stand-ins that answer with no samples and note the Authorization they got
  // ("unasked" until a request arrives, so a call that never reached one cannot pass).
  std::string secured_got = "unasked", other_got = "unasked";
  const auto empty = [](std::string& got) {
    return [&got](httplib::Server& s) {
      s.Get("/api/v1/query", [&got](const httplib::Request& req, httplib::Response& res) {
        got = req.get_header_value("Authorization");
        res.set_content(R"({"status":"success","data":{"resultType":"matrix","result":[]}})", "application/json");
      });
    };
  };
  test::HttpTestServer secured(empty(secured_got)), other(empty(other_got));
  auto config = std::make_shared<ToolConfig>();
  config->http_url = secured.url();
  config->auth_files.bearer_token_file = (fresh_dir("token") / "token").string();
  std::ofstream(config->auth_files.bearer_token_file) << "s3cret\n";
  const ToolRegistry tools = make_tools(config);

  // No url: the server's own, with its token.
  EXPECT_NE(error_text(call(tools, "classify_workload", {{"backend", "prometheus"}, {"last_seconds", 60}}))
                .find("no DCGM"),
            std::string::npos);
  EXPECT_EQ(secured_got, "Bearer s3cret");
  // Any other url: no token.
  call(tools, "classify_workload", {{"backend", "prometheus"}, {"url", other.url()}, {"last_seconds", 60}});
  EXPECT_EQ(other_got, "");
  // An agent may not name a file to read and send.
  EXPECT_THROW(tools.call("classify_workload", {{"backend", "prometheus"},
                                                {"bearer_token_file", config->auth_files.bearer_token_file}}),
               RpcError);
}

TEST(McpToolsAuditLog, WritesOnlyTheConfiguredLogAndTheLogVerifies) {
  const fs::path dir = fresh_dir("audit");
  auto config = std::make_shared<ToolConfig>();
  config->audit_log = (dir / "verdicts.jsonl").string();
  const ToolRegistry tools = make_tools(config);
  for (int i = 0; i < 2; ++i) {
    const json s =
        call(tools, "classify_workload",
             {{"backend", "synthetic"}, {"classifier", "rules"}, {"write_to_audit_log", true}})["structuredContent"];
    EXPECT_EQ(s["audit_log"]["path"], config->audit_log);
    EXPECT_EQ(s["audit_log"]["entries_written"], 1);
  }
  EXPECT_EQ(files_under(dir), 1u);  // the log and nothing else (the lock is on the log itself)
  const json v = call(tools, "verify_audit_log", {{"log_file", config->audit_log}})["structuredContent"];
  EXPECT_EQ(v["valid"], true);
  EXPECT_EQ(v["entries"], 2);
  EXPECT_FALSE(v.contains("report"));
  // The auditor's summary: one GPU, so withheld under the default floor of 5 GPUs.
  const json floor = call(tools, "verify_audit_log", {{"log_file", config->audit_log}, {"aggregate", true}});
  EXPECT_EQ(floor["structuredContent"]["report"]["classes"], json::array());
  EXPECT_EQ(floor["structuredContent"]["report"]["classes_withheld"], 1);
  const json all = call(tools, "verify_audit_log",
                        {{"log_file", config->audit_log}, {"aggregate", true}, {"min_gpus", 1}})["structuredContent"];
  ASSERT_EQ(all["report"]["classes"].size(), 1u);
  EXPECT_EQ(all["report"]["classes"][0]["class"], "TRAINING");
  EXPECT_EQ(all["report"]["classes"][0]["windows"], 2);
  EXPECT_EQ(all["report"]["gpus"], 1);
  EXPECT_FALSE(all["report"].contains("periods"));
  const json by_month = call(tools, "verify_audit_log",
                             {{"log_file", config->audit_log}, {"aggregate", true}, {"min_gpus", 1}, {"by", "month"}});
  const json& periods = by_month["structuredContent"]["report"]["periods"];
  ASSERT_EQ(periods.size(), 1u);  // both windows in one month
  EXPECT_EQ(periods[0]["classes"][0]["windows"], 2);
  EXPECT_EQ(periods[0]["start"].get<std::string>().substr(8), "01T00:00:00.000");
  EXPECT_THROW(tools.call("verify_audit_log", {{"log_file", config->audit_log}, {"aggregate", true}, {"by", "year"}}),
               RpcError);
  EXPECT_THROW(tools.call("verify_audit_log", {{"log_file", config->audit_log}, {"min_gpus", 0}}), RpcError);

  // Edited: the chain breaks at that line, reported as a finding, not a tool failure.
  std::ifstream in(config->audit_log);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  in.close();
  const std::string verdict = "\"workload_type\":\"TRAINING\"";
  const auto pos = first.find(verdict);
  ASSERT_NE(pos, std::string::npos) << first;
  first.replace(pos, verdict.size(), "\"workload_type\":\"INFERENCE\"");
  std::ofstream(config->audit_log) << first << '\n' << second << '\n';
  const json r = call(tools, "verify_audit_log", {{"log_file", config->audit_log}});
  EXPECT_FALSE(r.contains("isError"));
  EXPECT_EQ(r["structuredContent"]["valid"], false);
  EXPECT_EQ(r["structuredContent"]["first_bad_line"], 1);
  const json broken = call(tools, "verify_audit_log", {{"log_file", config->audit_log}, {"aggregate", true}});
  EXPECT_EQ(broken["structuredContent"]["report"], nullptr);  // no figures from a log that does not verify
  fs::remove_all(dir);
}

// report_audit_logs: two nodes' signed logs, each with its own key, summed up as one fleet.
TEST(McpToolsAuditLog, ReportSumsUpSeveralLogsOnlyIfEveryOneVerifies) {
  const fs::path dir = fresh_dir("fleet");
  std::vector<std::string> logs, keys;
  for (const std::string node : {"a", "b"}) {
    const audit::KeyFiles k = audit::generate_key_pair((dir / node).string());
    keys.push_back(k.public_path);
    logs.push_back((dir / (node + ".jsonl")).string());
    audit::AuditLog log(logs.back(), {.signing_key = audit::PrivateKey::load(k.private_path)});
    for (int gpu = 0; gpu < 3; ++gpu)
      log.append({{"uuid", "GPU-" + node + std::to_string(gpu)},
                  {"gpu_index", gpu},
                  {"workload_type", node == "a" ? "TRAINING" : "INFERENCE"},
                  {"confidence", 0.95},
                  {"window_start", "2026-12-01T00:00:00.000"},
                  {"window_end", "2026-12-01T00:00:30.000"},
                  {"features", json::object()}});
    log.close();
  }
  const ToolRegistry tools = make_tools(std::make_shared<ToolConfig>());
  const json r = call(tools, "report_audit_logs", {{"log_files", logs}, {"public_key_files", keys}, {"min_gpus", 3}});
  const json& s = r["structuredContent"];
  ASSERT_EQ(s["logs"].size(), 2u);
  EXPECT_EQ(s["logs"][1]["log"], logs[1]);
  EXPECT_EQ(s["logs"][1]["verification"]["signatures_checked"], true);
  EXPECT_EQ(s["report"]["gpus"], 6);  // told apart by UUID across the logs
  ASSERT_EQ(s["report"]["classes"].size(), 2u);
  EXPECT_EQ(s["report"]["classes"][0]["gpus"], 3);
  // Each log's key is its own: swapped, neither verifies, and there is no report.
  const json swapped =
      call(tools, "report_audit_logs", {{"log_files", logs}, {"public_key_files", {keys[1], keys[0]}}})["structuredContent"];
  EXPECT_EQ(swapped["logs"][0]["verification"]["valid"], false);
  EXPECT_EQ(swapped["report"], nullptr);
  EXPECT_NE(error_text(call(tools, "report_audit_logs", {{"log_files", logs}, {"public_key_files", {keys[0], keys[1], keys[0]}}}))
                .find("public_key_files: give one key for every log, or one per log"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "report_audit_logs", {{"log_files", {logs[0], logs[0]}}})).find("the same log as"),
            std::string::npos);
  EXPECT_THROW(tools.call("report_audit_logs", {{"log_files", json::array()}}), RpcError);  // minItems 1
  fs::remove_all(dir);
}

TEST_F(McpTools, VerifyAuditLogReadsTheSeedLog) {
  const json s =
      call(tools, "verify_audit_log", {{"log_file", test::fixture("audit/seed_log.jsonl")}})["structuredContent"];
  EXPECT_EQ(s["valid"], true);
  EXPECT_GT(s["entries"].get<int>(), 0);
  EXPECT_NE(error_text(call(tools, "verify_audit_log", {{"log_file", "/nonexistent.jsonl"}})), "");
  EXPECT_NE(
      error_text(call(tools, "verify_audit_log",
                      {{"log_file", test::fixture("audit/seed_log.jsonl")}, {"public_key_file", "/nonexistent.pub"}})),
      "");
}

TEST_F(McpTools, RunBenchmarkSmallGivesTheCliShape) {
  const json r = call(tools, "run_benchmark", {{"trials", 1}, {"duration_seconds", 30}});
  ASSERT_FALSE(r.contains("isError")) << r.dump();
  const json& s = r["structuredContent"];
  EXPECT_EQ(s["protocol"], "standard");
  EXPECT_TRUE(s["synthetic"].contains("overall"));
  EXPECT_TRUE(s["synthetic"]["overall"].contains("xgboost"));
  const json polled = call(tools, "run_benchmark", {{"trials", 1}, {"duration_seconds", 60}, {"interval_seconds", 10}});
  EXPECT_NE(polled["structuredContent"]["synthetic"]["data"].get<std::string>().find("polled every 10 s"),
            std::string::npos);
  const json kept = call(tools, "run_benchmark", {{"trials", 1}, {"duration_seconds", 30}, {"signals", "all"}});
  EXPECT_NE(kept["structuredContent"]["synthetic"]["data"].get<std::string>().find("signals: all (live NVML)"),
            std::string::npos);
  EXPECT_THROW(tools.call("run_benchmark", {{"signals", "clocks-only"}}), RpcError);
  EXPECT_THROW(tools.call("run_benchmark", {{"interval_seconds", 0.001}}), RpcError);
  EXPECT_THROW(tools.call("run_benchmark", {{"trials", 0}}), RpcError);
  EXPECT_THROW(tools.call("run_benchmark", {{"protocol", "best"}}), RpcError);
}

TEST_F(McpTools, RunBenchmarkScoresRealDirectoriesApart) {
  const std::string h200 = test::fixture("../../data/real-h200");
  const json r = call(tools, "run_benchmark", {{"trials", 1}, {"duration_seconds", 30}, {"real_dirs", {h200}}});
  ASSERT_FALSE(r.contains("isError")) << r.dump().substr(0, 400);
  const json& s = r["structuredContent"];
  EXPECT_TRUE(s.contains("synthetic"));
  ASSERT_EQ(s["real"].size(), 1u);
  EXPECT_NE(s["real"][0]["data"].get<std::string>().find("real: " + h200), std::string::npos);
  // Arguments the protocol would ignore, or a directory that is not there, are the caller's to fix.
  EXPECT_NE(error_text(call(tools, "run_benchmark", {{"protocol", "loso-real"}})).find("real_dirs"), std::string::npos);
  EXPECT_NE(error_text(call(tools, "run_benchmark", {{"protocol", "loso-real"}, {"real_dirs", {h200}}, {"signals", "all"}}))
                .find("loso-real does not make"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "run_benchmark", {{"real_dirs", {h200}}, {"real_weight", 20}})).find("standard"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "run_benchmark", {{"protocol", "loso"}, {"real_weight", 20}})).find("real_dirs"),
            std::string::npos);
  EXPECT_NE(error_text(call(tools, "run_benchmark", {{"trials", 1}, {"real_dirs", {"/nonexistent-dir"}}})), "");
  EXPECT_THROW(tools.call("run_benchmark", {{"real_dirs", {""}}}), RpcError);
  EXPECT_THROW(tools.call("run_benchmark", {{"real_weight", 0}}), RpcError);
}

}  // namespace
}  // namespace wt::mcp
