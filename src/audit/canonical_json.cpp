#include "audit/canonical_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace wt::audit {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_u_escape(std::string& out, std::uint32_t unit) {
  const char esc[6] = {'\\', 'u', kHex[(unit >> 12) & 0xF], kHex[(unit >> 8) & 0xF], kHex[(unit >> 4) & 0xF],
                       kHex[unit & 0xF]};
  out.append(esc, 6);
}

// Decodes one UTF-8 sequence at s[i]; returns 0 (and leaves i) when it is not valid UTF-8.
std::uint32_t decode_utf8(std::string_view s, std::size_t& i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t len = 0;
  std::uint32_t cp = 0, min = 0;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  i += len;
  return cp;
}

// Python's ensure_ascii escaping: short escapes for \" \\ \n \r \t \b \f, \u00XX for other
// control characters, \uXXXX (surrogate pairs above U+FFFF) for everything from U+007F up.
void append_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      std::size_t j = i + 1;  // copy the run of plain ASCII at once
      while (j < s.size()) {
        const unsigned char d = static_cast<unsigned char>(s[j]);
        if (d < 0x20 || d >= 0x7F || d == '"' || d == '\\') break;
        ++j;
      }
      out.append(s.data() + i, j - i);
      i = j;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      default: break;
    }
    if (c < 0x80) {
      append_u_escape(out, c);
      ++i;
      continue;
    }
    const std::uint32_t cp = decode_utf8(s, i);
    if (cp == 0) throw std::invalid_argument("string is not valid UTF-8");
    if (cp > 0xFFFF) {
      append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      append_u_escape(out, cp);
    }
  }
  out += '"';
}

// ---- fast-path scanner: accepts only what `append_canonical` would write ----

class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}

  bool top(CanonicalScan& scan) {
    if (!object(0, &scan)) return false;
    return pos_ == t_.size();
  }

 private:
  static constexpr int kMaxDepth = 64;  // deeper input goes to the full parser
  std::string_view t_;
  std::size_t pos_ = 0;
  std::string num_;

  bool at(char c) const { return pos_ < t_.size() && t_[pos_] == c; }

  bool value(int depth) {
    if (pos_ >= t_.size()) return false;
    switch (t_[pos_]) {
      case '{': return object(depth + 1, nullptr);
      case '[': return array(depth + 1);
      case '"': return string(nullptr);
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return number();
    }
  }

  bool literal(std::string_view word) {
    if (t_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool array(int depth) {
    if (depth > kMaxDepth) return false;
    ++pos_;
    if (at(']')) return ++pos_, true;
    for (;;) {
      if (!value(depth)) return false;
      if (at(',')) {
        ++pos_;
        continue;
      }
      if (!at(']')) return false;
      ++pos_;
      return true;
    }
  }

  // Keys must be plain ASCII (no escapes) so that byte order is the order Python sorts in.
  bool object(int depth, CanonicalScan* scan) {
    if (depth > kMaxDepth || !at('{')) return false;
    ++pos_;
    if (at('}')) return ++pos_, true;
    std::string_view prev_key;
    bool first = true;
    for (;;) {
      const std::size_t member_begin = pos_;
      bool escaped = false;
      if (!at('"') || !string(&escaped) || escaped) return false;
      const std::string_view key = t_.substr(member_begin + 1, pos_ - member_begin - 2);
      if (!first && !(prev_key < key)) return false;  // not strictly sorted: duplicate or out of order
      first = false;
      prev_key = key;
      if (!at(':')) return false;
      ++pos_;
      const std::size_t value_begin = pos_;
      if (!value(depth)) return false;
      if (scan) {
        const MemberSpan span{member_begin, pos_, value_begin, pos_};
        if (key == "prev_hash") scan->prev_hash = span;
        else if (key == "entry_hash") scan->entry_hash = span;
        else if (key == "type") scan->type = span;
      }
      if (at(',')) {
        ++pos_;
        continue;
      }
      if (!at('}')) return false;
      ++pos_;
      return true;
    }
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;  // uppercase hex is not canonical
  }

  bool string(bool* escaped) {
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= t_.size()) return false;
      const unsigned char c = static_cast<unsigned char>(t_[pos_]);
      if (c == '"') return ++pos_, true;
      if (c < 0x20 || c >= 0x7F) return false;
      if (c != '\\') {
        ++pos_;
        continue;
      }
      if (escaped) *escaped = true;
      if (pos_ + 1 >= t_.size()) return false;
      const char e = t_[pos_ + 1];
      if (e == '"' || e == '\\' || e == 'n' || e == 'r' || e == 't' || e == 'b' || e == 'f') {
        pos_ += 2;
        continue;
      }
      const long unit = u_escape(pos_);
      // Only what needs escaping may be escaped, with the short form where there is one.
      const bool short_form = unit == '\b' || unit == '\f' || unit == '\n' || unit == '\r' || unit == '\t';
      if (unit < 0 || (unit >= 0x20 && unit < 0x7F) || short_form || (unit >= 0xDC00 && unit <= 0xDFFF)) return false;
      pos_ += 6;
      if (unit >= 0xD800 && unit <= 0xDBFF) {  // a high surrogate must be followed by a low one
        const long low = u_escape(pos_);
        if (low < 0xDC00 || low > 0xDFFF) return false;
        pos_ += 6;
      }
    }
  }

  // The value of a "\uXXXX" escape (lowercase hex) at `at`; -1 when there is none.
  long u_escape(std::size_t at) const {
    if (at + 6 > t_.size() || t_[at] != '\\' || t_[at + 1] != 'u') return -1;
    long unit = 0;
    for (std::size_t k = 2; k < 6; ++k) {
      const int h = hex(t_[at + k]);
      if (h < 0) return -1;
      unit = unit << 4 | h;
    }
    return unit;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  bool number() {
    const std::size_t begin = pos_;
    if (at('-')) ++pos_;
    if (at('0')) {
      ++pos_;
    } else {
      if (pos_ >= t_.size() || !digit(t_[pos_])) return false;
      while (pos_ < t_.size() && digit(t_[pos_])) ++pos_;
    }
    bool is_float = false;
    if (at('.')) {
      is_float = true;
      ++pos_;
      if (pos_ >= t_.size() || !digit(t_[pos_])) return false;
      while (pos_ < t_.size() && digit(t_[pos_])) ++pos_;
    }
    if (at('e') || at('E')) {
      is_float = true;
      ++pos_;
      if (at('+') || at('-')) ++pos_;
      if (pos_ >= t_.size() || !digit(t_[pos_])) return false;
      while (pos_ < t_.size() && digit(t_[pos_])) ++pos_;
    }
    const std::string_view tok = t_.substr(begin, pos_ - begin);
    if (!is_float) return tok != "-0" && tok.size() <= 18;  // longer integers may not fit 64 bits
    double d = 0;
    const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), d);
    if (r.ec != std::errc() || r.ptr != tok.data() + tok.size() || !std::isfinite(d)) return false;
    num_.clear();
    append_python_float(num_, d);
    return num_ == tok;
  }
};

}  // namespace

void append_python_float(std::string& out, double d) {
  if (!std::isfinite(d)) throw std::invalid_argument("NaN and infinity have no JSON form");
  char buf[64];
  // Shortest round-trip digits in scientific form: "-d.ddde+XX".
  const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  std::size_t i = 0;
  if (sci[0] == '-') {
    out += '-';
    i = 1;
  }
  const std::size_t e_pos = sci.find('e');
  char digits[32];
  std::size_t n = 0;
  for (std::size_t k = i; k < e_pos; ++k)
    if (sci[k] != '.') digits[n++] = sci[k];
  int exp10 = 0;
  std::from_chars(sci.data() + e_pos + (sci[e_pos + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exp10);
  const int decpt = exp10 + 1;  // position of the decimal point relative to the digits
  // CPython's float_repr_style "short": exponent form when decpt <= -4 or decpt > 16.
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (n > 1) {
      out += '.';
      out.append(digits + 1, n - 1);
    }
    out += 'e';
    out += exp10 < 0 ? '-' : '+';
    const int a = exp10 < 0 ? -exp10 : exp10;
    if (a < 10) out += '0';
    out += std::to_string(a);
  } else if (decpt <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-decpt), '0');
    out.append(digits, n);
  } else if (static_cast<std::size_t>(decpt) < n) {
    out.append(digits, static_cast<std::size_t>(decpt));
    out += '.';
    out.append(digits + decpt, n - static_cast<std::size_t>(decpt));
  } else {
    out.append(digits, n);
    out.append(static_cast<std::size_t>(decpt) - n, '0');
    out += ".0";
  }
}

void append_canonical(std::string& out, const nlohmann::json& j) {
  using T = nlohmann::json::value_t;
  switch (j.type()) {
    case T::null: out += "null"; return;
    case T::boolean: out += j.get<bool>() ? "true" : "false"; return;
    case T::number_integer: out += std::to_string(j.get<std::int64_t>()); return;
    case T::number_unsigned: out += std::to_string(j.get<std::uint64_t>()); return;
    case T::number_float: append_python_float(out, j.get<double>()); return;
    case T::string: append_string(out, j.get_ref<const std::string&>()); return;
    case T::array: {
      out += '[';
      bool first = true;
      for (const auto& v : j) {
        if (!first) out += ',';
        first = false;
        append_canonical(out, v);
      }
      out += ']';
      return;
    }
    case T::object: {
      // nlohmann keeps members in a std::map: byte order of UTF-8 keys, which is the code
      // point order Python's sort_keys uses.
      out += '{';
      bool first = true;
      for (const auto& [key, v] : j.items()) {
        if (!first) out += ',';
        first = false;
        append_string(out, key);
        out += ':';
        append_canonical(out, v);
      }
      out += '}';
      return;
    }
    default: throw std::invalid_argument("binary values have no JSON form");
  }
}

std::string canonical(const nlohmann::json& j) {
  std::string out;
  append_canonical(out, j);
  return out;
}

bool scan_canonical_object(std::string_view text, CanonicalScan& scan) {
  scan = {};
  return Scanner(text).top(scan);
}

}  // namespace wt::audit
