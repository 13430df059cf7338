// libFuzzer target: arbitrary bytes as a trace file through the whole replay pipeline
// (line reader -> CSV, dmon, JSONL or rocm-smi/amd-smi parser -> windows -> features -> rules).
// Built once per reader, with WT_FUZZ_FORMAT set to the CSV, dmon or JSONL parser, or to
// detection (amd). Any crash or sanitizer report is a bug; InputError is the expected answer to
// garbage.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "classify/rule_classifier.hpp"
#include "pipeline/classify_stream.hpp"
#include "source/replay/replay_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The file lives in memory; ReplaySource opens it by path like any other file.
  const int fd = memfd_create("trace", 0);
  if (fd < 0) return 0;
  std::size_t off = 0;
  while (off < size) {
    const ssize_t n = write(fd, data + off, size - off);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  try {
    // An interval, so rocm-smi and dmon output without timestamps is read rather than refused;
    // a CSV or JSONL trace, whose rows carry their time, refuses one, and is opened without it.
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    std::unique_ptr<wt::ReplaySource> src;
    try {
      src = std::make_unique<wt::ReplaySource>(path, wt::ReplayOptions{WT_FUZZ_FORMAT, {}, 1.0});
    } catch (const std::invalid_argument&) {
      src = std::make_unique<wt::ReplaySource>(path, wt::ReplayOptions{WT_FUZZ_FORMAT, {}, std::nullopt});
    }
    const auto result = wt::classify_stream(*src, wt::RuleClassifier(), {30, 15, 3});
    (void)result;
  } catch (const wt::InputError&) {
  }
  close(fd);
  return 0;
}
