#include "audit/checkpoint.hpp"

namespace wt::audit {

std::string checkpoint_message(std::uint64_t entries, std::string_view head, bool final) {
  return "workloadtruth audit checkpoint v1 entries=" + std::to_string(entries) + " head=" + std::string(head) +
         " final=" + (final ? "1" : "0");
}

Checkpoint make_checkpoint(std::uint64_t entries, const std::string& head, bool final, const PrivateKey& key,
                           std::string timestamp) {
  return {entries, head, final, key.public_key().id(), key.sign(checkpoint_message(entries, head, final)),
          std::move(timestamp)};
}

nlohmann::json checkpoint_payload(const Checkpoint& c) {
  return {{"type", "checkpoint"}, {"entries", c.entries},     {"head", c.head},          {"final", c.final},
          {"key_id", c.key_id},   {"signature", c.signature}, {"timestamp", c.timestamp}};
}

bool is_checkpoint(const nlohmann::json& payload) {
  const auto it = payload.find("type");
  return it != payload.end() && it->is_string() && it->get_ref<const std::string&>() == "checkpoint";
}

bool is_hash_hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::optional<Checkpoint> parse_checkpoint(const nlohmann::json& p, std::string& why) {
  const auto str = [&](const char* key) -> const std::string* {
    const auto it = p.find(key);
    return it != p.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
  };
  const auto entries = p.find("entries");
  const auto final = p.find("final");
  const std::string *head = str("head"), *key_id = str("key_id"), *sig = str("signature"), *ts = str("timestamp");
  if (entries == p.end() || !entries->is_number_unsigned()) why = "checkpoint without a whole \"entries\" count";
  else if (!head || !is_hash_hex(*head)) why = "checkpoint without a 64-hex-digit \"head\"";
  else if (final == p.end() || !final->is_boolean()) why = "checkpoint without a true/false \"final\"";
  else if (!key_id || !sig) why = "checkpoint without \"key_id\" and \"signature\"";
  else return Checkpoint{entries->get<std::uint64_t>(), *head, final->get<bool>(), *key_id, *sig, ts ? *ts : ""};
  return std::nullopt;
}

}  // namespace wt::audit
