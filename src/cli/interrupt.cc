#include "cli/interrupt.h"

#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>

namespace regrapht::cli {
namespace {

std::atomic<bool> g_flag{false};
std::atomic<int> g_signal{0};
std::atomic<int64_t> g_first_ns{0};  // CLOCK_MONOTONIC of the first signal
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
                  std::atomic<int64_t>::is_always_lock_free,
              "the handler may only touch lock-free atomics");

// A second signal within this long of the first is the same request sent
// twice (timeout(1) and Slurm signal the process and its group), not a
// user insisting.
constexpr int64_t kRepeatNs = 1'000'000'000;

int64_t NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void OnSignal(int sig) {
  int expected = 0;
  if (!g_signal.compare_exchange_strong(expected, sig)) {
    if (NowNs() - g_first_ns.load() < kRepeatNs) return;
    // A second signal: stop waiting for the clean stop.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_first_ns.store(NowNs());
  g_flag.store(true);
  // A short note, with write(2) only (async-signal-safe).
  const char* msg =
      sig == SIGINT   ? "\nregrapht: SIGINT: stopping after the current step and writing what was "
                        "found (again to quit at once)\n"
      : sig == SIGHUP ? "\nregrapht: SIGHUP: stopping after the current step and writing what was "
                        "found\n"
                      : "\nregrapht: SIGTERM: stopping after the current step and writing what was "
                        "found\n";
  ssize_t ignored = ::write(2, msg, std::strlen(msg));
  (void)ignored;
}

}  // namespace

void InstallInterruptHandler() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);  // a closed terminal: the report is still written
}

const std::atomic<bool>* InterruptFlag() { return &g_flag; }
int InterruptSignal() { return g_signal.load(); }
int InterruptExitCode() { return 128 + g_signal.load(); }
std::string InterruptName() {
  int s = g_signal.load();
  return s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" : s == SIGHUP ? "SIGHUP" : "signal " + std::to_string(s);
}

}  // namespace regrapht::cli
