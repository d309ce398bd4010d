#include "cli/verify_flags.h"

#include <fmt/format.h>

#include "cli/number_flags.h"
#include "core/strings.h"
#include "verify/build/toolchain.h"

namespace regrapht::cli {

void VerifyFlags::Add(CLI::App* sub, const std::string& default_arch) {
  arch = default_arch;
  sub->add_option("--arch", arch, "GPU architecture(s) to compile for, e.g. sm_90 or sm_80,sm_90")
      ->capture_default_str();
  sub->add_option("--sandbox", sandbox,
                  "bwrap (the default, also spelled auto): candidates run only inside bubblewrap; without it "
                  "they are refused")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "bwrap"}));
  sub->add_flag("--unsafe-no-sandbox", unsafe_no_sandbox,
                "run candidates and their compiles WITHOUT the sandbox (where bubblewrap cannot start); "
                "recorded in every result and printed in every report");
  sub->add_option("--cache", cache_dir, "cache folder (default $REGRAPHT_CACHE_DIR or ~/.cache/regrapht)");
  sub->add_flag("--no-timing", no_timing, "check correctness only");
  AddNumber(sub, "--timing-seconds", &max_timing_seconds, {0.0, 600.0},
            "time budget of each timed loop (candidate, and reference); the minimum repetitions "
            "(5 candidate, 3 reference) always run");
  sub->add_option("--nvcc-flags", nvcc_flags, "flags for nvcc on the candidate")->capture_default_str();
  sub->add_option("--reference-flags", reference_flags, "flags for the host compiler on the reference")
      ->capture_default_str();
  sub->add_flag("--cpu-candidate", cpu_candidate,
                "treat the candidate as plain C++ run on the CPU (harness self-test; never a GPU result)");
  sub->add_flag("--emulate", emulate,
                "run the kernels in regrapht's CUDA emulator on the CPU: correctness without a GPU, no timing "
                "(nvcc still compiles the candidate; never reported as a GPU result)");
  sub->add_flag("--emulate-tests-only", emulate_tests_only,
                "with --emulate: run the spec's test cases only, not its timing-size input (faster; full-size "
                "correctness unchecked)");
  AddNumber(sub, "--emulate-max-mib", &emulate_max_mib, {int64_t{0}, int64_t{1} << 20},
            "with --emulate: a timing-size input needing more MiB per copy of its arguments runs scaled down "
            "to the largest sizes that fit, and the verdict names both (0: the spec's own sizes)");
  AddNumber(sub, "--emulate-max-work", &emulate_max_work_m, {int64_t{0}, int64_t{1} << 40},
            "with --emulate: check the timing-size input at its smallest scaled size and then at the largest (the "
            "spec's sizes, or 1/2, 1/4, ... of them) whose work, predicted from the test cases, keeps the total "
            "within this many million checked accesses (none if even the smallest would exceed it); the verdict "
            "names the size (0: no limit)");
  sub->add_option("--form", form,
                  "dropin (the paper's task: a host function with the reference's signature, the whole call "
                  "timed) or kernel (ParEval's task: the __global__ kernel of the problem's kernel form, "
                  "launched by regrapht, the kernel alone timed)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dropin", "kernel"}));
  AddNumber(sub, "--compile-timeout", &compile_timeout_s, {0.0, 1e6, true},
            "seconds one compile (nvcc, or the host compiler on the reference) may take before it is "
            "killed and reported as a compile error");
  AddNumber(sub, "--gpu-lock-timeout", &gpu_lock_timeout_s, {0.0, 1e7},
            "seconds to wait for the GPU timing lock held by another process (0: no limit); past it the "
            "verification fails naming the lock file");
  sub->add_flag("--no-emulator-check", no_emulator_check,
                "on a GPU, take the GPU run's verdict without also running the test cases in the CPU emulator's "
                "checks (bounds, races, uninitialised reads, host compute, asynchronous returns; docs/trust.md)");
  sub->add_option("--sanitizer", sanitizer,
                  "on a GPU, compute-sanitizer (memcheck, racecheck, initcheck, synccheck) on the test cases: auto "
                  "(where the emulator cannot run the candidate), always, or off")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "off"}));
  sub->add_flag("--keep-work", keep_work, "keep the run folders for debugging (candidates: under $TMPDIR/regrapht-sandbox-<uid>/; the reference: under the cache)");
}

Result<VerifyOptions> VerifyFlags::ToOptions() const {
  VerifyOptions o;
  RG_ASSIGN_OR_RETURN(o.archs, verify::ParseArchs(arch));
  o.sandbox = unsafe_no_sandbox ? VerifyOptions::Sandbox::kNone : VerifyOptions::Sandbox::kBubblewrap;
  o.cache_dir = cache_dir;
  o.timing = !no_timing;
  o.max_timing_seconds = max_timing_seconds;
  o.reference_max_timing_seconds = max_timing_seconds * 1.5;
  o.run_mode = cpu_candidate ? VerifyOptions::RunMode::kCpuCandidate
                             : (emulate ? VerifyOptions::RunMode::kEmulate : VerifyOptions::RunMode::kGpu);
  if (emulate) o.timing = false;
  if (emulate_tests_only && !emulate) return Status::InvalidArgument("--emulate-tests-only needs --emulate");
  o.emulate_timing_size = !emulate_tests_only;
  o.emulate_max_bytes = emulate_max_mib * (int64_t{1} << 20);
  o.emulate_max_work = emulate_max_work_m * 1000 * 1000;
  if (emulate && cpu_candidate) return Status::InvalidArgument("--emulate and --cpu-candidate exclude each other");
  o.keep_work = keep_work;
  o.compile_timeout_s = compile_timeout_s;
  o.gpu_lock_timeout_s = gpu_lock_timeout_s;
  o.kernel_form = form == "kernel";
  o.gpu_emulator_check = !no_emulator_check;
  o.gpu_sanitizer = sanitizer == "always" ? VerifyOptions::Sanitizer::kAlways
                    : sanitizer == "off"  ? VerifyOptions::Sanitizer::kOff
                                          : VerifyOptions::Sanitizer::kFallback;
  o.nvcc_flags.clear();
  for (const auto& f : Split(nvcc_flags, ' ')) {
    if (!f.empty()) o.nvcc_flags.push_back(f);
  }
  o.reference_flags.clear();
  for (const auto& f : Split(reference_flags, ' ')) {
    if (!f.empty()) o.reference_flags.push_back(f);
  }
  return o;
}

int ExitFor(Verdict v) {
  if (v == Verdict::kCorrect) return kExitOk;
  if (Unverified(v)) return kExitUnverified;
  return kExitCandidateFailed;
}

std::string FormatResult(const VerifyResult& r) {
  std::string upper(VerdictName(r.verdict));
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string s = fmt::format("verdict    {}: {}\n", upper, r.detail);
  for (const auto& f : r.findings) s += fmt::format("finding    {}\n", f);
  if (r.verdict == Verdict::kCompiledOnly && r.detail.find("no GPU here") != std::string::npos) {
    s += "hint       --emulate runs the kernels in regrapht's CPU emulator: correctness (not speed) without a GPU\n";
  }
  if (r.candidate_timing && r.reference_timing) {
    const auto& c = *r.candidate_timing;
    const auto& ref = *r.reference_timing;
    s += fmt::format("candidate  median {:.4f} ms  [p25 {:.4f}, p75 {:.4f}]  {} reps (transfers included)\n",
                     c.median_ms, c.p25_ms, c.p75_ms, c.reps);
    s += fmt::format("reference  median {:.4f} ms  [p25 {:.4f}, p75 {:.4f}]  {} reps\n", ref.median_ms,
                     ref.p25_ms, ref.p75_ms, ref.reps);
    if (r.kernel_timing) {
      const auto& k = *r.kernel_timing;
      s += fmt::format("kernel     median {:.4f} ms  [p25 {:.4f}, p75 {:.4f}]  {} reps ({})\n", k.median_ms,
                       k.p25_ms, k.p75_ms, k.reps,
                       r.form == "kernel" ? "CUDA events, launch only" : "CUPTI, kernels inside the call");
    }
    s += fmt::format("speedup    {:.2f}x ({})   reward {:.3f}\n", r.speedup,
                     r.form == "kernel" ? "kernel only" : "whole call", Reward(r));
    if (r.form != "kernel") {
      s += r.kernel_timing ? fmt::format("speedup    {:.2f}x (kernel only, CUPTI)\n", r.kernel_speedup)
                           : std::string("speedup    - (kernel only: not measured, no CUPTI here)\n");
    }
  }
  for (const auto& k : r.kernels) {
    s += fmt::format("kernel     {} [{}]: {} registers, {} B shared, {} B stack, spills {}/{} B\n", k.kernel,
                     k.arch, k.registers, k.shared_bytes, k.stack_bytes, k.spill_store_bytes,
                     k.spill_load_bytes);
  }
  if (r.ok()) s += fmt::format("evidence   {}\n", EvidenceLevel(r));
  const Environment& e = r.env;
  if (!e.gpu_name.empty()) {
    s += fmt::format("gpu        {} (cc {}, {} SMs), driver {}, runtime {}\n", e.gpu_name, e.gpu_cc, e.gpu_sms,
                     e.driver_version, e.cuda_runtime_version);
  }
  s += fmt::format("toolchain  nvcc {} ({}), {}\n", e.cuda_toolkit_version, e.archs, e.host_compiler);
  s += fmt::format("host       {}\n", e.host_cpu);
  if (!e.sandbox.empty()) s += fmt::format("sandbox    {}\n", e.sandbox);
  s += fmt::format("source     {}{}\n", r.candidate_hash, r.compile_cached ? " (build cached)" : "");
  if (!r.log.empty() && !r.ok()) s += "---- log ----\n" + TruncateMiddle(r.log, 3000) + "\n";
  return s;
}

}  // namespace regrapht::cli
