// Runs the user's --on-mismatch command for each alert: argv split on whitespace (no shell, so
// no telemetry value is ever interpreted), the event JSON on its stdin. Children run while
// the monitor keeps polling; each gets a time limit, after which it is killed.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace wt::watch {

class AlertCommand {
 public:
  // Throws std::invalid_argument when `command` has no program.
  AlertCommand(const std::string& command, double timeout_s);
  ~AlertCommand();  // finish(): waits for the running children, up to their time limit
  AlertCommand(const AlertCommand&) = delete;
  AlertCommand& operator=(const AlertCommand&) = delete;

  // Starts one run with `input` on its stdin; returns at once. A failure to start is returned
  // as a message ("" when it started); a program that cannot be executed exits 127.
  std::string start(const std::string& input);
  // Reaps children that ended and kills those past their time limit; returns a message per
  // child that failed (non-zero exit, killed). Never blocks.
  std::vector<std::string> poll();
  // Waits for every child (killing any past its limit).
  std::vector<std::string> finish();

  std::size_t running() const { return children_.size(); }

 private:
  struct Child {
    pid_t pid;
    std::chrono::steady_clock::time_point deadline;
  };
  std::vector<std::string> argv_;
  double timeout_s_;
  std::vector<Child> children_;
};

}  // namespace wt::watch
