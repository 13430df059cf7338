#include "source/multi_source.hpp"

#include <algorithm>
#include <utility>

namespace wt {
namespace {
// Samples a part's thread may read ahead of the merge: a few seconds of a node's GPUs.
constexpr std::size_t kFedAhead = 256;
}  // namespace

MultiSource::MultiSource(std::vector<Part> parts, WaitingHook waiting) : waiting_(std::move(waiting)) {
  states_.reserve(parts.size());  // the threads below hold pointers into it
  for (Part& p : parts) {
    State& s = states_.emplace_back();
    s.name = p.source ? p.source->describe() : p.name;
    s.part = std::move(p);
  }
  try {
    for (State& s : states_)
      if (!s.part.source) s.reader = std::thread([this, &s] { feed(s); });
  } catch (...) {
    stop_readers();
    throw;
  }
}

MultiSource::~MultiSource() { stop_readers(); }

void MultiSource::stop_readers() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_cv_.notify_all();
  // A reader waiting on its pipe sees `stopping_` within one waiting slice.
  for (State& s : states_)
    if (s.reader.joinable()) s.reader.join();
}

std::string MultiSource::describe() const {
  constexpr std::size_t kNamed = 3;  // a fleet's hundred logs would make a header of paths
  std::string text;
  for (std::size_t i = 0; i < states_.size() && i < kNamed; ++i)
    text += (i == 0 ? "" : "+") + states_[i].name;
  if (states_.size() > kNamed) text += "+" + std::to_string(states_.size() - kNamed) + " more";
  return text;
}

// Gives the sample our name for its GPU: its index offset, its node.
void MultiSource::adopt(State& s, Sample& sample) {
  if (s.part.index_offset == 0 && (s.part.host.empty() || !sample.gpu->host.empty())) return;
  GpuRef& ours = s.renamed[sample.gpu.get()];
  if (!ours) {
    auto id = std::make_shared<GpuIdentity>(*sample.gpu);
    id->index += s.part.index_offset;
    if (id->host.empty()) id->host = s.part.host;
    ours = std::move(id);
  }
  sample.gpu = ours;
}

// The part's problems not yet passed on; called by whichever thread reads the part. A part
// opened apart is a pipe, whose path (/dev/fd/63) says nothing: its node is named first.
Diagnostics MultiSource::new_problems(State& s) {
  if (s.part.source->diagnostics_size() == s.diagnostics_seen) return {};
  const Diagnostics d = s.part.source->diagnostics();
  Diagnostics fresh(d.begin() + static_cast<std::ptrdiff_t>(std::min(s.diagnostics_seen, d.size())), d.end());
  s.diagnostics_seen = std::max(s.diagnostics_seen, d.size());
  if (s.part.open && !s.part.host.empty())
    for (Diagnostic& p : fresh) p.where = p.where.empty() ? s.part.host : s.part.host + ": " + p.where;
  return fresh;
}

// A part read in place: its next sample, if it has none waiting.
void MultiSource::read_in_place(State& s) {
  if (!s.ended && !s.pending) {
    Sample sample;
    if (s.part.source->next(sample)) {
      adopt(s, sample);
      s.pending = std::move(sample);
    } else {
      s.ended = true;
    }
  }
  for (Diagnostic& d : new_problems(s)) report(std::move(d));
}

// A part read on its own thread: what it has handed over. Holds mutex_.
void MultiSource::take_fed(State& s) {
  for (Diagnostic& d : s.fed_problems) report(std::move(d));
  s.fed_problems.clear();
  if (s.failure) std::rethrow_exception(std::exchange(s.failure, nullptr));
  if (!s.pending && !s.fed.empty()) {
    s.pending = std::move(s.fed.front());
    s.fed.pop_front();
    room_cv_.notify_all();
  }
  s.ended = s.feed_ended && s.fed.empty() && !s.pending;
}

// The thread of a part given as `open`.
void MultiSource::feed(State& s) {
  std::exception_ptr failure;
  Diagnostics problems;
  try {
    s.part.source = s.part.open([this] { return stopping_.load(); });
    Sample sample;
    while (s.part.source->next(sample)) {
      adopt(s, sample);
      if (!hand_over(s, std::move(sample))) return;
    }
  } catch (const InputError& e) {
    problems.push_back({s.part.host, std::string(e.what()) + "; the others are read on", true});
  } catch (...) {
    failure = std::current_exception();
  }
  if (s.part.source) {
    Diagnostics seen = new_problems(s);
    problems.insert(problems.begin(), seen.begin(), seen.end());
  }
  const std::lock_guard lock(mutex_);
  s.fed_problems.insert(s.fed_problems.end(), problems.begin(), problems.end());
  if (!stopping_) s.failure = std::move(failure);  // handed over whole: this thread keeps no share of it
  s.feed_ended = true;
  fed_cv_.notify_all();
}

// Queues a sample for the merge, waiting for room; false when the merge is stopping.
bool MultiSource::hand_over(State& s, Sample sample) {
  Diagnostics problems = new_problems(s);
  std::unique_lock lock(mutex_);
  s.fed_problems.insert(s.fed_problems.end(), problems.begin(), problems.end());
  room_cv_.wait(lock, [&] { return s.fed.size() < kFedAhead || stopping_; });
  if (stopping_) {
    s.feed_ended = true;
    return false;
  }
  s.fed.push_back(std::move(sample));
  fed_cv_.notify_all();
  return true;
}

bool MultiSource::next(Sample& out) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return false;
    State* oldest = nullptr;
    bool more_to_come = false;
    for (State& s : states_) {
      if (s.reader.joinable()) {
        take_fed(s);
      } else {
        lock.unlock();  // a polled library waits for its next poll here
        read_in_place(s);
        lock.lock();
      }
      if (s.pending && (oldest == nullptr || s.pending->time_s < oldest->pending->time_s)) oldest = &s;
      more_to_come = more_to_come || !s.ended;
    }
    if (oldest != nullptr) {
      out = std::move(*oldest->pending);
      oldest->pending.reset();
      return true;
    }
    if (!more_to_come) return false;
    // Only parts on their own threads are left, all quiet.
    const bool fed = fed_cv_.wait_for(lock, kWaitingSlice, [this] {
      for (const State& s : states_)
        if (s.reader.joinable() && (!s.fed.empty() || (s.feed_ended && !s.ended))) return true;
      return false;
    });
    if (!fed && waiting_) {
      lock.unlock();
      const bool stop = waiting_();
      lock.lock();
      if (stop) {
        stopping_ = true;
        room_cv_.notify_all();
        return false;
      }
    }
  }
}

}  // namespace wt
