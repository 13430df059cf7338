#include "mcp/summary_arguments.hpp"

namespace wt::mcp {

using nlohmann::json;

json summary_argument_properties(const std::string& lead) {
  return {{"min_gpus",
           {{"type", "integer"},
            {"minimum", 1},
            {"default", 5},
            {"description", lead + "a figure is given only if at least this many distinct GPUs make it"}}},
          {"from",
           {{"type", "string"},
            {"minLength", 1},
            {"description", lead + "only the telemetry from this time on (2026-12-01T00:00:00, a date, or Unix "
                                   "seconds; the log's clock)"}}},
          {"to", {{"type", "string"}, {"minLength", 1}, {"description", lead + "only before this time"}}},
          {"by",
           {{"type", "string"},
            {"enum", {"day", "week", "month"}},
            {"description", lead + "also cut the figures into calendar periods (UTC on the log's clock, weeks from "
                                   "Monday), each under the same min_gpus floor"}}}};
}

audit::SummaryOptions summary_arguments(const json& a) {
  return audit::parse_summary_options(a.value("min_gpus", std::size_t{5}), a.value("from", ""), a.value("to", ""),
                                      a.value("by", ""), "");
}

}  // namespace wt::mcp
