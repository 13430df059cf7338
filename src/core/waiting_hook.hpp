// How a source that waits on its input (a quiet pipe, a followed Prometheus) lets its owner do
// its housekeeping and stop it: the hook is called every kWaitingSlice while the source waits,
// and true ends the input there (as Ctrl-C in `watch` does).
#pragma once

#include <chrono>
#include <functional>

namespace wt {

using WaitingHook = std::function<bool()>;

// Short, so that a stop is heeded at once; long enough to cost nothing while idle.
inline constexpr std::chrono::milliseconds kWaitingSlice{200};

}  // namespace wt
