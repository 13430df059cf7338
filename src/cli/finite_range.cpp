#include "cli/finite_range.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace wt::cli {

CLI::Validator finite_range(double min, double max) {
  std::ostringstream description;
  description << "FLOAT in [" << min << " - " << max << "]";
  return CLI::Validator(
      [min, max](std::string& input) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(input, value)) return "Value " + input + " is not a number";
        if (!std::isfinite(value)) return "Value " + input + " is not a finite number";
        if (value < min || value > max) {
          std::ostringstream out;
          out << "Value " << input << " not in range " << min << " to " << max;
          return out.str();
        }
        return {};
      },
      description.str(), "FINITE_RANGE");
}

}  // namespace wt::cli
