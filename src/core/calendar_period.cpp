#include "core/calendar_period.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace wt {
namespace {

using namespace std::chrono;

constexpr double kDay = 86400.0;

sys_days day_of(double time_s) { return sys_days{days{static_cast<long long>(std::floor(time_s / kDay))}}; }
double seconds_of(sys_days d) { return static_cast<double>(d.time_since_epoch().count()) * kDay; }

}  // namespace

std::optional<CalendarUnit> parse_calendar_unit(std::string_view text) {
  if (text == "day") return CalendarUnit::Day;
  if (text == "week") return CalendarUnit::Week;
  if (text == "month") return CalendarUnit::Month;
  return std::nullopt;
}

const char* to_string(CalendarUnit unit) {
  switch (unit) {
    case CalendarUnit::Day: return "day";
    case CalendarUnit::Week: return "week";
    case CalendarUnit::Month: return "month";
  }
  return "day";
}

double period_start(double time_s, CalendarUnit unit) {
  const sys_days d = day_of(time_s);
  switch (unit) {
    case CalendarUnit::Day: return seconds_of(d);
    case CalendarUnit::Week: return seconds_of(d - (weekday{d} - Monday));
    case CalendarUnit::Month: {
      const year_month_day ymd{d};
      return seconds_of(sys_days{ymd.year() / ymd.month() / 1});
    }
  }
  return seconds_of(d);
}

double next_period_start(double start_s, CalendarUnit unit) {
  const sys_days d = day_of(start_s);
  switch (unit) {
    case CalendarUnit::Day: return seconds_of(d + days{1});
    case CalendarUnit::Week: return seconds_of(d + days{7});
    case CalendarUnit::Month: {
      const year_month_day ymd{d};
      return seconds_of(sys_days{(ymd.year() / ymd.month() / 1) + months{1}});
    }
  }
  return seconds_of(d + days{1});
}

std::string period_label(double start_s, CalendarUnit unit) {
  const year_month_day ymd{day_of(start_s)};
  char buf[32];
  if (unit == CalendarUnit::Month)
    std::snprintf(buf, sizeof buf, "%04d-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()));
  else
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                  static_cast<unsigned>(ymd.day()));
  return buf;
}

}  // namespace wt
