// The verdict logic of the harness as pure functions over what a run
// produced (process result and parsed records): no processes, files or
// clocks, so every class of cheat can be tested table-driven
// (judge_test.cc). Verifier (verifier.cc) builds, runs and then calls these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/subprocess.h"
#include "regrapht/problem.h"
#include "regrapht/verify.h"
#include "verify/judge/records.h"

namespace regrapht::verify {

// What a candidate run left behind.
struct RunFacts {
  const CommandResult& process;
  const DriverRecords* records;   // null when the stream could not be parsed
  const std::string& records_error;
  double time_limit_s = 0;
  std::string archs;              // for the no-GPU message
  bool emulated = false;          // the CPU emulator ran it: exit 86/87 are its reports
};

// Decides runs that never reach a comparison: no GPU (only from a sealed
// stream whose driver exited 3), timeout, CUDA error, crash, unsealed or
// unparsable records, timings that exceed the process's lifetime. Returns
// true (and fills the verdict and detail) when it decided.
bool ClassifyRun(const RunFacts& facts, VerifyResult* res);

struct JudgeOptions {
  bool emulate = false;           // the CPU emulator ran it (correctness only)
  bool timing_size_case = false;  // the timing-size input ran as one more case
  std::string timing_size_note;   // set when the emulator ran it scaled down: "n=.. of n=.."
  // The emulator's rungs (verify/spec/timing_sizes.h), ascending, cases
  // spec.tests.size() + i: each one's note; the one with records is judged.
  // Empty: one case, timing_size_note.
  std::vector<std::string> timing_size_notes;
  std::string timing_size_smallest;  // the smallest rung's sizes ("N=1024"), named when none ran
  bool timing = true;
  int64_t bytes_moved = 0;   // the spec's array bytes at the timing size
  bool kernel_form = false;  // the speedup is the kernel's (CUDA events), not the whole call's
  // The kernel-only floor: a kernel time below what the device needs to
  // write `output_bytes` beyond its L2 at its memory bandwidth is not a
  // figure a kernel can earn (the kernels did not produce the outputs).
  // 0: unknown, no floor.
  int64_t output_bytes = 0;
  int64_t device_l2_bytes = 0;
  double device_bytes_per_s = 0;
};

// "" when `kernel_ms` is a time the device can write the outputs in (or the
// device's figures are unknown); else why it cannot.
std::string KernelFloorViolation(double kernel_ms, const JudgeOptions& opts);

// Compares a finished candidate's records with the reference's: inputs
// untouched, every output of every case and call within tolerance, calls
// agree, outputs not constant where the reference varies, the timing runs'
// outputs right; then the speedup from the two timing summaries.
void Judge(const ProblemSpec& spec, const DriverRecords& ref, const DriverRecords& cand, const JudgeOptions& opts,
           VerifyResult* res);

// Cross-checks a correct result's timing with what the harness saw:
// each repetition's reported time against the arrival times of its "t0" and
// "t1" lines (`arrivals`: end offset and ms of every chunk read), the "T"
// record against the per-repetition reports, and the median against the
// floor of moving `bytes_moved` at kMaxBytesPerSecond. A failure turns the
// verdict into kImplausibleSpeed with no speedup.
void CheckTimingEvidence(const DriverRecords& cand, const std::vector<std::pair<size_t, double>>& arrivals,
                         const JudgeOptions& opts, VerifyResult* res);

// Faster than any host<->device link shipping (bytes/s; NVLink-C2C is 0.9
// TB/s): the floor for whole drop-in calls, whose inputs and outputs must
// cross that link. A kernel-only timing mode must use the GPU's own memory
// bandwidth instead (an H200's HBM3e reaches 4.8 TB/s).
inline constexpr double kMaxBytesPerSecond = 2e12;

// What compute-sanitizer's `tool` found in a run it wrapped (exit status
// 89, its "=========" lines): the verdict (memcheck and initcheck:
// runtime_error; racecheck and synccheck: race) and the first finding, or
// nullopt when it reported nothing.
std::optional<std::pair<Verdict, std::string>> SanitizerReport(const std::string& tool, const CommandResult& run);

// "in test case 2, call 1", for messages.
std::string DescribeCall(const DriverRecords& r);

// ---- Verdicts from what a build or a check produced (verifier.cc asks these
// and records the answer).

// The most useful line of a compiler log: the first naming an "error", else
// the first line.
std::string FirstError(const std::string& log);

// The source lint's or the object checks' findings (each as its text, at
// least one): static_reject, the detail the first.
void JudgeStaticFindings(const std::vector<std::string>& findings, VerifyResult* res);

// A candidate compile that failed (`failure`: the build cache's reason,
// "timed out ..." at its deadline): timeout or compile_error, with the log.
void JudgeCompileFailure(const std::string& failure, const std::string& log, VerifyResult* res);

// A candidate link that failed: compile_error naming the function the
// candidate does not define (`kernel_form`: linked with the kernel form's
// adapter, so its kernel) or the link's first error, with the log.
void JudgeLinkFailure(const ProblemSpec& spec, bool kernel_form, const std::string& log, VerifyResult* res);

// A candidate the emulator cannot take (`why`): not_emulated, unverified and
// never the candidate's fault; `archs` it was compiled for.
void JudgeNotEmulated(const std::string& archs, const std::string& why, const std::string& log,
                      VerifyResult* res);

// A candidate built and not run (`device_only`: device code only, not
// linked): compiled_only for res->env.archs.
void JudgeCompiledOnly(bool device_only, VerifyResult* res);

// compute-sanitizer's `tool` wrapped `run`: true, with its verdict, when it
// reported a finding.
bool JudgeSanitizerRun(const std::string& tool, const CommandResult& run, VerifyResult* res);

// A correct GPU verdict replaced by the failure of a check (`check`: "the
// CPU emulator's checks", "compute-sanitizer"): `by`'s verdict and place,
// no speedup and no timings.
void OverruleGpuVerdict(const VerifyResult& by, const std::string& check, VerifyResult* res);

}  // namespace regrapht::verify
