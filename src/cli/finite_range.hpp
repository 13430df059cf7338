// The check every floating-point flag uses instead of CLI::Range.
#pragma once

#include <CLI/CLI.hpp>

namespace wt::cli {

// A finite number within [min, max]. CLI::Range lets "nan" through (every comparison with NaN is
// false), and a NaN window, interval or threshold would then run silently with nonsense.
CLI::Validator finite_range(double min, double max);

}  // namespace wt::cli
