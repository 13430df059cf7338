// Parses JSON that comes from outside (a trace line, a model file, a JSON-RPC message, a
// server's answer) with bounds, since nlohmann parses any depth without recursion but copying,
// comparing or printing a value recurses once per level: a line of 100,000 '[' would crash
// whatever touched it next.
#pragma once

#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace wt {

struct JsonBounds {
  int max_depth = 64;  // no document this project reads nests a tenth as deep
  // More values than this is refused: UBJSON lets an array of nulls claim any count without
  // spending a byte on each, so a caller reading it passes the input's size.
  std::size_t max_values = std::numeric_limits<std::size_t>::max();
  bool ubjson = false;  // XGBoost's binary JSON instead of text
};

// The document, or a discarded value (is_discarded()) when `text` is not JSON or passes a
// bound; `why`, given, then says what is wrong.
nlohmann::json parse_json(std::string_view text, std::string* why = nullptr, const JsonBounds& bounds = {});

}  // namespace wt
