// Terminal rendering of a benchmark report (the JSON from run_benchmark).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace wt {

void print_benchmark_text(std::ostream& out, const nlohmann::json& report);

}  // namespace wt
