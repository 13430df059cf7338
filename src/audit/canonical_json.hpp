// Canonical JSON as the seed tool hashed it: Python's json.dumps(x, sort_keys=True,
// separators=(",", ":")) with its defaults (ensure_ascii, repr floats). See docs/audit-log.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace wt::audit {

// Appends the canonical text of `j`. Throws std::invalid_argument for what has no canonical
// JSON form: NaN or infinite numbers, strings that are not UTF-8, binary values.
void append_canonical(std::string& out, const nlohmann::json& j);
std::string canonical(const nlohmann::json& j);

// A double as Python's repr() writes it: shortest round trip, "1.0", "1e-05", "1e+16".
void append_python_float(std::string& out, double d);

// Top-level members of a line found by `scan_canonical_object`: [begin, end) byte spans of
// a whole `"key":value` member and of its value.
struct MemberSpan {
  std::size_t begin = 0, end = 0;
  std::size_t value_begin = 0, value_end = 0;
  bool found() const { return end > begin; }
};

struct CanonicalScan {
  MemberSpan prev_hash, entry_hash, type;
};

// The verifier's fast path: true when `text` is one JSON object in exactly the form
// `canonical` writes (so re-serializing would give the same bytes), filling the spans of the
// top-level prev_hash, entry_hash and type members. False means "not proven canonical", never
// "invalid": the caller then parses the text in full.
bool scan_canonical_object(std::string_view text, CanonicalScan& scan);

}  // namespace wt::audit
