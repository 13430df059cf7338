// Small helpers shared by the tests.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/sample.hpp"
#include "source/telemetry_source.hpp"

namespace wt::test {

inline std::string fixture(const std::string& name) { return std::string(WT_FIXTURE_DIR) + "/" + name; }

// A file under the test's temporary directory with the given content.
inline std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("wt_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

inline std::vector<Sample> drain(TelemetrySource& src) {
  std::vector<Sample> out;
  Sample s;
  while (src.next(s)) out.push_back(s);
  return out;
}

// Samples of one GPU, `n` of them `dt` seconds apart, with a constant utilization and power.
inline std::vector<Sample> steady(std::size_t n, double dt, double util, double power, double t0 = 1000) {
  auto gpu = std::make_shared<GpuIdentity>(GpuIdentity{0, "GPU-t", "Test GPU", "", ""});
  std::vector<Sample> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].time_s = t0 + static_cast<double>(i) * dt;
    v[i].gpu = gpu;
    v[i].values.set(Signal::GpuUtil, util);
    v[i].values.set(Signal::Power, power);
  }
  return v;
}

inline std::vector<Reading> readings(const std::vector<Sample>& samples) {
  return {samples.begin(), samples.end()};
}

// Sets an environment variable for the rest of the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

// What NoTelemetryError says when `open` throws it; "" when it throws nothing.
template <class F>
std::string no_telemetry_message(F open) {
  try {
    open();
  } catch (const NoTelemetryError& e) {
    return e.what();
  }
  return "";
}

// `library` must resolve to the test's fake (ctest puts its directory first in LD_LIBRARY_PATH),
// recognised by its `marker` symbol; run by hand on a GPU machine it would otherwise be the
// real vendor library, and every expectation would fail.
inline testing::AssertionResult fake_library_found(const char* library, const char* marker) {
  void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr)
    return testing::AssertionFailure() << library << " not found (" << dlerror()
                                       << "): put the fake's directory in LD_LIBRARY_PATH (ctest does)";
  const bool fake = dlsym(lib, marker) != nullptr;
  dlclose(lib);
  if (!fake)
    return testing::AssertionFailure() << library << " is a real vendor library, not the fake: put the fake's "
                                          "directory first in LD_LIBRARY_PATH (ctest does)";
  return testing::AssertionSuccess();
}

// A source that hands out a prepared vector.
class VectorSource final : public TelemetrySource {
 public:
  explicit VectorSource(std::vector<Sample> s) : samples_(std::move(s)) {}
  bool next(Sample& out) override {
    if (pos_ >= samples_.size()) return false;
    out = samples_[pos_++];
    return true;
  }
  std::string describe() const override { return "vector"; }

 private:
  std::vector<Sample> samples_;
  std::size_t pos_ = 0;
};

}  // namespace wt::test
