// Signed checkpoints: chain entries that commit, with an Ed25519 signature, to how many entries
// precede them and to the hash of the last one. See docs/audit-log.md.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "audit/signing_key.hpp"

namespace wt::audit {

inline constexpr std::string_view kGenesisHash = "0000000000000000000000000000000000000000000000000000000000000000";

struct Checkpoint {
  std::uint64_t entries = 0;  // chain entries (lines) before the checkpoint
  std::string head;           // entry_hash of the last of them (kGenesisHash when none)
  bool final = false;         // written by a writer that closed cleanly
  std::string key_id, signature, timestamp;
};

// The bytes signed: "workloadtruth audit checkpoint v1 entries=<N> head=<hex> final=<0|1>".
std::string checkpoint_message(std::uint64_t entries, std::string_view head, bool final);

Checkpoint make_checkpoint(std::uint64_t entries, const std::string& head, bool final, const PrivateKey& key,
                           std::string timestamp);
nlohmann::json checkpoint_payload(const Checkpoint& c);

bool is_checkpoint(const nlohmann::json& payload);
// Reads a checkpoint payload; nullopt with `why` set when a field is missing or malformed.
std::optional<Checkpoint> parse_checkpoint(const nlohmann::json& payload, std::string& why);

bool is_hash_hex(std::string_view s);  // 64 lowercase hex digits

}  // namespace wt::audit
