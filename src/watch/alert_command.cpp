#include "watch/alert_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace wt::watch {
namespace {

std::string describe_status(const std::string& program, int status) {
  if (WIFEXITED(status)) return program + " exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return program + " was killed by signal " + std::to_string(WTERMSIG(status));
  return program + " ended abnormally";
}

}  // namespace

AlertCommand::AlertCommand(const std::string& command, double timeout_s) : timeout_s_(timeout_s) {
  std::istringstream in(command);
  for (std::string word; in >> word;) argv_.push_back(word);
  if (argv_.empty()) throw std::invalid_argument("--on-mismatch needs a command");
}

AlertCommand::~AlertCommand() { finish(); }

std::string AlertCommand::start(const std::string& input) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::string("cannot make a pipe: ") + std::strerror(errno);
  std::vector<char*> args;
  for (std::string& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return std::string("cannot fork: ") + std::strerror(errno);
  }
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    ::dup2(fds[0], STDIN_FILENO);
    ::signal(SIGPIPE, SIG_DFL);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[0]);
  // One event is far smaller than a pipe's buffer (64 KiB), so this write does not block even
  // when the command never reads; a command that exits first just drops it (EPIPE, ignored).
  const ::sighandler_t old = ::signal(SIGPIPE, SIG_IGN);
  std::size_t done = 0;
  while (done < input.size()) {
    const ssize_t n = ::write(fds[1], input.data() + done, input.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  ::signal(SIGPIPE, old);
  ::close(fds[1]);
  const auto limit =
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_s_));
  children_.push_back({pid, std::chrono::steady_clock::now() + limit});
  return {};
}

std::vector<std::string> AlertCommand::poll() {
  std::vector<std::string> problems;
  const auto now = std::chrono::steady_clock::now();
  for (auto it = children_.begin(); it != children_.end();) {
    int status = 0;
    const pid_t r = ::waitpid(it->pid, &status, WNOHANG);
    if (r == it->pid || (r < 0 && errno == ECHILD)) {
      if (r == it->pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        problems.push_back("--on-mismatch: " + describe_status(argv_[0], status));
      it = children_.erase(it);
      continue;
    }
    if (now >= it->deadline) {
      ::kill(it->pid, SIGKILL);
      ::waitpid(it->pid, &status, 0);
      std::ostringstream why;
      why << "--on-mismatch: " << argv_[0] << " ran past its " << timeout_s_ << " s limit and was killed";
      problems.push_back(why.str());
      it = children_.erase(it);
      continue;
    }
    ++it;
  }
  return problems;
}

std::vector<std::string> AlertCommand::finish() {
  std::vector<std::string> problems;
  while (!children_.empty()) {
    for (std::string& p : poll()) problems.push_back(std::move(p));
    if (!children_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return problems;
}

}  // namespace wt::watch
