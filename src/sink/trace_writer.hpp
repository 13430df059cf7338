// Writes samples as a trace that ReplaySource reads back to the same samples.
#pragma once

#include <memory>
#include <ostream>

#include "core/sample.hpp"
#include "source/replay/replay_source.hpp"

namespace wt {

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual void write(const Sample& s) = 0;
};

// CSV: nvidia-smi's layout and units with every signal as a column ("[N/A]" when missing), and
// a host column when the first sample's GPU has a host; values in shortest round-trip form. The
// header is written with the first sample. JSONL: docs/trace-format.md.
std::unique_ptr<TraceWriter> make_trace_writer(TraceFormat format, std::ostream& out);

}  // namespace wt
