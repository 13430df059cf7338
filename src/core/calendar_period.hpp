// Calendar periods (UTC days, ISO weeks from Monday, months) on the seconds-since-1970 clock the
// timestamps parse to: what a periodic report is cut into.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wt {

enum class CalendarUnit { Day, Week, Month };

// "day", "week" or "month"; nullopt for anything else.
std::optional<CalendarUnit> parse_calendar_unit(std::string_view text);
const char* to_string(CalendarUnit unit);

// The start of the period holding time_s, and the start of the next one.
double period_start(double time_s, CalendarUnit unit);
double next_period_start(double start_s, CalendarUnit unit);

// "2026-12-07" for a day or the Monday of a week, "2026-12" for a month.
std::string period_label(double start_s, CalendarUnit unit);

}  // namespace wt
