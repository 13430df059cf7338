#include "core/time_format.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace wt {
namespace {

// Reads exactly `n` digits at text[pos]; advances pos.
bool digits(std::string_view text, std::size_t& pos, int n, int& out) {
  if (pos + static_cast<std::size_t>(n) > text.size()) return false;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    const char c = text[pos + static_cast<std::size_t>(i)];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  pos += static_cast<std::size_t>(n);
  out = v;
  return true;
}

bool expect(std::string_view text, std::size_t& pos, std::string_view allowed) {
  if (pos >= text.size() || allowed.find(text[pos]) == std::string_view::npos) return false;
  ++pos;
  return true;
}

struct Civil {
  int year, month, day, hour, minute, second, millis;
};

// Integer milliseconds, so that 59.9996 s can never print as "60.000".
Civil to_civil(double time_s) {
  using namespace std::chrono;
  const long long total_ms = std::llround(time_s * 1000.0);
  long long day_count = total_ms / 86'400'000;
  long long in_day = total_ms % 86'400'000;
  if (in_day < 0) {
    in_day += 86'400'000;
    --day_count;
  }
  const year_month_day ymd{sys_days{std::chrono::days{day_count}}};
  const auto ms = static_cast<int>(in_day);
  return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day())), ms / 3'600'000, ms / 60'000 % 60,
          ms / 1000 % 60, ms % 1000};
}

}  // namespace

std::optional<double> parse_timestamp(std::string_view text) {
  std::size_t pos = 0;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (!digits(text, pos, 4, y) || !expect(text, pos, "/-") || !digits(text, pos, 2, mo) ||
      !expect(text, pos, "/-") || !digits(text, pos, 2, d) || !expect(text, pos, " T") ||
      !digits(text, pos, 2, h) || !expect(text, pos, ":") || !digits(text, pos, 2, mi) ||
      !expect(text, pos, ":") || !digits(text, pos, 2, s))
    return std::nullopt;
  double frac = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    // Integer numerator over a power of ten: exact for the usual 3 to 6 digits.
    long long num = 0, den = 1;
    const std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (den < 1'000'000'000'000LL) {
        num = num * 10 + (text[pos] - '0');
        den *= 10;
      }
      ++pos;
    }
    frac = static_cast<double>(num) / static_cast<double>(den);
    if (pos == start) return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  using namespace std::chrono;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return std::nullopt;
  const auto days = sys_days{ymd}.time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + h * 3600.0 + mi * 60.0 + s + frac;
}

namespace {
std::string format(double time_s, const char* pattern) {
  const Civil c = to_civil(time_s);
  char buf[48];
  std::snprintf(buf, sizeof buf, pattern, c.year, c.month, c.day, c.hour, c.minute, c.second, c.millis);
  return buf;
}
}  // namespace

std::string format_nvidia_smi_time(double time_s) {
  return format(time_s, "%04d/%02d/%02d %02d:%02d:%02d.%03d");
}

std::string format_iso_time(double time_s) { return format(time_s, "%04d-%02d-%02dT%02d:%02d:%02d.%03d"); }

double parse_time_option(const std::string& flag, const std::string& text) {
  double unix_s = 0;
  if (const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), unix_s);
      ec == std::errc{} && p == text.data() + text.size() && std::isfinite(unix_s))
    return unix_s;
  std::string t = text;
  if (t.ends_with('Z')) t.pop_back();
  if (t.size() == 10) t += "T00:00:00";  // a date alone: its midnight
  if (const auto s = parse_timestamp(t)) return *s;
  throw std::invalid_argument(flag + " '" + text +
                              "' is neither a time like 2026-12-03T10:00:00Z (or a date, 2026-12-03) nor Unix seconds");
}

}  // namespace wt
