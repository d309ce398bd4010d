// Verification: is a CUDA candidate a correct, faster drop-in for a
// problem's sequential reference?
//
//   Verifier v(options, runner);
//   Result<VerifyResult> r = v.Verify(problem, candidate_source);
//
// Pipeline: static checks -> compile (cached) -> run the candidate in a
// sandboxed process on generated inputs (twice per test case, outputs
// poisoned before each call) -> compare with the reference's outputs (run in
// its own process, cached) -> time both (warm-up, repetitions, L2 flushed,
// transfers included) -> validate the timing runs' outputs again.
//
// A candidate that fails is data (VerifyResult::verdict), never a Status; a
// Status means the harness could not do its job (nvcc missing, reference does
// not build, cache unwritable). Without a GPU the verdict is kCompiledOnly:
// never a pass or a fail.
//
// Thread safety: Verify() may be called from several threads; GPU runs are
// serialised by a lock file so timings never overlap.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "regrapht/problem.h"
#include "regrapht/status.h"

namespace regrapht {

// The library's seam to processes (compiler, reference, candidates): opaque
// here (inside the library, src/core/subprocess.h, with the sandboxed
// SubprocessRunner and a FakeCommandRunner for tests). Callers outside the
// library use the Verifier constructor without one.
class CommandRunner;

enum class Verdict {
  kCorrect,
  kCompiledOnly,     // built and ran up to CUDA init; no GPU here (error 35/34/100)
  kStaticReject,     // broke a static rule (see findings)
  kCompileError,
  kRuntimeError,     // crashed, non-zero exit, CUDA error
  kTimeout,
  kWrongAnswer,
  kNondeterministic, // calls on the same inputs disagree, or later calls reuse stale results
  kImplausibleSpeed, // correct outputs, but its timing disagrees with what the harness saw or
                     // beats moving its bytes at any real bandwidth: no speedup (docs/trust.md)
  kRace,             // emulator: two threads touch the same memory unordered, one writing
  kHostCompute,      // emulator: an output changed on the host with a value no kernel produced
  kNotEmulated,      // compiled; the emulator cannot run it (device PTX, a library): unknown
};

std::string_view VerdictName(Verdict v);  // "correct", "compiled_only", ...
// Built but not judged (kCompiledOnly, kNotEmulated): neither pass nor fail.
inline bool Unverified(Verdict v) { return v == Verdict::kCompiledOnly || v == Verdict::kNotEmulated; }
std::optional<Verdict> ParseVerdict(std::string_view name);

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0, stddev_ms = 0;
  double p25_ms = 0, p75_ms = 0;
  int reps = 0;
  std::vector<double> samples_ms;
  // How it was timed: which timing lock kept regrapht's other timed phases
  // away and how long it waited for it (docs/trust.md, "Timed phases");
  // empty when not recorded.
  std::string how;
};

// Computes the summary of `samples` (REQUIRES: not empty).
Timing Summarize(std::vector<double> samples);

struct KernelUsage {
  std::string kernel, arch;
  int registers = 0;
  int64_t shared_bytes = 0, constant_bytes = 0, stack_bytes = 0;
  int64_t spill_store_bytes = 0, spill_load_bytes = 0;
};

// Where a result came from. Every result carries one.
struct Environment {
  std::string gpu_name;              // empty without a GPU
  std::string gpu_cc;                // "9.0"
  int gpu_sms = 0;
  int64_t gpu_l2_bytes = 0;
  double gpu_memory_bytes_per_s = 0; // from the memory clock and bus width; 0: unknown
  std::string driver_version;        // CUDA driver API version, "13.0"
  std::string cuda_runtime_version;  // "13.0"
  std::string cuda_toolkit_version;  // nvcc, "13.0.88"
  std::string host_cpu;
  std::string host_compiler;
  std::string nvcc_flags;            // as used for the candidate
  std::string reference_flags;       // as used for the reference
  std::string archs;                 // "sm_90"
  std::string sandbox;               // what isolation applied to the candidate run
  std::string regrapht_version;
};

struct VerifyResult {
  Verdict verdict = Verdict::kCompileError;
  std::string detail;                // one line a user can act on
  std::string log;                   // compiler or program output, truncated

  // Wrong answers: where it went wrong.
  int test_case = -1;                // index into spec.tests; -1 timing-run or n/a
  std::string output;                // argument name or "return"
  int64_t index = -1;
  std::string expected, got;

  std::vector<std::string> findings; // static-check findings ("rule no-file-io (line 3): ...")
  std::vector<KernelUsage> kernels;  // ptxas resource usage

  std::optional<Timing> candidate_timing;   // set iff verdict == kCorrect
  std::optional<Timing> reference_timing;   // set iff verdict == kCorrect
  double speedup = 0;                       // reference median / candidate median
  bool transfers_timed = true;              // host<->device copies are inside the timed call
  // Kernel-only time and the speedup it gives. Kernel form: the CUDA-event
  // time of the launch (the form's headline `speedup` is this one). Drop-in
  // form: the GPU time of the kernels inside each timed call, from CUPTI
  // (docs/bench.md), beside the call's `speedup`; unset where CUPTI is not
  // available. candidate_timing stays the whole call, transfers included.
  std::optional<Timing> kernel_timing;
  double kernel_speedup = 0;
  std::string form = "dropin";              // "dropin" (the paper's) or "kernel" (ParEval's)
  bool emulated = false;                    // ran in the CPU emulator: correctness only, not a GPU result
  // The checks a correct GPU verdict also passed: "emulated" (the CPU
  // emulator's), "sanitized" (compute-sanitizer's); VerifyOptions above.
  std::vector<std::string> cross_checks;

  std::string candidate_hash;        // HashHex of the source
  double time_compile_ms = 0;
  double time_run_ms = 0;
  bool compile_cached = false;
  Environment env;

  bool ok() const { return verdict == Verdict::kCorrect; }
};

// The GPU name recorded for results of VerifyOptions::emulate.
inline constexpr std::string_view kEmulatorGpuName = "regrapht CUDA emulator (CPU)";

struct VerifyOptions {
  std::vector<std::string> archs = {"sm_90"};
  std::vector<std::string> nvcc_flags = {"-O3"};
  std::vector<std::string> reference_flags = {"-O3"};
  bool timing = true;
  // Candidate timing protocol.
  int warmup = 2, min_reps = 5, max_reps = 50;
  double max_timing_seconds = 2.0;
  // Reference timing protocol (serial code is slow: fewer repetitions).
  int reference_warmup = 1, reference_min_reps = 3, reference_max_reps = 20;
  double reference_max_timing_seconds = 3.0;
  double compile_timeout_s = 180;                  // one nvcc or host-compiler call (--compile-timeout)
  // Longest wait for the GPU timing lock (another process timing on this
  // GPU; verify/gpu_lock.h) before the verification fails naming the lock
  // file (--gpu-lock-timeout); 0: no limit.
  double gpu_lock_timeout_s = 3600;
  // Set (Ctrl-C): a wait for the GPU lock ends (Cancelled). The commands
  // themselves are killed by the runner's own flag (SubprocessOptions::cancel).
  const std::atomic<bool>* cancel = nullptr;
  int64_t run_memory_bytes = int64_t{32} << 30;  // host memory of one run (cgroup)
  int max_processes = 512;                         // tasks (threads count) of one run
  // Where candidates (and compiles of their source) run. kAuto, kBubblewrap:
  // only ever sandboxed, or Verify() fails; kNone: unsandboxed
  // (--unsafe-no-sandbox), recorded in Environment::sandbox of every result.
  enum class Sandbox { kAuto, kBubblewrap, kNone };
  Sandbox sandbox = Sandbox::kAuto;
  // What the candidate is and where it runs. kGpu: CUDA, compiled by nvcc and
  // run on the GPU (compiled only where there is none). kEmulate: its kernels
  // run in regrapht's CUDA emulator on the CPU (src/verify/sandboxed/emu/):
  // correctness without a GPU, never timing; nvcc still compiles the
  // candidate first, so compile errors are real ones. kCpuCandidate: plain
  // C++ compiled with the host compiler and run on the CPU through the same
  // driver: the harness's self-test, never a GPU result.
  enum class RunMode { kGpu, kEmulate, kCpuCandidate };
  RunMode run_mode = RunMode::kGpu;
  bool emulated() const { return run_mode == RunMode::kEmulate; }
  bool cpu_candidate() const { return run_mode == RunMode::kCpuCandidate; }
  // With kEmulate: also run the spec's timing-size input (once more, as a
  // case) so that full-size correctness is checked; false: test cases only.
  bool emulate_timing_size = true;
  // With both: a timing input needing more than this many bytes per copy of
  // its arguments runs scaled down to the largest sizes that fit (the
  // calibrated timing sizes are made for a GPU; the emulator is ~100x slower
  // than the -O3 reference); the verdict names both sizes. 0: the spec's own.
  int64_t emulate_max_bytes = int64_t{128} << 20;
  // With both: the emulator checks the timing-size input at some of several
  // sizes, its "rungs" (the fitted sizes and those scaled by 1/2, 1/4, ...
  // while larger than every test case): the smallest, then the largest whose
  // work, predicted from the work measured so far, keeps the total within
  // this many checked accesses (a thread switch counts as 16); none when even
  // the smallest is predicted to need more (the verdict says so).
  // Deterministic: the same rungs on every machine. The verdict names the
  // largest size checked. 0: no limit (the smallest and the fitted sizes).
  int64_t emulate_max_work = int64_t{4000} * 1000 * 1000;
  // The kernel form (ParEval's task; REQUIRES the problem's "kernel"
  // section): the candidate defines the __global__ kernel only; a generated
  // adapter launches it with the launch contract and times the kernel alone.
  bool kernel_form = false;
  // Adds the spec's edge cases to its test cases (verify/spec/edge_cases.h: every
  // argument at its bounds and at small integers, one case at the largest
  // magnitudes), those the reference answers cleanly.
  bool edge_cases = true;
  // One verdict wherever the code runs (docs/trust.md, "One verdict"): on a
  // GPU a candidate is correct only if its test cases (and edge cases) also
  // pass the CPU emulator's checks: bounds, races, uninitialised reads,
  // where its outputs came from, asynchronous returns. False: the GPU's
  // verdict alone.
  bool gpu_emulator_check = true;
  // compute-sanitizer (memcheck, racecheck, initcheck, synccheck) on the
  // test cases, on the GPU: kFallback where the emulator did not vouch for
  // the candidate (it cannot run it: inline PTX, a library, code that
  // differs between passes), kAlways besides the emulator, kOff never.
  enum class Sanitizer { kOff, kFallback, kAlways };
  Sanitizer gpu_sanitizer = Sanitizer::kFallback;
  std::string cache_dir;                           // empty: CacheDir()
  bool keep_work = false;                          // keep run folders for debugging
};

class Verifier {
 public:
  // Runs its commands with a sandboxed subprocess runner of its own
  // (options.sandbox; a set options.cancel also kills the command in
  // progress).
  explicit Verifier(VerifyOptions options);
  // Runs its commands through `runner` (not owned; must outlive *this).
  Verifier(VerifyOptions options, CommandRunner* runner);
  ~Verifier();
  Verifier(const Verifier&) = delete;
  Verifier& operator=(const Verifier&) = delete;

  // Verifies `candidate_source` against `problem`.
  Result<VerifyResult> Verify(const Problem& problem, const std::string& candidate_source);

  // Builds and runs the reference alone: it compiles, terminates, writes every
  // output element, is deterministic and not degenerate. Returns its timing.
  // A broken reference is a Status naming what is wrong.
  Result<Timing> CheckReference(const Problem& problem);

  // Compiles the candidate only (static checks + nvcc, linked with the
  // driver), no run. With `device_only`, nvcc compiles to a fatbin for every
  // architecture instead (the whole translation unit is still parsed and
  // type-checked, host code included; about half the time, no link): the
  // compile gate CI runs over every expert solution and trajectory step.
  Result<VerifyResult> CompileOnly(const Problem& problem, const std::string& candidate_source,
                                   bool device_only = false);

  // CompileOnly(problem, source, /*device_only=*/true) for each item, in
  // order, sharing nvcc invocations: sources that can share a translation
  // unit without changing whether any of them compiles (src/verify/
  // batch_compile.h: no macros, the same includes, no name of one used by
  // another) are compiled up to 8 at a time; a batch that fails is compiled
  // again one source at a time, so a failing source's verdict, detail and log
  // are its own. Sources proven in a batch carry no ptxas figures (kernels).
  // Each Problem must outlive the call.
  Result<std::vector<VerifyResult>> CompileOnlyMany(const std::vector<std::pair<const Problem*, std::string>>& items);

  // Builds everything Verify() will need (candidate and reference) without
  // running anything, so a batch can compile in parallel first and time
  // sequentially afterwards. A failing candidate is not an error here.
  Status Prepare(const Problem& problem, const std::string& candidate_source);

  const VerifyOptions& options() const { return options_; }

 private:
  class Impl;
  VerifyOptions options_;
  std::unique_ptr<CommandRunner> owned_runner_;  // the first constructor's; null with the second
  std::unique_ptr<Impl> impl_;                   // always set
};

// The one place a program makes its Verifier: with its own sandboxed
// subprocess runner (the first constructor). Never null. Whether the
// sandbox can start is a separate question (CheckSandboxAvailable, below):
// a command asks it first where candidates run.
std::unique_ptr<Verifier> NewVerifier(const VerifyOptions& options);

// Fails, before any model time or compile is spent, when candidates would
// have to run sandboxed but the sandbox cannot start here (and
// options.sandbox is not kNone: --unsafe-no-sandbox). The error says why and
// what to do (docs/trust.md). Probes bubblewrap once per process.
Status CheckSandboxAvailable(const VerifyOptions& options);

// The declaration a candidate for `spec` must define: the drop-in's
// function ("void saxpy(int n, ...)"), or with `kernel_form` and a spec
// that has a "kernel" section, the kernel's ("__global__ void spmv(...)").
std::string CandidateSignature(const ProblemSpec& spec, bool kernel_form);

// `result` as one JSON document (2-space indented, no newline): the
// document `regrapht verify --json` prints and reports store; the timing
// samples included when `with_samples`. Text that is not valid UTF-8 is
// written with U+FFFD in its place.
std::string VerifyResultJson(const VerifyResult& result, bool with_samples = true);
// A Timing as one JSON object (median_ms, p25_ms, ..., reps), the same way.
std::string TimingJson(const Timing& timing, bool with_samples);

// `problem check`: is each problem folder usable? Its spec (parsed and
// validated), its reference (built and run: at the timing size with one
// warm-up and two repetitions when timing, else on the test cases), and its
// expert solutions: solution.cu (unless the kernel form
// checks kernel.cu instead) and kernel.cu in its kernel form. A solution
// must compile for every architecture of `verify.archs`, and with
// RunMode::kEmulate be correct in the CPU emulator (one the emulator cannot
// run is noted, not failed).
struct ProblemCheckOptions {
  VerifyOptions verify;   // kernel_form: kernel.cu replaces solution.cu when both exist
  bool no_build = false;  // the files only: nothing compiled or run
  // Solutions compiled for the device only (no link), the reference run on
  // its test cases only: the quick compile gate.
  bool device_only = false;
  int jobs = 0;  // folders at once when nothing is timed (0: one per core); timed: one at a time
};

struct ProblemCheckResult {
  std::string dir;
  bool ok = false;
  // ok: what was checked ("spec ok; reference ok (12.345 ms at the timing
  // size); solution.cu compiles for sm_90"); else why the folder failed.
  std::string note;
};

// Checks `dirs` (ProblemCheckOptions above) and calls `on_result` on the
// calling thread for each folder, in the order of `dirs`, as soon as it and
// the folders before it are done. Returns how many failed. A Status is a
// failure of the harness (nvcc cannot run, a cache unwritable), not of a
// folder: no folder after it is reported, and no further one starts.
// Thread safety: the folders run on worker threads of its own; `on_result`
// is never called concurrently.
Result<int> CheckProblems(const std::vector<std::string>& dirs, const ProblemCheckOptions& options,
                          const std::function<void(const ProblemCheckResult&)>& on_result);

// The paper's reward (ReGraphT Eq. 3): -1 unless correct; speedup - 1 when
// correct but slower than the reference (so in [-1, 0)); the speedup otherwise.
// A correct result whose speed was not measured (timing off, or the CPU
// emulator) gets 1.0: correct, counted as on par with the sequential code.
double Reward(const VerifyResult& result);

// What stands behind a result (docs/bench.md): "gpu-timed" (correct and timed
// on a GPU), "gpu-untimed" (ran on a GPU without timing, or failed there),
// "emulated" (the CPU emulator: correctness only), "compiled-only" (nothing
// ran: no GPU, the emulator could not run it, or it failed to build where
// there is no GPU). A GPU result names the cross-checks it passed:
// "gpu-timed+emulated", "gpu-timed+sanitized", "gpu-timed+emulated+sanitized".
std::string EvidenceLevel(const VerifyResult& result);

}  // namespace regrapht
