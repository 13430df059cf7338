#include "mcp/protocol.hpp"

#include <algorithm>

namespace wt::mcp {
namespace {
using nlohmann::json;

constexpr const char* kInstructions =
    "WorkloadTruth tells what a GPU is doing (TRAINING, INFERENCE, IDLE, HPC, MINING, GRAPHICS, or UNKNOWN) from "
    "its telemetry alone. classify_workload reads live GPUs (or a synthetic/simulated source), classify_trace a "
    "recorded trace file, verify_audit_log checks a tamper-evident log (and with aggregate sums it up for an auditor), "
    "report_audit_logs sums up several verified logs as one fleet, run_benchmark scores the classifiers. A verdict is "
    "a signal to investigate, not proof.";

json server_info() { return {{"name", "workloadtruth"}, {"title", "WorkloadTruth"}, {"version", WT_VERSION}}; }

json capabilities() { return {{"tools", {{"listChanged", false}}}}; }

bool is_supported(const std::string& v) {
  const auto& all = supported_versions();
  return std::find(all.begin(), all.end(), v) != all.end();
}

// The version a request names in params._meta, or "" when it names none.
std::string requested_version(const json& params) {
  if (!params.is_object() || !params.contains("_meta")) return "";
  const json& meta = params["_meta"];
  if (!meta.is_object()) throw RpcError(rpc_code::kInvalidParams, "params._meta must be an object");
  if (!meta.contains(kVersionMetaKey)) return "";
  if (!meta[std::string(kVersionMetaKey)].is_string())
    throw RpcError(rpc_code::kInvalidParams, "params._meta[\"" + std::string(kVersionMetaKey) + "\"] must be a string");
  return meta[std::string(kVersionMetaKey)].get<std::string>();
}

// A 2026-07-28 result: resultType, and the server's identity in _meta.
json modern(json result) {
  result["resultType"] = "complete";
  result["_meta"] = {{"io.modelcontextprotocol/serverInfo", server_info()}};
  return result;
}
}  // namespace

const std::vector<std::string>& supported_versions() {
  static const std::vector<std::string> v{std::string(kModernVersion), std::string(kLatestLegacyVersion), "2025-06-18"};
  return v;
}

json Session::handle_line(std::string_view line) {
  try {
    return handle(parse_message(line));
  } catch (const RpcError& e) {
    const json id = e.data().is_object() && e.data().contains("id") ? e.data()["id"] : json(nullptr);
    return error_response(id, e.code(), e.what());
  }
}

json Session::handle(const Message& m) {
  if (m.kind == Message::Kind::Response) return nullptr;  // we send no requests, so there is nothing to match
  if (m.kind == Message::Kind::Notification) {
    // notifications/initialized needs no action; notifications/cancelled arrives after the call it names has
    // finished, since calls run one at a time; any other notification is ignored, as JSON-RPC asks.
    return nullptr;
  }
  try {
    return result_response(m.id, dispatch(m));
  } catch (const RpcError& e) {
    return error_response(m.id, e.code(), e.what(), e.data());
  } catch (const std::exception& e) {
    return error_response(m.id, rpc_code::kInternalError, std::string("Internal error: ") + e.what());
  }
}

json Session::dispatch(const Message& m) {
  if (m.params.is_array()) throw RpcError(rpc_code::kInvalidParams, "params must be an object");
  const json params = m.params.is_null() ? json::object() : m.params;
  if (m.method == "initialize") return initialize(params);

  const std::string version = requested_version(params);
  if (!version.empty() && !is_supported(version))
    throw RpcError(rpc_code::kUnsupportedProtocolVersion, "Unsupported protocol version",
                   {{"supported", supported_versions()}, {"requested", version}});
  const bool stateless = version == kModernVersion;

  if (m.method == "ping") return stateless ? modern(json::object()) : json::object();
  if (m.method == "server/discover")
    return modern({{"supportedVersions", supported_versions()},
                   {"capabilities", capabilities()},
                   {"instructions", kInstructions},
                   {"ttlMs", 3600000},
                   {"cacheScope", "public"}});
  if (m.method == "tools/list") {
    if (params.contains("cursor") && !params["cursor"].is_string())
      throw RpcError(rpc_code::kInvalidParams, "params.cursor must be a string");
    json result{{"tools", tools_.list_json()}};
    if (!stateless) return result;
    result["ttlMs"] = 3600000;  // the tool list is fixed for the life of the process
    result["cacheScope"] = "public";
    return modern(std::move(result));
  }
  if (m.method == "tools/call") return stateless ? modern(call_tool(params)) : call_tool(params);
  throw RpcError(rpc_code::kMethodNotFound, "Method not found: " + m.method);
}

// The 2025 handshake: the client's version when we speak it, else our newest handshake version,
// which the client may accept or disconnect from (the 2025 lifecycle rules).
json Session::initialize(const json& params) {
  if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
    throw RpcError(rpc_code::kInvalidParams, "initialize: params.protocolVersion must be a string");
  const std::string requested = params["protocolVersion"].get<std::string>();
  negotiated_ = is_supported(requested) && requested != kModernVersion ? requested : std::string(kLatestLegacyVersion);
  return {{"protocolVersion", negotiated_},
          {"capabilities", capabilities()},
          {"serverInfo", server_info()},
          {"instructions", kInstructions}};
}

json Session::call_tool(const json& params) const {
  if (!params.contains("name") || !params["name"].is_string())
    throw RpcError(rpc_code::kInvalidParams, "tools/call: params.name must be a string");
  const json arguments = params.value("arguments", json::object());
  if (!arguments.is_object())
    throw RpcError(rpc_code::kInvalidParams, "tools/call: params.arguments must be an object");
  return tools_.call(params["name"].get<std::string>(), arguments);
}

}  // namespace wt::mcp
