// The one worker pool: runs fn(0) .. fn(n - 1) on a few threads and hands the
// results back in input order.
//
// Contract (every form below):
// - fn(i) is called at most once per index, from a worker thread (or, in
//   ParallelMap/ParallelFor with one worker, from the calling thread).
// - Indices start in increasing order, so the items that ran are always a
//   prefix 0 .. k-1 of the input: a stop leaves a tail never started, no holes.
// - `stop` (optional) is called by the workers before each item starts; once
//   it returns true no further item starts (running ones finish). It must be
//   thread-safe. A cancel flag is `[&] { return cancel.load(); }`.
// - Errors: a Status or Result returned by fn is a value like any other (the
//   caller decides, and can stop the pool through `stop`); an exception thrown
//   by fn stops further items from starting and is rethrown on the calling
//   thread where that item's result would have been returned (the lowest index
//   that threw).
// - Every thread is joined before ParallelMap/ParallelFor return and before
//   OrderedParallelMap's destructor returns; no thread outlives the call.
//
// Long-lived queues (search/pipeline's request workers) and the emulator's
// thread per cooperative block (emu/, compiled into the sandboxed program) are
// not pools of this kind and do not use it.
#ifndef REGRAPHT_CORE_PARALLEL_H_
#define REGRAPHT_CORE_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace regrapht {

// Results streamed in input order while later items still run: for a caller
// that prints, merges or checkpoints item i as soon as items 0 .. i are done.
//
//   OrderedParallelMap<Outcome> pool(dirs.size(), jobs, [&](size_t i) { return Check(dirs[i]); });
//   while (std::optional<Outcome> o = pool.Next()) { Print(*o); if (o->fatal) break; }
//
// Breaking out of the loop (or destroying the object) stops further items
// and joins the workers after their current item.
template <typename T>
class OrderedParallelMap {
 public:
  // Starts min(workers, n) threads (at least one when n > 0).
  OrderedParallelMap(size_t n, int workers, std::function<T(size_t)> fn,
                     std::function<bool()> stop = {})
      : fn_(std::move(fn)), stop_(std::move(stop)), slots_(n) {
    size_t threads = std::min(n, static_cast<size_t>(std::max(1, workers)));
    live_ = threads;
    try {
      for (size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { Work(); });
    } catch (...) {  // a thread that could not start: stop and join the others
      {
        std::lock_guard<std::mutex> lock(mu_);
        live_ -= threads - threads_.size();
      }
      Join();
      throw;
    }
  }
  ~OrderedParallelMap() { Join(); }
  OrderedParallelMap(const OrderedParallelMap&) = delete;
  OrderedParallelMap& operator=(const OrderedParallelMap&) = delete;

  // Blocks until the next item in input order is done and returns its result;
  // nullopt once every item was returned, or when the next item never started
  // (a stop). Rethrows the item's exception, if fn threw.
  std::optional<T> Next() {
    std::unique_lock<std::mutex> lock(mu_);
    if (next_out_ >= slots_.size()) return std::nullopt;
    Slot& s = slots_[next_out_];
    cv_.wait(lock, [&] { return s.done || live_ == 0; });
    if (!s.done) return std::nullopt;
    ++next_out_;
    if (s.error) std::rethrow_exception(s.error);
    return std::move(s.value);
  }

  // No item starts after this call; items already running finish.
  void Stop() { stopped_ = true; }

  // Stop(), then waits for the workers. Idempotent.
  void Join() {
    Stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  struct Slot {
    bool done = false;
    std::optional<T> value;
    std::exception_ptr error;
  };

  void Work() {
    while (!stopped_ && !(stop_ && stop_())) {
      size_t i = next_in_++;
      if (i >= slots_.size()) break;
      std::optional<T> value;
      std::exception_ptr error;
      try {
        value.emplace(fn_(i));
      } catch (...) {
        error = std::current_exception();
        stopped_ = true;
      }
      std::lock_guard<std::mutex> lock(mu_);
      slots_[i].value = std::move(value);
      slots_[i].error = error;
      slots_[i].done = true;
      cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(mu_);
    --live_;
    cv_.notify_all();
  }

  std::function<T(size_t)> fn_;
  std::function<bool()> stop_;
  std::atomic<size_t> next_in_{0};
  std::atomic<bool> stopped_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Slot> slots_;  // guarded by mu_ once the workers start
  size_t next_out_ = 0;      // guarded by mu_
  size_t live_ = 0;          // workers still running; guarded by mu_
  std::vector<std::thread> threads_;
};

// Runs fn(i) for i in [0, n) on `workers` threads and returns the results in
// input order: all n, or the prefix that started before `stop` returned true.
// With one worker (or one item) everything runs on the calling thread, in
// order, without starting a thread.
template <typename Fn, typename T = std::invoke_result_t<Fn&, size_t>>
std::vector<T> ParallelMap(size_t n, int workers, Fn fn, std::function<bool()> stop = {}) {
  static_assert(!std::is_void_v<T>, "use ParallelFor for a function returning void");
  std::vector<T> out;
  out.reserve(n);
  if (workers <= 1 || n <= 1) {
    for (size_t i = 0; i < n && !(stop && stop()); ++i) out.push_back(fn(i));
    return out;
  }
  OrderedParallelMap<T> pool(n, workers, std::function<T(size_t)>(std::move(fn)), std::move(stop));
  while (std::optional<T> r = pool.Next()) out.push_back(std::move(*r));
  return out;
}

// ParallelMap for a function run for its effects: returns how many items ran
// (n, or fewer after a stop).
template <typename Fn>
size_t ParallelFor(size_t n, int workers, Fn fn, std::function<bool()> stop = {}) {
  return ParallelMap(
             n, workers,
             [&fn](size_t i) {
               fn(i);
               return true;
             },
             std::move(stop))
      .size();
}

}  // namespace regrapht

#endif  // REGRAPHT_CORE_PARALLEL_H_
