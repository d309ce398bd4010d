// CheckProblems (regrapht/verify.h): `problem check` and `suite check` over
// problem folders, folders in parallel when nothing is timed.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>

#include "core/parallel.h"
#include "core/strings.h"
#include "regrapht/verify.h"

namespace regrapht {
namespace {

// Checks one expert solution (solution.cu with `verifier`, or kernel.cu with
// a kernel-form one): correct in the emulator under kEmulate, else it must
// compile. Appends to `note`; false (with why in `failure`) when it failed.
Result<bool> CheckSolution(Verifier& verifier, const Problem& p, const std::string& source,
                           const std::string& file, const std::string& archs, bool device_only,
                           std::string* note, std::string* failure) {
  if (verifier.options().emulated()) {
    // The expert solution must be correct in the CPU emulator; one the
    // emulator cannot run (inline PTX, ...) is reported, not failed.
    RG_ASSIGN_OR_RETURN(VerifyResult r, verifier.Verify(p, source));
    if (r.verdict == Verdict::kCorrect) {
      *note += "; " + file + " compiles for " + archs + ", correct in the CPU emulator";
    } else if (Unverified(r.verdict)) {
      *note += "; " + file + " " + r.detail;
    } else {
      *failure =
          fmt::format("{} in the CPU emulator: {}: {}", file, VerdictName(r.verdict), r.detail);
      return false;
    }
    return true;
  }
  RG_ASSIGN_OR_RETURN(VerifyResult c, verifier.CompileOnly(p, source, device_only));
  if (c.verdict != Verdict::kCompiledOnly) {
    *failure = fmt::format("{}: {}: {}", file, VerdictName(c.verdict), c.detail);
    return false;
  }
  *note += "; " + file + " compiles for " + archs + (device_only ? " (device code)" : "");
  return true;
}

// One folder's check: its note, or the reason it failed; a harness error
// (not the folder's fault) stops the whole check.
struct CheckOutcome {
  bool ok = false;
  std::string text;
  Status fatal;
};

// What the check of every folder shares.
struct FolderCheck {
  bool no_build, device_only, kernel_form;
  std::string archs;  // "sm_80,sm_90", for the notes
  Verifier* verifier;
  Verifier* kernel_verifier;

  // The spec, the reference at the timing size, and the expert solutions.
  CheckOutcome Run(const std::string& dir) const {
    auto p = LoadProblem(dir);
    if (!p.ok()) return {false, p.status().message(), Status::Ok()};
    std::string note = "spec ok";
    if (no_build) return {true, note, Status::Ok()};
    auto t = verifier->CheckReference(*p);
    if (!t.ok()) return {false, t.status().message(), Status::Ok()};
    note += t->reps ? fmt::format("; reference ok ({:.3f} ms at the timing size)", t->median_ms)
                    : std::string("; reference ok (timing off)");
    bool ok = true;
    std::string failure;
    if (p->solution_source && !(kernel_form && p->kernel_solution_source)) {
      auto r = CheckSolution(*verifier, *p, *p->solution_source, "solution.cu", archs, device_only,
                             &note, &failure);
      if (!r.ok()) return {false, "", r.status()};
      ok = *r;
    }
    if (ok && p->kernel_solution_source) {
      auto r = CheckSolution(*kernel_verifier, *p, *p->kernel_solution_source, "kernel.cu", archs,
                             device_only, &note, &failure);
      if (!r.ok()) return {false, "", r.status()};
      ok = *r;
    }
    if (!ok) return {false, failure, Status::Ok()};
    return {true, note, Status::Ok()};
  }
};

}  // namespace

Result<int> CheckProblems(const std::vector<std::string>& dirs, const ProblemCheckOptions& options,
                          const std::function<void(const ProblemCheckResult&)>& on_result) {
  VerifyOptions opts = options.verify;
  // The reference must run at the timing size (calibrated: >= 100 ms,
  // docs/bench.md); one warm-up and two repetitions say it does and how long
  // it takes, without the full timing protocol's seconds per problem.
  opts.reference_warmup = 1;
  opts.reference_min_reps = 2;
  opts.reference_max_reps = 2;
  // The compile gate (device_only: nothing of the candidate runs) checks
  // the reference on the test cases only: the calibrated timing input takes
  // seconds to generate per problem and is run when timing.
  if (options.device_only) opts.timing = false;
  VerifyOptions dropin_opts = opts, kernel_opts = opts;
  dropin_opts.kernel_form = false;
  kernel_opts.kernel_form = true;
  std::unique_ptr<Verifier> verifier = NewVerifier(dropin_opts);
  std::unique_ptr<Verifier> kernel_verifier = NewVerifier(kernel_opts);
  const std::string archs = Join(opts.archs, ",");
  const FolderCheck check{options.no_build, options.device_only,  opts.kernel_form, archs,
                          verifier.get(),   kernel_verifier.get()};
  // Folders are checked `jobs` at a time when nothing is timed (a timing
  // must have the machine to itself); results come out in folder order.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int jobs = opts.timing ? 1 : (options.jobs > 0 ? options.jobs : cores);
  // A harness error stops further folders from starting.
  std::atomic<bool> stop{false};
  OrderedParallelMap<CheckOutcome> pool(
      dirs.size(), jobs,
      [&](size_t i) {
        CheckOutcome o = check.Run(dirs[i]);
        if (!o.fatal.ok()) stop = true;
        return o;
      },
      [&] { return stop.load(); });
  int failed = 0;
  Status fatal;
  for (size_t i = 0; i < dirs.size(); ++i) {
    std::optional<CheckOutcome> o = pool.Next();
    if (!o) break;  // a job stopped the check before this folder
    if (!o->fatal.ok()) {
      fatal = o->fatal;
      break;
    }
    if (!o->ok) ++failed;
    on_result({dirs[i], o->ok, o->text});
  }
  pool.Join();
  if (!fatal.ok()) return fatal;
  return failed;
}

}  // namespace regrapht
