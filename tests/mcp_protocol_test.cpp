#include <gtest/gtest.h>

#include "mcp/protocol.hpp"

namespace wt::mcp {
namespace {
using nlohmann::json;

// One tool that echoes its argument, and one that fails.
ToolRegistry echo_tools() {
  ToolRegistry r;
  r.add({"echo",
         "Echo",
         "Returns its text",
         {{"type", "object"},
          {"properties", {{"text", {{"type", "string"}}}}},
          {"required", {"text"}},
          {"additionalProperties", false}},
         {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}},
         {{"readOnlyHint", true}},
         [](const json& a) {
           return json{{"text", a["text"]}};
         }});
  r.add({"fail",
         "Fail",
         "Always fails",
         {{"type", "object"}},
         {{"type", "object"}},
         json::object(),
         [](const json&) -> json { throw ToolError("the GPU went away"); }});
  return r;
}

class McpProtocol : public testing::Test {
 protected:
  json send(const json& message) { return session.handle_line(message.dump()); }
  json request(const std::string& method, json params = nullptr) {
    json m{{"jsonrpc", "2.0"}, {"id", ++id}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return send(m);
  }
  static json meta(const std::string& version) {
    return {{"io.modelcontextprotocol/protocolVersion", version},
            {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  }
  ToolRegistry tools = echo_tools();
  Session session{tools};
  int id = 0;
};

TEST_F(McpProtocol, InitializeAgreesOnTheClientsVersionWhenSpoken) {
  for (const std::string v : {"2025-06-18", "2025-11-25"}) {
    const json r = request(
        "initialize",
        {{"protocolVersion", v}, {"capabilities", json::object()}, {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
    EXPECT_EQ(r["result"]["protocolVersion"], v);
    EXPECT_EQ(r["result"]["serverInfo"]["name"], "workloadtruth");
    EXPECT_EQ(r["result"]["serverInfo"]["version"], WT_VERSION);
    EXPECT_TRUE(r["result"]["capabilities"].contains("tools"));
    EXPECT_FALSE(r["result"].contains("resultType"));
    EXPECT_EQ(session.negotiated_version(), v);
  }
}

TEST_F(McpProtocol, InitializeWithAnotherVersionGetsOurNewestHandshakeVersion) {
  EXPECT_EQ(request("initialize", {{"protocolVersion", "2024-11-05"}})["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(request("initialize", {{"protocolVersion", "2026-07-28"}})["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(request("initialize", {{"protocolVersion", 5}})["error"]["code"], rpc_code::kInvalidParams);
  EXPECT_EQ(request("initialize")["error"]["code"], rpc_code::kInvalidParams);
}

TEST_F(McpProtocol, NotificationsGetNoReply) {
  EXPECT_TRUE(send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());
  EXPECT_TRUE(
      send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 1}}}}).is_null());
  EXPECT_TRUE(send({{"jsonrpc", "2.0"}, {"method", "no/such/notification"}}).is_null());
  EXPECT_TRUE(send({{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}}).is_null());
}

TEST_F(McpProtocol, ErrorsCarryTheRightCodesAndIds) {
  const json not_json = session.handle_line("{not json");
  EXPECT_EQ(not_json["error"]["code"], rpc_code::kParseError);
  EXPECT_EQ(not_json["id"], nullptr);
  EXPECT_EQ(not_json["error"]["message"].get<std::string>().rfind("Parse error: the message is not valid JSON (", 0), 0u)
      << not_json;
  // A value nested deep inside the parameters is refused at parsing: copying it (as dispatching
  // does) recursed once per level and overflowed the stack.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  const json too_deep = session.handle_line(R"({"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"x":)" + deep + "}}");
  EXPECT_EQ(too_deep["error"]["code"], rpc_code::kParseError);
  EXPECT_NE(too_deep["error"]["message"].get<std::string>().find("nests deeper than 64 levels"), std::string::npos);
  const json invalid = session.handle_line(R"({"jsonrpc":"2.0","id":4,"method":[]})");
  EXPECT_EQ(invalid["error"]["code"], rpc_code::kInvalidRequest);
  EXPECT_EQ(invalid["id"], 4);
  const json unknown = request("resources/list");
  EXPECT_EQ(unknown["error"]["code"], rpc_code::kMethodNotFound);
  EXPECT_EQ(unknown["error"]["message"], "Method not found: resources/list");
  EXPECT_EQ(unknown["id"], id);
  EXPECT_EQ(request("tools/list", json::array({1}))["error"]["code"], rpc_code::kInvalidParams);
  EXPECT_EQ(request("tools/list", {{"cursor", 3}})["error"]["code"], rpc_code::kInvalidParams);
  EXPECT_EQ(request("ping")["result"], json::object());
}

TEST_F(McpProtocol, ToolsListGivesNamesAndBothSchemas) {
  const json listed = request("tools/list")["result"]["tools"];
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0]["name"], "echo");
  EXPECT_EQ(listed[0]["inputSchema"]["type"], "object");
  EXPECT_EQ(listed[0]["outputSchema"]["type"], "object");
  EXPECT_EQ(listed[0]["annotations"]["readOnlyHint"], true);
}

TEST_F(McpProtocol, ToolsCallReturnsStructuredContentAndTheSameJsonAsText) {
  const json r = request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}})["result"];
  EXPECT_EQ(r["structuredContent"], json({{"text", "hi"}}));
  EXPECT_EQ(r["content"][0]["type"], "text");
  EXPECT_EQ(json::parse(r["content"][0]["text"].get<std::string>()), r["structuredContent"]);
  EXPECT_FALSE(r.contains("isError"));
}

TEST_F(McpProtocol, AToolThatFailsSaysWhyWithIsError) {
  const json r = request("tools/call", {{"name", "fail"}})["result"];
  EXPECT_EQ(r["isError"], true);
  EXPECT_EQ(r["content"][0]["text"], "the GPU went away");
}

TEST_F(McpProtocol, BadToolCallsAreInvalidParams) {
  const auto code = [&](json params) { return request("tools/call", std::move(params))["error"]["code"]; };
  EXPECT_EQ(code({{"name", "nope"}}), rpc_code::kInvalidParams);
  EXPECT_EQ(code({{"arguments", json::object()}}), rpc_code::kInvalidParams);
  EXPECT_EQ(code({{"name", 1}}), rpc_code::kInvalidParams);
  EXPECT_EQ(code({{"name", "echo"}, {"arguments", "text"}}), rpc_code::kInvalidParams);
  EXPECT_EQ(code({{"name", "echo"}, {"arguments", {{"text", 5}}}}), rpc_code::kInvalidParams);
  EXPECT_EQ(code({{"name", "echo"}, {"arguments", json::object()}}), rpc_code::kInvalidParams);
  const json r = request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "a"}, {"extra", 1}}}});
  EXPECT_EQ(r["error"]["message"],
            "Invalid arguments for tool echo: arguments.extra: is not a known argument (known: text)");
}

TEST_F(McpProtocol, DiscoverListsEveryVersionStatelessly) {
  const json r = request("server/discover", {{"_meta", meta("2026-07-28")}})["result"];
  EXPECT_EQ(r["supportedVersions"], json({"2026-07-28", "2025-11-25", "2025-06-18"}));
  EXPECT_EQ(r["resultType"], "complete");
  EXPECT_TRUE(r["capabilities"].contains("tools"));
  EXPECT_GE(r["ttlMs"].get<int>(), 0);
  EXPECT_EQ(r["cacheScope"], "public");
  EXPECT_EQ(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "workloadtruth");
  EXPECT_EQ(session.negotiated_version(), "");  // no handshake took place
  // A probe without _meta (a dual-era client finding out which era we speak) is answered too.
  EXPECT_EQ(request("server/discover")["result"]["resultType"], "complete");
}

TEST_F(McpProtocol, ModernRequestsNeedNoHandshakeAndGetResultType) {
  const json list = request("tools/list", {{"_meta", meta("2026-07-28")}})["result"];
  EXPECT_EQ(list["resultType"], "complete");
  EXPECT_EQ(list["tools"].size(), 2u);
  EXPECT_EQ(list["cacheScope"], "public");
  const json call = request(
      "tools/call", {{"_meta", meta("2026-07-28")}, {"name", "echo"}, {"arguments", {{"text", "x"}}}})["result"];
  EXPECT_EQ(call["resultType"], "complete");
  EXPECT_EQ(call["structuredContent"]["text"], "x");
}

TEST_F(McpProtocol, AnUnknownVersionGetsTheSpecsError) {
  const json r = request("tools/list", {{"_meta", meta("1900-01-01")}});
  EXPECT_EQ(r["error"]["code"], -32022);
  EXPECT_EQ(r["error"]["message"], "Unsupported protocol version");
  EXPECT_EQ(r["error"]["data"]["requested"], "1900-01-01");
  EXPECT_EQ(r["error"]["data"]["supported"], json({"2026-07-28", "2025-11-25", "2025-06-18"}));
  EXPECT_EQ(request("server/discover", {{"_meta", meta("2099-01-01")}})["error"]["code"], -32022);
  EXPECT_EQ(request("tools/list", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", 2026}}}})["error"]["code"],
            rpc_code::kInvalidParams);
  EXPECT_EQ(request("tools/list", {{"_meta", "x"}})["error"]["code"], rpc_code::kInvalidParams);
}

TEST_F(McpProtocol, LegacyResultsCarryNoModernFields) {
  request("initialize", {{"protocolVersion", "2025-06-18"}});
  const json list = request("tools/list")["result"];
  EXPECT_FALSE(list.contains("resultType"));
  EXPECT_FALSE(list.contains("ttlMs"));
}

}  // namespace
}  // namespace wt::mcp
