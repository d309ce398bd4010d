// regrapht verify / regrapht problem check
#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/parallel.h"
#include "verify/build/kernel_form.h"
#include "verify/result_json.h"
#include "verify/runner_options.h"

namespace regrapht::cli {

Status RequireSandbox(const VerifyOptions& o) { return CheckSandboxAvailable(o); }

std::function<int()> VerifyCommand(CLI::App* sub) {
  struct State {
    std::string problem, candidate;
    bool json = false, reference_only = false;
    VerifyFlags flags;
  };
  auto st = std::make_shared<State>();
  sub->add_option("--problem", st->problem, "problem folder (problem.json, reference.cpp, ...)")
      ->required();
  sub->add_option("--candidate", st->candidate, "CUDA source to verify (.cu)");
  sub->add_flag(
      "--reference-only", st->reference_only,
      "check the reference alone: it compiles, runs, is deterministic and not degenerate");
  AddJsonFlag(sub, &st->json, "the result");
  st->flags.Add(sub);
  sub->footer(
      "Exit status: 0 correct, 3 compiled only (no GPU: nothing verified), 4 the candidate failed, "
      "1 error.");
  return [st]() -> int {
    auto opts = st->flags.ToOptions();
    if (!opts.ok()) return Fail(opts.status());
    if (Status sb = RequireSandbox(*opts); !sb.ok()) return Fail(sb);
    auto problem = LoadProblem(st->problem);
    if (!problem.ok()) return Fail(problem.status());
    std::unique_ptr<Verifier> verifier = NewVerifier(*opts);
    if (st->reference_only) {
      auto t = verifier->CheckReference(*problem);
      if (!t.ok()) return Fail(t.status());
      if (st->json) {
        OrderedJson j = {{"problem", problem->spec.name},
                         {"reference", "ok"},
                         {"signature", problem->spec.Signature()}};
        if (t->reps > 0) j["timing"] = TimingToJson(*t, true);
        EmitJson(j);
      } else {
        std::printf(
            "reference  %s: ok (compiles, runs, deterministic, writes every output, not "
            "degenerate)\n",
            problem->spec.Signature().c_str());
        if (t->reps > 0) {
          std::printf(
              "timing     median %.4f ms [p25 %.4f, p75 %.4f] over %d reps at the timing size\n",
              t->median_ms, t->p25_ms, t->p75_ms, t->reps);
        }
      }
      return kExitOk;
    }
    if (st->candidate.empty()) {
      std::fprintf(stderr, "regrapht verify: give --candidate FILE.cu (or --reference-only)\n");
      return kExitUsage;
    }
    auto source = ReadInputFile(st->candidate);
    if (!source.ok()) return Fail(source.status());
    auto r = verifier->Verify(*problem, *source);
    if (!r.ok()) return Fail(r.status());
    if (st->json) {
      OrderedJson j = VerifyResultToJson(*r);
      j["problem"] = problem->spec.name;
      j["candidate"] = st->candidate;
      EmitJson(j);
    } else {
      std::string sig = r->form == "kernel" && problem->spec.kernel
                            ? verify::KernelSignature(problem->spec)
                            : problem->spec.Signature();
      std::printf("problem    %s: %s\n", problem->spec.name.c_str(), sig.c_str());
      std::printf("candidate  %s\n", st->candidate.c_str());
      std::fputs(FormatResult(*r).c_str(), stdout);
    }
    return ExitFor(r->verdict);
  };
}

namespace {

// Checks one expert solution (solution.cu with `verifier`, or kernel.cu with
// a kernel-form one): correct in the emulator under --emulate, else it must
// compile. Appends to `note`; false (with why in `failure`) when it failed.
Result<bool> CheckSolution(Verifier& verifier, const Problem& p, const std::string& source,
                           const std::string& file, const VerifyOptions& opts,
                           const VerifyFlags& flags, bool device_only, std::string* note,
                           std::string* failure) {
  if (opts.emulated()) {
    // The expert solution must be correct in the CPU emulator; one the
    // emulator cannot run (inline PTX, ...) is reported, not failed.
    RG_ASSIGN_OR_RETURN(VerifyResult r, verifier.Verify(p, source));
    if (r.verdict == Verdict::kCorrect) {
      *note += "; " + file + " compiles for " + flags.arch + ", correct in the CPU emulator";
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
  *note += "; " + file + " compiles for " + flags.arch + (device_only ? " (device code)" : "");
  return true;
}

// One folder's check: its line's text, or the reason it failed; a harness
// error (not the folder's fault) stops the whole check.
struct CheckOutcome {
  bool ok = false;
  std::string text;
  Status fatal;
};

// What the check of every folder shares (CheckProblemDirs).
struct FolderCheck {
  bool no_build, device_only;
  const VerifyFlags& flags;
  const VerifyOptions &opts, &dropin_opts, &kernel_opts;
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
    if (p->solution_source && !(opts.kernel_form && p->kernel_solution_source)) {
      auto r = CheckSolution(*verifier, *p, *p->solution_source, "solution.cu", dropin_opts, flags, device_only,
                             &note, &failure);
      if (!r.ok()) return {false, "", r.status()};
      ok = *r;
    }
    if (ok && p->kernel_solution_source) {
      auto r = CheckSolution(*kernel_verifier, *p, *p->kernel_solution_source, "kernel.cu", kernel_opts, flags,
                             device_only, &note, &failure);
      if (!r.ok()) return {false, "", r.status()};
      ok = *r;
    }
    if (!ok) return {false, failure, Status::Ok()};
    return {true, note, Status::Ok()};
  }
};

}  // namespace

void AddCheckJobsOption(CLI::App* sub, int* jobs) {
  AddNumber(sub, "--jobs", jobs, {0, 256},
            "folders checked at once when nothing is timed (--no-timing, --device-only, "
            "--emulate-tests-only); 0: one per core. A timed check runs one at a time");
}

int CheckProblemDirs(const std::vector<std::string>& dirs, bool no_build, const VerifyFlags& flags,
                     bool device_only, OrderedJson* json, int jobs_wanted) {
  auto opts = flags.ToOptions();
  if (!opts.ok()) return Fail(opts.status());
  // The reference must run at the timing size (calibrated: >= 100 ms,
  // docs/bench.md); one warm-up and two repetitions say it does and how long
  // it takes, without the full timing protocol's seconds per problem.
  opts->reference_warmup = 1;
  opts->reference_min_reps = 2;
  opts->reference_max_reps = 2;
  // The compile gate (--device-only: nothing of the candidate runs) checks
  // the reference on the test cases only: the calibrated timing input takes
  // seconds to generate per problem and is run when timing.
  if (device_only) opts->timing = false;
  VerifyOptions dropin_opts = *opts, kernel_opts = *opts;
  dropin_opts.kernel_form = false;
  kernel_opts.kernel_form = true;
  std::unique_ptr<Verifier> verifier = NewVerifier(dropin_opts);
  std::unique_ptr<Verifier> kernel_verifier = NewVerifier(kernel_opts);
  const FolderCheck check{no_build, device_only, flags, *opts, dropin_opts, kernel_opts, verifier.get(),
                          kernel_verifier.get()};
  auto check_one = [&check](const std::string& dir) { return check.Run(dir); };
  // Folders are checked `jobs` at a time when nothing is timed (a timing
  // must have the machine to itself); lines come out in folder order.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int jobs = opts->timing ? 1 : (jobs_wanted > 0 ? jobs_wanted : cores);
  // A harness error stops further folders from starting.
  std::atomic<bool> stop{false};
  OrderedParallelMap<CheckOutcome> pool(
      dirs.size(), jobs,
      [&](size_t i) {
        CheckOutcome o = check_one(dirs[i]);
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
    if (o->ok) {
      std::printf("ok    %s  (%s)\n", dirs[i].c_str(), o->text.c_str());
      if (json) json->push_back({{"dir", dirs[i]}, {"ok", true}, {"note", o->text}});
    } else {
      std::printf("FAIL  %s\n      %s\n", dirs[i].c_str(), o->text.c_str());
      if (json) json->push_back({{"dir", dirs[i]}, {"ok", false}, {"error", o->text}});
      ++failed;
    }
    std::fflush(stdout);
  }
  pool.Join();
  if (!fatal.ok()) return Fail(fatal);
  std::printf("%zu problem(s), %d failed\n", dirs.size(), failed);
  return failed;
}

std::function<int()> ProblemCommand(CLI::App* sub) {
  sub->require_subcommand(1);
  CLI::App* check =
      sub->add_subcommand("check", "Validate problem folders: spec, reference, expert solution");
  struct State {
    std::vector<std::string> dirs;
    bool no_build = false, json = false;
    int jobs = 0;
    VerifyFlags flags;
  };
  auto st = std::make_shared<State>();
  check->add_option("dirs", st->dirs, "problem folders")->required();
  check->add_flag("--no-build", st->no_build, "only parse and validate the files");
  AddJsonFlag(check, &st->json,
              "each folder's result ({\"problems\": [{dir, ok, note|error}], \"failed\": N})");
  AddCheckJobsOption(check, &st->jobs);
  st->flags.Add(check, "sm_80,sm_90");
  return [st, check]() -> int {
    if (!check->parsed()) return kExitUsage;
    OrderedJson problems = OrderedJson::array();
    int failed = CheckProblemDirs(st->dirs, st->no_build, st->flags, false,
                                  st->json ? &problems : nullptr, st->jobs);
    if (st->json) EmitJson(OrderedJson{{"problems", problems}, {"failed", failed}});
    return failed ? kExitError : kExitOk;
  };
}

}  // namespace regrapht::cli
