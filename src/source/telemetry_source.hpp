// Where samples come from. Sources know nothing of windows or classification.
#pragma once

#include <string>

#include "core/diagnostic.hpp"
#include "core/sample.hpp"

namespace wt {

class TelemetrySource {
 public:
  virtual ~TelemetrySource() = default;

  // Fills `out` with the next sample, in time order per GPU. Returns false at the end of the
  // stream. Live sources block until the next poll is due.
  virtual bool next(Sample& out) = 0;

  // "synthetic:training", "replay:/path/file.csv", "nvml" — for reports.
  virtual std::string describe() const = 0;

  // Problems met so far that did not stop the stream (bad lines skipped, a GPU lost). Only the
  // first kMaxKept are kept, so a file of garbage cannot exhaust memory; the rest are counted.
  Diagnostics diagnostics() const {
    Diagnostics all = diagnostics_;
    if (dropped_ > 0)
      all.push_back({describe(), "... and " + std::to_string(dropped_) + " more problems like those above", true});
    return all;
  }
  static constexpr std::size_t kMaxKept = 100;
  // How many entries diagnostics() returns, without copying them.
  std::size_t diagnostics_size() const { return diagnostics_.size() + (dropped_ > 0 ? 1 : 0); }
  // How many problems are kept: the first entries of diagnostics(), which never change.
  std::size_t kept_count() const { return diagnostics_.size(); }
  // Every error reported, kept or only counted.
  std::size_t error_count() const {
    std::size_t n = dropped_;
    for (const Diagnostic& d : diagnostics_) n += d.is_error ? 1 : 0;
    return n;
  }

  void report(Diagnostic d) {
    if (diagnostics_.size() < kMaxKept)
      diagnostics_.push_back(std::move(d));
    else
      ++dropped_;
  }

 private:
  Diagnostics diagnostics_;
  std::size_t dropped_ = 0;
};

}  // namespace wt
