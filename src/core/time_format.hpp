// Wall-clock timestamps as nvidia-smi writes them ("2024/02/16 17:12:43.709") and as ISO 8601.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wt {

// Parses "YYYY/MM/DD HH:MM:SS[.fff...]" (also with '-' between date parts or a 'T' before
// the time) into seconds since 1970-01-01, reading the wall clock as UTC.
std::optional<double> parse_timestamp(std::string_view text);

// Writes nvidia-smi's format with millisecond precision.
std::string format_nvidia_smi_time(double time_s);

// Writes "YYYY-MM-DDTHH:MM:SS.fff" (no zone: the recording's wall clock).
std::string format_iso_time(double time_s);

// A time given on the command line: "2026-12-03T10:00:00Z" (the Z optional), a date alone
// ("2026-12-03": its midnight), or Unix seconds. Throws std::invalid_argument naming the flag.
double parse_time_option(const std::string& flag, const std::string& text);

}  // namespace wt
