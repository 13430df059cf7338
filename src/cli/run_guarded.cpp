#include "cli/run_guarded.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/exit_codes.hpp"
#include "core/diagnostic.hpp"

namespace wt::cli {
namespace {
int fail(bool json, int code, const std::string& message) {
  std::cerr << "workloadtruth: " << message << '\n';
  if (json) std::cout << nlohmann::json{{"error", message}, {"exit_code", code}}.dump() << '\n';
  return code;
}
}  // namespace

int run_guarded(bool json, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    return fail(json, exit_code::kBadInput, e.what());
  } catch (const NoTelemetryError& e) {
    return fail(json, exit_code::kNoTelemetry, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(json, exit_code::kUsage, e.what());
  } catch (const std::bad_alloc&) {
    return fail(json, exit_code::kBadInput, "out of memory while reading the input");
  } catch (const std::exception& e) {
    // Anything else is a bug or a broken library: say so instead of aborting.
    return fail(json, exit_code::kBadInput, std::string("internal error: ") + e.what());
  }
}

}  // namespace wt::cli
