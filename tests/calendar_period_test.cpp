// Calendar periods (src/core/calendar_period.cpp): days, ISO weeks from Monday, months of
// uneven length, leap years, and the labels a report prints.
#include "core/calendar_period.hpp"

#include <gtest/gtest.h>

#include "core/time_format.hpp"

namespace wt {
namespace {

double t(const char* text) { return *parse_timestamp(text); }

TEST(CalendarPeriod, DaysStartAtUtcMidnight) {
  EXPECT_EQ(period_start(t("2026-12-07T13:45:00"), CalendarUnit::Day), t("2026-12-07T00:00:00"));
  EXPECT_EQ(period_start(t("2026-12-07T00:00:00"), CalendarUnit::Day), t("2026-12-07T00:00:00"));
  EXPECT_EQ(next_period_start(t("2026-12-31T00:00:00"), CalendarUnit::Day), t("2027-01-01T00:00:00"));
  EXPECT_EQ(period_label(t("2026-12-07T00:00:00"), CalendarUnit::Day), "2026-12-07");
  EXPECT_EQ(period_start(t("1969-12-31T23:00:00"), CalendarUnit::Day), t("1969-12-31T00:00:00"));  // before 1970
}

TEST(CalendarPeriod, WeeksStartOnMonday) {
  // 2026-12-07 is a Monday; 2026-12-13 the Sunday of that week.
  EXPECT_EQ(period_start(t("2026-12-13T23:59:59"), CalendarUnit::Week), t("2026-12-07T00:00:00"));
  EXPECT_EQ(period_start(t("2026-12-07T00:00:00"), CalendarUnit::Week), t("2026-12-07T00:00:00"));
  EXPECT_EQ(period_start(t("2027-01-01T12:00:00"), CalendarUnit::Week), t("2026-12-28T00:00:00"));  // across a year
  EXPECT_EQ(next_period_start(t("2026-12-28T00:00:00"), CalendarUnit::Week), t("2027-01-04T00:00:00"));
  EXPECT_EQ(period_start(t("1970-01-01T00:00:00"), CalendarUnit::Week), t("1969-12-29T00:00:00"));
}

TEST(CalendarPeriod, MonthsHaveTheirOwnLengths) {
  EXPECT_EQ(period_start(t("2028-02-29T10:00:00"), CalendarUnit::Month), t("2028-02-01T00:00:00"));
  EXPECT_EQ(next_period_start(t("2028-02-01T00:00:00"), CalendarUnit::Month), t("2028-03-01T00:00:00"));
  EXPECT_EQ(next_period_start(t("2026-12-01T00:00:00"), CalendarUnit::Month), t("2027-01-01T00:00:00"));
  EXPECT_EQ(next_period_start(t("2027-02-01T00:00:00"), CalendarUnit::Month) - t("2027-02-01T00:00:00"), 28 * 86400.0);
  EXPECT_EQ(period_label(t("2026-11-01T00:00:00"), CalendarUnit::Month), "2026-11");
}

TEST(CalendarPeriod, ParsesOnlyTheThreeUnits) {
  EXPECT_EQ(parse_calendar_unit("week"), CalendarUnit::Week);
  EXPECT_EQ(parse_calendar_unit("Month"), std::nullopt);
  EXPECT_EQ(parse_calendar_unit("year"), std::nullopt);
  EXPECT_STREQ(to_string(CalendarUnit::Month), "month");
}

}  // namespace
}  // namespace wt
