// `workloadtruth mcp`: an MCP server on stdio (src/mcp), for AI agents and MCP clients.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/http_auth_options.hpp"
#include "cli/job_options.hpp"
#include "cli/run_guarded.hpp"
#include "mcp/server.hpp"
#include "mcp/tools.hpp"
#include "source/prometheus/http_auth.hpp"

namespace wt::cli {
namespace {

struct McpOptions {
  std::string audit_log;
  std::string sign_key;
  std::string url;
  HttpAuthFiles auth_files;
  std::string proc_root = "/proc", sys_root = "/sys";
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  bool json = false;
};

int run_mcp(const McpOptions& o) {
  if (!o.sign_key.empty() && o.audit_log.empty()) throw std::invalid_argument("--sign-key needs --audit-log");
  auto config = std::make_shared<mcp::ToolConfig>();
  config->audit_log = o.audit_log;
  if (!o.sign_key.empty()) config->sign_key = audit::PrivateKey::load(o.sign_key);
  if (o.auth_files.any() && o.url.empty())
    throw std::invalid_argument(http_auth_flags() + " need --url: the one server they are for");
  read_http_auth(o.auth_files);  // a bad file fails now, not at a call
  config->http_url = o.url;
  config->auth_files = o.auth_files;
  config->proc_root = o.proc_root;
  config->sys_root = o.sys_root;
  // A client that goes away mid-call must end the server through a failed write, not SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  const mcp::ToolRegistry tools = mcp::make_tools(config);
  mcp::Session session(tools);
  mcp::serve(STDIN_FILENO, STDOUT_FILENO, session, {o.max_message_bytes, o.json}, std::cerr);
  return exit_code::kOk;
}

}  // namespace

Command add_mcp_command(CLI::App& app) {
  auto o = std::make_shared<McpOptions>();
  CLI::App* sub = app.add_subcommand(
      "mcp",
      "Serve the Model Context Protocol on stdio (tools: classify_workload, classify_trace, run_benchmark, "
      "verify_audit_log, report_audit_logs); see docs/mcp.md");
  sub->add_option(
      "--audit-log", o->audit_log,
      "The audit log classify_workload appends to when asked (write_to_audit_log); the only file the server "
      "writes");
  add_host_root_options(*sub, o->proc_root, o->sys_root);
  sub->add_option("--sign-key", o->sign_key, "Private key (PREFIX.key from keygen): sign the audit log's checkpoints");
  sub->add_option("--url", o->url,
                  "classify_workload's default dcgm-exporter metrics URL or Prometheus server, the only one the "
                  "credentials below are sent to");
  add_http_auth_options(*sub, o->auth_files, "for --url");
  sub->add_option("--max-message-bytes", o->max_message_bytes, "Longest message accepted; a longer one gets an error")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
  sub->add_flag("--json", o->json, "Log to stderr as JSON lines (stdout always carries the protocol only)");
  // Errors before serving (a bad key) go to stderr only: stdout belongs to the protocol.
  return {sub, [o] { return run_guarded(false, [o] { return run_mcp(*o); }); }};
}

}  // namespace wt::cli
