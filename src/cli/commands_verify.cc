// regrapht verify / regrapht problem check
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "regrapht/files.h"
#include "regrapht/problem.h"
#include "regrapht/verify.h"

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
        if (t->reps > 0) j["timing"] = OrderedJson::parse(TimingJson(*t, true));
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
      OrderedJson j = OrderedJson::parse(VerifyResultJson(*r));
      j["problem"] = problem->spec.name;
      j["candidate"] = st->candidate;
      EmitJson(j);
    } else {
      std::string sig = CandidateSignature(problem->spec, r->form == "kernel");
      std::printf("problem    %s: %s\n", problem->spec.name.c_str(), sig.c_str());
      std::printf("candidate  %s\n", st->candidate.c_str());
      std::fputs(FormatResult(*r).c_str(), stdout);
    }
    return ExitFor(r->verdict);
  };
}

void AddCheckJobsOption(CLI::App* sub, int* jobs) {
  AddNumber(sub, "--jobs", jobs, {0, 256},
            "folders checked at once when nothing is timed (--no-timing, --device-only, "
            "--emulate-tests-only); 0: one per core. A timed check runs one at a time");
}

int CheckProblemDirs(const std::vector<std::string>& dirs, bool no_build, const VerifyFlags& flags,
                     bool device_only, OrderedJson* json, int jobs) {
  auto opts = flags.ToOptions();
  if (!opts.ok()) return Fail(opts.status());
  ProblemCheckOptions check;
  check.verify = *opts;
  check.no_build = no_build;
  check.device_only = device_only;
  check.jobs = jobs;
  Result<int> failed = CheckProblems(dirs, check, [json](const ProblemCheckResult& r) {
    if (r.ok) {
      std::printf("ok    %s  (%s)\n", r.dir.c_str(), r.note.c_str());
      if (json) json->push_back({{"dir", r.dir}, {"ok", true}, {"note", r.note}});
    } else {
      std::printf("FAIL  %s\n      %s\n", r.dir.c_str(), r.note.c_str());
      if (json) json->push_back({{"dir", r.dir}, {"ok", false}, {"error", r.note}});
    }
    std::fflush(stdout);
  });
  if (!failed.ok()) return Fail(failed.status());
  std::printf("%zu problem(s), %d failed\n", dirs.size(), *failed);
  return *failed;
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
