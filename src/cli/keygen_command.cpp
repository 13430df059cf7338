// `workloadtruth keygen`: makes the Ed25519 key pair that signs audit-log checkpoints.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "audit/signing_key.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_guarded.hpp"

namespace wt::cli {
namespace {

struct KeygenOptions {
  std::string prefix;
  bool json = false;
};

int run_keygen(const KeygenOptions& o) {
  const audit::KeyFiles k = audit::generate_key_pair(o.prefix);
  if (o.json) {
    std::cout << nlohmann::json{{"private_key", k.private_path}, {"public_key", k.public_path}, {"key_id", k.key_id}}
                     .dump()
              << '\n';
  } else {
    std::cout << "wrote " << k.private_path << " (private, mode 0600: keep it secret) and " << k.public_path
              << " (give it to whoever verifies the log)\nkey id " << k.key_id << '\n';
  }
  return exit_code::kOk;
}

}  // namespace

Command add_keygen_command(CLI::App& app) {
  auto o = std::make_shared<KeygenOptions>();
  CLI::App* sub = app.add_subcommand("keygen", "Make an Ed25519 key pair that signs audit-log checkpoints");
  sub->add_option("--out", o->prefix, "Writes PREFIX.key (private, mode 0600) and PREFIX.pub; never overwrites")
      ->required();
  sub->add_flag("--json", o->json, "Print {private_key, public_key, key_id}");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_keygen(*o); }); }};
}

}  // namespace wt::cli
