#include "audit/log_verifier.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include "audit/canonical_json.hpp"
#include "audit/checkpoint.hpp"
#include "audit/mapped_file.hpp"
#include "core/diagnostic.hpp"
#include "core/json_parse.hpp"
#include "core/sha256.hpp"

namespace wt::audit {
namespace {

// One line checked on its own: is its entry_hash the hash of its own content?
struct LineCheck {
  bool self_consistent = false;
  std::string why;  // when not
  std::string prev_hash, entry_hash;
  std::optional<nlohmann::json> checkpoint;  // the payload, when the entry is a checkpoint
};

std::string_view hash_value(std::string_view line, const MemberSpan& m) {
  // A canonical hash value is a 66-byte JSON string: quotes around 64 hex digits.
  if (m.value_end - m.value_begin != 66) return {};
  const std::string_view v = line.substr(m.value_begin + 1, 64);
  return is_hash_hex(v) ? v : std::string_view{};
}

// Removes one member and the comma that separates it from its neighbour.
void erase_member(std::string& text, std::size_t begin, std::size_t end) {
  if (end < text.size() && text[end] == ',') text.erase(begin, end + 1 - begin);
  else text.erase(begin - 1, end - begin + 1);  // the comma before it (the member cannot be first and last: two hashes)
}

class LineChecker {
 public:
  LineCheck check(std::string_view line) {
    LineCheck c;
    // Fast path: a line already in canonical form hashes as it stands, minus its two hashes.
    CanonicalScan scan;
    if (scan_canonical_object(line, scan) && !scan.type.found()) {
      const std::string_view prev = hash_value(line, scan.prev_hash), entry = hash_value(line, scan.entry_hash);
      if (!prev.empty() && !entry.empty()) {
        payload_.assign(line);
        // entry_hash sorts before prev_hash: erase the later member first so offsets hold.
        erase_member(payload_, scan.prev_hash.begin, scan.prev_hash.end);
        erase_member(payload_, scan.entry_hash.begin, scan.entry_hash.end);
        c.prev_hash = prev;
        c.entry_hash = entry;
        c.self_consistent = sha_.hex(payload_, prev) == entry;
        if (!c.self_consistent) c.why = "entry_hash does not match the entry's content";
        return c;
      }
    }
    return check_parsed(line);
  }

 private:
  Sha256 sha_;
  std::string payload_;

  // The reference path, as the seed tool did it: parse, drop the hashes, hash canonical JSON.
  LineCheck check_parsed(std::string_view line) {
    LineCheck c;
    std::string why;
    nlohmann::json j = parse_json(line, &why);
    if (j.is_discarded()) {
      c.why = "not valid JSON (" + why + ")";
      return c;
    }
    if (!j.is_object()) {
      c.why = "not a JSON object";
      return c;
    }
    for (const char* key : {"prev_hash", "entry_hash"}) {
      const auto it = j.find(key);
      if (it == j.end() || !it->is_string() || !is_hash_hex(it->get_ref<const std::string&>())) {
        c.why = std::string("no 64-hex-digit \"") + key + "\"";
        return c;
      }
    }
    c.prev_hash = j["prev_hash"].get<std::string>();
    c.entry_hash = j["entry_hash"].get<std::string>();
    j.erase("prev_hash");
    j.erase("entry_hash");
    try {
      c.self_consistent = sha_.hex(canonical(j), c.prev_hash) == c.entry_hash;
    } catch (const std::invalid_argument& e) {
      c.why = e.what();
      return c;
    }
    if (!c.self_consistent) c.why = "entry_hash does not match the entry's content";
    else if (is_checkpoint(j)) c.checkpoint = std::move(j);
    return c;
  }
};

struct Line {
  std::string_view text;
  std::size_t number = 0;
};

// Visits every newline-terminated line: f(Line, offset after it) returns false to stop.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t pos = 0, number = 0;
  while (pos < text.size()) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    if (!nl) return;
    const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
    if (!f(Line{text.substr(pos, end - pos), ++number}, end + 1)) return;
    pos = end + 1;
  }
}

// The first line (not `skip`) whose entry_hash is `hash`; 0 when none.
std::size_t find_entry(std::string_view text, std::string_view hash, std::size_t skip) {
  std::size_t found = 0;
  LineChecker checker;
  for_each_line(text, [&](const Line& l, std::size_t) {
    if (l.number != skip && l.text.find(hash) != std::string_view::npos && checker.check(l.text).entry_hash == hash)
      found = l.number;
    return found == 0;
  });
  return found;
}

// Names the break at self-consistent line `at` whose prev_hash is not the entry_hash of the
// line before it (`expected`).
void classify_link(std::string_view text, const Line& at, const LineCheck& c, const std::string& expected,
                   VerifyResult& r) {
  r.first_bad_line = at.number;
  if (const std::size_t copy = find_entry(text, c.entry_hash, at.number)) {
    r.kind = BreakKind::Inserted;
    r.why = "a copy of line " + std::to_string(copy);
    return;
  }
  const std::size_t pred = find_entry(text, c.prev_hash, 0);
  if (pred > at.number) {
    r.kind = BreakKind::Reordered;
    r.why = "it follows line " + std::to_string(pred) + ", which comes after it in the file";
    return;
  }
  if (pred != 0) {  // an earlier line: the lines between it and this one joined the chain later
    r.kind = BreakKind::Inserted;
    r.first_bad_line = pred + 1;
    r.entries = pred;
    r.why = "lines " + std::to_string(pred + 1) + ".." + std::to_string(at.number - 1) +
            " are not in the original chain: line " + std::to_string(at.number) + " follows line " +
            std::to_string(pred);
    return;
  }
  // Its predecessor is nowhere: either this line is foreign (the next line links past it) or
  // the entries before it are gone.
  bool next_links_past = false;
  LineChecker checker;
  for_each_line(text, [&](const Line& l, std::size_t) {
    if (l.number == at.number + 1) next_links_past = checker.check(l.text).prev_hash == expected;
    return l.number <= at.number;
  });
  if (next_links_past) {
    r.kind = BreakKind::Inserted;
    r.why = "it is not part of the chain (line " + std::to_string(at.number + 1) + " follows line " +
            std::to_string(at.number - 1) + ")";
  } else {
    r.kind = BreakKind::Deleted;
    r.why = "it follows an entry that is not in the file: the entry or entries before it were deleted";
  }
}

// A good checkpoint at `line`: its count and head must match its place, its signature the key.
bool check_checkpoint(const nlohmann::json& payload, std::size_t line, const std::string& head,
                      const VerifyOptions& o, VerifyResult& r) {
  std::string why;
  const auto cp = parse_checkpoint(payload, why);
  const std::uint64_t before = line - 1;
  if (!cp) {
    r.kind = BreakKind::BadSignature;
  } else if (cp->entries != before) {
    r.kind = cp->entries > before ? BreakKind::Truncated : BreakKind::Inserted;
    why = "the signed checkpoint covers " + std::to_string(cp->entries) + " entries but " + std::to_string(before) +
          " precede it: entries were " + (cp->entries > before ? "deleted" : "inserted") +
          " and the chain rewritten";
  } else if (cp->head != head) {
    r.kind = BreakKind::Edited;
    why = "the signed checkpoint's head is not the hash of the entry before it: the chain was rewritten";
  } else if (o.public_key && cp->key_id != o.public_key->id()) {
    r.kind = BreakKind::BadSignature;
    why = "signed by key " + cp->key_id.substr(0, 16) + "..., not by the given public key " +
          o.public_key->id().substr(0, 16) + "...";
  } else if (o.public_key && !o.public_key->verify(checkpoint_message(cp->entries, cp->head, cp->final),
                                                   cp->signature)) {
    r.kind = BreakKind::BadSignature;
    why = "the checkpoint's signature does not verify with the given public key";
  } else {
    r.ends_with_final_checkpoint = cp->final;
    return true;
  }
  r.first_bad_line = line;
  r.why = why;
  return false;
}

}  // namespace

std::string_view to_string(BreakKind k) {
  switch (k) {
    case BreakKind::None: return "none";
    case BreakKind::Edited: return "edited";
    case BreakKind::Reordered: return "reordered";
    case BreakKind::Deleted: return "deleted";
    case BreakKind::Inserted: return "inserted";
    case BreakKind::Truncated: return "truncated";
    case BreakKind::BadSignature: return "bad signature";
    case BreakKind::TornTail: return "torn tail";
  }
  return "unknown";
}

std::string VerifyResult::message() const {
  if (valid()) return "chain verified, " + std::to_string(entries) + " entries";
  return "line " + std::to_string(first_bad_line) + ": " + std::string(to_string(kind)) + ": " + why;
}

VerifyResult verify_log_text(std::string_view text, const VerifyOptions& o) {
  VerifyResult r;
  r.head = kGenesisHash;
  r.signatures_checked = o.public_key != nullptr;
  LineChecker checker;
  std::size_t last_checkpoint_line = 0;
  for_each_line(text, [&](const Line& l, std::size_t end) {
    if (l.text.empty()) {
      r.kind = BreakKind::Inserted;
      r.why = "an empty line";
    } else if (LineCheck c = checker.check(l.text); !c.self_consistent) {
      r.kind = BreakKind::Edited;
      r.why = c.why;
    } else if (c.prev_hash != r.head) {
      classify_link(text, l, c, r.head, r);
      return false;
    } else {
      r.ends_with_final_checkpoint = false;
      if (c.checkpoint && !check_checkpoint(*c.checkpoint, l.number, r.head, o, r)) return false;
      if (c.checkpoint) {
        ++r.checkpoints;
        last_checkpoint_line = l.number;
      }
      r.head = c.entry_hash;
      r.entries = l.number;
      r.good_bytes = end;
      return true;
    }
    r.first_bad_line = l.number;
    return false;
  });
  if (!r.valid()) return r;
  if (r.good_bytes < text.size()) {  // bytes after the last newline: a write cut short
    r.kind = BreakKind::TornTail;
    r.first_bad_line = r.entries + 1;
    r.why = "the last line is incomplete (" + std::to_string(text.size() - r.good_bytes) +
            " bytes without a newline): a write cut short by a crash, not tampering; the " +
            std::to_string(r.entries) + " entries before it verify";
  } else if (o.public_key && o.require_final_checkpoint && !r.ends_with_final_checkpoint) {
    r.kind = BreakKind::Truncated;
    r.first_bad_line = r.entries + 1;
    r.why = last_checkpoint_line == 0
                ? "no signed checkpoint at all: the log was rewritten or cut, or its writer never closed it"
                : "the log does not end with a final signed checkpoint; " +
                      std::to_string(r.entries - last_checkpoint_line) + " entries after the last one (line " +
                      std::to_string(last_checkpoint_line) +
                      ") are unsigned: entries were deleted from the end, or the writer is still running or was "
                      "killed";
  }
  return r;
}

VerifyResult verify_log_file(const std::string& path, const VerifyOptions& options) {
  const MappedFile map(path);
  return verify_log_text(map.text(), options);
}

}  // namespace wt::audit
