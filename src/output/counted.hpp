// "1 GPU", "2 GPUs": a count with its noun, for the lines a person reads.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wt {

inline std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace wt
