#include "source/prometheus/exposition.hpp"

#include <cctype>
#include <charconv>
#include <limits>

namespace wt {
namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

void skip_blanks(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

std::string_view read_name(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  if (i < s.size() && name_start(s[i]))
    while (i < s.size() && name_char(s[i])) ++i;
  return s.substr(start, i - start);
}

// `{a="x",b="y\"z"}` from s[i] == '{'; the error text on failure.
std::optional<std::string> read_labels(std::string_view s, std::size_t& i, MetricLabels& out) {
  ++i;
  for (;;) {
    skip_blanks(s, i);
    if (i < s.size() && s[i] == '}') return ++i, std::nullopt;
    const std::string_view key = read_name(s, i);
    if (key.empty()) return "a label name was expected at column " + std::to_string(i + 1);
    skip_blanks(s, i);
    const bool equals = i < s.size() && s[i] == '=';
    if (equals) ++i;
    skip_blanks(s, i);
    if (!equals || i >= s.size() || s[i] != '"') return "label '" + std::string(key) + "' has no =\"value\"";
    ++i;
    std::string value;
    for (;; ++i) {
      if (i >= s.size()) return "label '" + std::string(key) + "': the value's closing quote is missing";
      if (s[i] == '"') break;
      if (s[i] == '\\' && i + 1 < s.size()) {
        const char e = s[++i];
        value += e == 'n' ? '\n' : e;  // \\ and \" stand for themselves
      } else {
        value += s[i];
      }
    }
    ++i;
    out.emplace_back(std::string(key), std::move(value));
    skip_blanks(s, i);
    if (i < s.size() && s[i] == ',') ++i;
    else if (i >= s.size() || s[i] != '}') return "',' or '}' was expected after label '" + std::string(key) + "'";
  }
}

std::optional<double> read_value(std::string_view t) {
  if (t == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (t == "+Inf" || t == "Inf") return std::numeric_limits<double>::infinity();
  if (t == "-Inf") return -std::numeric_limits<double>::infinity();
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || p != t.data() + t.size()) return std::nullopt;
  return v;
}

std::string_view next_token(std::string_view s, std::size_t& i) {
  skip_blanks(s, i);
  const std::size_t start = i;
  while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
  return s.substr(start, i - start);
}

// One sample line; the error text on failure.
std::optional<std::string> parse_line(std::string_view s, MetricPoint& p) {
  std::size_t i = 0;
  p.name = std::string(read_name(s, i));
  if (p.name.empty()) return "a metric name was expected";
  skip_blanks(s, i);
  if (i < s.size() && s[i] == '{')
    if (auto e = read_labels(s, i, p.labels)) return e;
  const std::string_view value = next_token(s, i);
  if (value.empty()) return "'" + p.name + "' has no value";
  const auto v = read_value(value);
  if (!v) return "'" + p.name + "': '" + std::string(value.substr(0, 40)) + "' is not a number";
  p.value = *v;
  if (const std::string_view ts = next_token(s, i); !ts.empty()) {
    std::int64_t t = 0;
    const auto [q, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), t);
    if (ec != std::errc{} || q != ts.data() + ts.size())
      return "'" + p.name + "': '" + std::string(ts.substr(0, 40)) + "' is not a millisecond timestamp";
    p.time_ms = t;
  }
  if (!next_token(s, i).empty()) return "'" + p.name + "': unexpected text after the value";
  return std::nullopt;
}

}  // namespace

std::string_view label(const MetricLabels& labels, std::string_view key) {
  for (const auto& [k, v] : labels)
    if (k == key) return v;
  return {};
}

Exposition parse_exposition(std::string_view text) {
  Exposition out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t i = 0;
    skip_blanks(line, i);
    line.remove_prefix(i);
    if (line.empty() || line.front() == '#') continue;
    MetricPoint p;
    if (auto e = parse_line(line, p))
      out.errors.push_back({line_no, std::move(*e)});
    else
      out.points.push_back(std::move(p));
  }
  return out;
}

}  // namespace wt
