// Several sources read as one: a host with both NVIDIA and AMD GPUs, or several nodes' recorded
// logs (each part's GPUs then named after its node).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/waiting_hook.hpp"
#include "source/telemetry_source.hpp"

namespace wt {

class MultiSource final : public TelemetrySource {
 public:
  struct Part {
    std::unique_ptr<TelemetrySource> source;
    // Added to the GPU indices of this part, so GPUs of different vendors (each numbered from
    // 0 by its own library) get distinct indices: the second part starts after the first's GPUs.
    int index_offset = 0;
    // Set: the node this part's GPUs are in, for those whose source names none (one node's
    // nvidia-smi log among others'), so that GPU 0 of each is told apart as NODE/0.
    std::string host = {};
    // Set instead of `source`: opens it, and reads it, on the part's own thread, given the hook
    // to wait with (a pipe from a remote node, slow to send its first lines, which tell its
    // format, or gone quiet); `name` describes the part meanwhile.
    std::function<std::unique_ptr<TelemetrySource>(WaitingHook)> open = {};
    std::string name = {};
  };

  // A part given as `open` is read on its own thread: its bad input (InputError: a pipe that
  // gives no sample, or is not a trace) is reported as a problem and the others are read on;
  // other errors are thrown from next(). `waiting` is called while every part with more to come
  // is such a part and all are quiet, and true ends the input there.
  explicit MultiSource(std::vector<Part> parts, WaitingHook waiting = {});
  ~MultiSource() override;
  MultiSource(const MultiSource&) = delete;
  MultiSource& operator=(const MultiSource&) = delete;

  // Samples of all parts, oldest first among those at hand (ties: in part order); ends when every
  // part has. Parts read in place (files, polled libraries) are waited for; one on its own thread
  // is not, so its samples may come after younger ones of other GPUs (each GPU's stay in time order).
  bool next(Sample& out) override;
  // The parts' descriptions joined with '+': "nvml+amd" (the first three, then how many more).
  std::string describe() const override;

 private:
  struct State {
    Part part;
    std::string name;  // the part's description, fixed before its thread may open it
    std::optional<Sample> pending;  // its oldest sample not yet given out
    bool ended = false;
    std::size_t diagnostics_seen = 0;
    std::unordered_map<const GpuIdentity*, GpuRef> renamed;  // the part's identity -> ours
    // A part read on its own thread hands over through these, under mutex_.
    std::thread reader;
    std::deque<Sample> fed;
    Diagnostics fed_problems;
    std::exception_ptr failure;
    bool feed_ended = false;
  };
  void stop_readers();
  void adopt(State& s, Sample& sample);
  void read_in_place(State& s);
  void take_fed(State& s);
  void feed(State& s);
  bool hand_over(State& s, Sample sample);
  Diagnostics new_problems(State& s);

  std::vector<State> states_;
  WaitingHook waiting_;
  std::mutex mutex_;
  std::condition_variable fed_cv_, room_cv_;
  std::atomic<bool> stopping_ = false;
};

}  // namespace wt
