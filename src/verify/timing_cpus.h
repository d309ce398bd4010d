// Timed phases on a core of their own.
//
// A timed phase (the reference's timed loop, a --cpu-candidate's, a GPU
// candidate's drop-in call with its host-side copies) already runs alone among
// regrapht's timed phases on the machine (the machine timing lock,
// verify/gpu_lock.h). What else regrapht runs meanwhile (compiles, other
// candidates' correctness runs, the emulator) used to share the cores with it,
// and moved a reference's median by about 14% on two cores (docs/bench.md,
// "Reference timings under load"). So a verifier that times keeps one physical
// core for its timed phases:
//
//   timed CPU   the last CPU this process may run on (or $REGRAPHT_TIMING_CPU);
//   busy CPUs   every other CPU it may run on, minus the timed CPU's
//               hyper-thread siblings (they share its core's caches and units).
//
// Every command a verifier runs goes through a PinningRunner: inside a
// TimedScope (held beside the machine timing lock) the command is pinned to the
// timed CPU, otherwise to the busy CPUs. The pin is the calling thread's CPU
// affinity while the command starts; the child (and bubblewrap, the compiler,
// the test driver it starts) inherits it. Memory bandwidth and the last-level
// cache stay shared, and processes that are not regrapht's timing verifiers
// (an emulated or --no-timing run, anything else on the machine) are not
// moved: the record's "how" says so.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "regrapht/status.h"

namespace regrapht::verify {

struct TimingCpus {
  int timed = -1;          // the CPU timed phases run on
  std::vector<int> busy;   // the CPUs everything else runs on (never empty)
  std::string Describe() const;  // "CPU 1 (others on CPUs 0)"
};

// The plan for a process allowed to run on `allowed` (ascending CPU numbers).
// `siblings(cpu)`: the CPUs sharing cpu's physical core, itself included
// (sysfs thread_siblings_list; {cpu} when unknown). `setting`:
// $REGRAPHT_TIMING_CPU: unset or "" or "auto" picks the last allowed CPU,
// "off" turns pinning off, a number picks that CPU. nullopt when pinning is
// off or leaves no busy CPU (a one-core machine); InvalidArgument naming the
// variable when the setting is not "auto", "off" or an allowed CPU.
Result<std::optional<TimingCpus>> PlanTimingCpus(const std::vector<int>& allowed,
                                                 const std::function<std::vector<int>(int)>& siblings,
                                                 const std::optional<std::string>& setting);

// The plan for this process: its CPU affinity, sysfs siblings, and
// $REGRAPHT_TIMING_CPU.
Result<std::optional<TimingCpus>> PlanTimingCpusHere();

// Parses a sysfs CPU list ("0-3,8,10-11"); nullopt when malformed.
std::optional<std::vector<int>> ParseCpuList(const std::string& text);

// While one lives, commands this thread runs through a PinningRunner run on
// the timed CPU. Scopes nest; not movable.
class TimedScope {
 public:
  TimedScope();
  ~TimedScope();
  TimedScope(const TimedScope&) = delete;
  TimedScope& operator=(const TimedScope&) = delete;
};

// True while the calling thread holds a TimedScope.
bool InTimedScope();

// A runner that pins each command as above and then runs it with `inner`
// (not owned; must outlive it). A thread whose affinity cannot be set runs the
// command unpinned (logged once): pinning is a measurement aid, never a reason
// to fail a verification.
std::unique_ptr<CommandRunner> NewPinningRunner(CommandRunner* inner, TimingCpus cpus);

}  // namespace regrapht::verify
