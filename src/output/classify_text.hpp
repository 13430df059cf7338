// Human-readable classification report: one line per GPU and a compact timeline.
#pragma once

#include <ostream>
#include <string>

#include "pipeline/classify_stream.hpp"

namespace wt {

// One mark per window (or per group of windows when there are more than `width`).
std::string timeline(const std::vector<WindowVerdict>& windows, std::size_t width = 60);

void print_classify_text(std::ostream& out, const ClassifyResult& r, bool verbose);

void print_diagnostics(std::ostream& err, const Diagnostics& d);

}  // namespace wt
