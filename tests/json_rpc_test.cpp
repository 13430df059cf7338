#include "mcp/json_rpc.hpp"

#include <gtest/gtest.h>

namespace wt::mcp {
namespace {
using nlohmann::json;

int code_of(const std::string& line) {
  try {
    parse_message(line);
  } catch (const RpcError& e) {
    return e.code();
  }
  return 0;
}

TEST(JsonRpc, ParsesRequestNotificationAndResponse) {
  const Message r = parse_message(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"x"}})");
  EXPECT_EQ(r.kind, Message::Kind::Request);
  EXPECT_EQ(r.id, 7);
  EXPECT_EQ(r.method, "tools/list");
  EXPECT_EQ(r.params["cursor"], "x");

  const Message n = parse_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(n.kind, Message::Kind::Notification);
  EXPECT_TRUE(n.id.is_null());

  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":"a","result":{}})").kind, Message::Kind::Response);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":"a","method":"ping"})").id, "a");
}

TEST(JsonRpc, TextThatIsNotJsonIsAParseError) {
  EXPECT_EQ(code_of("{\"jsonrpc\":\"2.0\",\"id\":1,"), rpc_code::kParseError);
  EXPECT_EQ(code_of("hello"), rpc_code::kParseError);
  EXPECT_EQ(code_of(""), rpc_code::kParseError);
  EXPECT_EQ(code_of(std::string("{\"a\":\"\xff\"}")), rpc_code::kParseError);  // not UTF-8
}

TEST(JsonRpc, JsonThatIsNotAMessageIsAnInvalidRequest) {
  EXPECT_EQ(code_of("[]"), rpc_code::kInvalidRequest);  // batches are gone from MCP
  EXPECT_EQ(code_of(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"), rpc_code::kInvalidRequest);
  EXPECT_EQ(code_of("42"), rpc_code::kInvalidRequest);
  EXPECT_EQ(code_of(R"({"id":1,"method":"ping"})"), rpc_code::kInvalidRequest);                  // no jsonrpc
  EXPECT_EQ(code_of(R"({"jsonrpc":"1.0","id":1,"method":"ping"})"), rpc_code::kInvalidRequest);  // wrong version
  EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1})"), rpc_code::kInvalidRequest);                  // no method
  EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":5})"), rpc_code::kInvalidRequest);
  EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"), rpc_code::kInvalidRequest);
  EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"), rpc_code::kInvalidRequest);
  EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":"x"})"), rpc_code::kInvalidRequest);
}

TEST(JsonRpc, AnInvalidRequestKeepsTheIdItCouldRead) {
  try {
    parse_message(R"({"jsonrpc":"2.0","id":9,"method":5})");
    FAIL();
  } catch (const RpcError& e) {
    EXPECT_EQ(e.data()["id"], 9);
  }
}

TEST(JsonRpc, DeeplyNestedJsonIsHandledWithoutCrashing) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_EQ(code_of(deep), rpc_code::kParseError);  // refused at parsing: deeper than 64 levels
}

TEST(JsonRpc, ResponsesHaveTheJsonRpcShape) {
  EXPECT_EQ(result_response(3, json::object()), json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})"));
  EXPECT_EQ(error_response(nullptr, -32700, "Parse error"),
            json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})"));
  EXPECT_EQ(error_response("x", -32022, "m", {{"requested", "1"}})["error"]["data"]["requested"], "1");
}

}  // namespace
}  // namespace wt::mcp
