// What `watch` prints: JSON lines (--json), plain lines when stdout is not a terminal (one per
// job-verdict change or alert), or a live table redrawn in place on a terminal.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "watch/watcher.hpp"

namespace wt {

class JsonLinesView final : public watch::WatchSink {
 public:
  explicit JsonLinesView(std::ostream& out) : out_(out) {}
  void on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool job_changed,
                 double now_s) override;
  void on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) override;

 private:
  std::ostream& out_;
};

class PlainLinesView final : public watch::WatchSink {
 public:
  explicit PlainLinesView(std::ostream& out) : out_(out) {}
  void on_window(const watch::GpuWatch& gpu, const Window& window, const Verdict& verdict, bool job_changed,
                 double now_s) override;
  void on_mismatch(const watch::GpuWatch& gpu, const watch::MismatchEvent& event, double now_s) override;

 private:
  std::ostream& out_;
};

// One row per GPU, redrawn in place with ANSI cursor movement.
class LiveView {
 public:
  explicit LiveView(std::ostream& out) : out_(out) {}
  // `status`: a line under the table (source, log, what ended the run).
  void draw(const std::vector<watch::GpuWatch>& gpus, const std::string& status);

 private:
  std::ostream& out_;
  std::size_t lines_drawn_ = 0;
};

// Unicode block characters, one per value, scaled to [0, full]; a blank where a value is missing.
std::string sparkline(const watch::Recent& values, double full);
// "42s", "5m12s", "3h05m".
std::string format_duration(double seconds);

}  // namespace wt
