// workloadtruth: tells what a GPU is really doing from its telemetry alone.
#include <vector>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "WorkloadTruth: tells what a GPU is really doing (training, inference, idle, ...) from its telemetry alone.\n"
      "A verdict is a signal to investigate, not proof."};
  app.name("workloadtruth");
  app.set_version_flag("--version", std::string("workloadtruth ") + WT_VERSION);
  app.require_subcommand(1);

  const std::vector<wt::cli::Command> commands{
      wt::cli::add_classify_command(app),
      wt::cli::add_record_command(app),
      wt::cli::add_train_command(app),
      wt::cli::add_benchmark_command(app),
      wt::cli::add_keygen_command(app),
      wt::cli::add_verify_log_command(app),
      wt::cli::add_report_command(app),
      wt::cli::add_calibrate_command(app),
      wt::cli::add_watch_command(app),
      wt::cli::add_mcp_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every other parse error is a usage error (2).
    return app.exit(e) == 0 ? wt::exit_code::kOk : wt::exit_code::kUsage;
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return wt::exit_code::kUsage;
}
