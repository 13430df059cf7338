// `workloadtruth verify-log`: checks an audit log's hash chain and signed checkpoints.
#include <iostream>
#include <memory>
#include <optional>

#include "audit/log_verifier.hpp"
#include "audit/signing_key.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_guarded.hpp"
#include "output/audit_report.hpp"

namespace wt::cli {
namespace {

struct VerifyLogOptions {
  std::string file = "workloadtruth.log.jsonl";
  std::string pubkey;
  bool json = false;
};

int run_verify_log(const VerifyLogOptions& o) {
  std::optional<audit::PublicKey> key;
  if (!o.pubkey.empty()) key = audit::PublicKey::load(o.pubkey);
  audit::VerifyOptions vo;
  if (key) vo.public_key = &*key;
  const audit::VerifyResult r = audit::verify_log_file(o.file, vo);
  if (o.json) std::cout << verify_result_json(r).dump() << '\n';
  else std::cout << verify_result_text(r);
  return r.valid() ? exit_code::kOk : exit_code::kBadInput;
}

}  // namespace

Command add_verify_log_command(CLI::App& app) {
  auto o = std::make_shared<VerifyLogOptions>();
  CLI::App* sub = app.add_subcommand("verify-log", "Check an audit log's hash chain and signed checkpoints");
  sub->add_option("file", o->file, "Audit log (default workloadtruth.log.jsonl)");
  sub->add_option("--pubkey", o->pubkey,
                  "Public key (PREFIX.pub from keygen): check checkpoint signatures and that the log ends with a "
                  "final one");
  sub->add_flag("--json", o->json, "Print {valid, message, entries, first_bad_line, kind, ...}");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_verify_log(*o); }); }};
}

}  // namespace wt::cli
