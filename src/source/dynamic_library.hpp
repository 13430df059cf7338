// Run-time loading of the vendor libraries (NVML, AMD SMI, ROCm SMI), shared by their sources:
// no vendor header or library is needed to build, and a missing one is a message, not a crash.
#pragma once

#include <dlfcn.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace wt {

struct LoadedLibrary {
  void* handle = nullptr;  // nullptr when none of the names could be opened
  std::string name;        // the one that was
  std::string why;         // the loader's reason the first name failed (meaningful when handle is null)
};

// The first of `names` the loader can open. Names carry no path separator, so the loader searches
// LD_LIBRARY_PATH and the system paths: how the tests substitute their fake libraries.
inline LoadedLibrary load_first(const std::vector<std::string>& names) {
  LoadedLibrary lib;
  for (const std::string& name : names) {
    if ((lib.handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      lib.name = name;
      return lib;
    }
    if (lib.why.empty()) {
      const char* e = dlerror();
      lib.why = e ? e : "unknown reason";
    }
  }
  return lib;
}

// The first of `symbols` the library exports, as a function of type F; nullptr when none is.
// Vendors keep old entry points beside versioned ones (nvmlInit beside nvmlInit_v2), so callers
// list the newest first and older drivers still work.
template <class F>
F* resolve(void* handle, std::initializer_list<const char*> symbols) {
  for (const char* symbol : symbols)
    if (void* f = dlsym(handle, symbol)) return reinterpret_cast<F*>(f);
  return nullptr;
}

template <class F>
F* resolve(void* handle, const char* symbol) {
  return resolve<F>(handle, {symbol});
}

}  // namespace wt
