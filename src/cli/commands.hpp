// Each subcommand registers its options on the app and returns the function that runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace wt::cli {

struct Command {
  CLI::App* app;
  std::function<int()> run;  // returns the process exit code
};

Command add_classify_command(CLI::App& app);
Command add_record_command(CLI::App& app);
Command add_train_command(CLI::App& app);
Command add_benchmark_command(CLI::App& app);
Command add_keygen_command(CLI::App& app);
Command add_verify_log_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_calibrate_command(CLI::App& app);
Command add_watch_command(CLI::App& app);
Command add_mcp_command(CLI::App& app);

}  // namespace wt::cli
