// regrapht optimize: the main job. A sequential C++ function in, the best
// verified CUDA drop-in the small model finds out.
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/search_flags.h"
#include "cli/verify_flags.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "search/attempt_json.h"
#include "verify/heldout.h"
#include "verify/infer.h"
#include "verify/result_json.h"

namespace regrapht::cli {
namespace {

struct OptimizeState {
  std::string file, function, spec, output, report;
  SearchFlags search;
  VerifyFlags verify;
  bool quiet = false;
};

fs::path Sibling(const fs::path& out, const std::string& suffix) {
  fs::path p = out;
  p.replace_extension();
  p += suffix;
  return p;
}

// Writes the best candidate (when there is one), prints the result and
// returns the exit status the candidates give.
// Writes the answer and says what it is. `heldout`: the answer re-verified on
// held-out inputs (verify/heldout.h), whose numbers are the ones printed.
int Conclude(const SearchOutcome& o, const std::optional<VerifyResult>& heldout, const fs::path& out,
             const fs::path& pdir, const fs::path& report_path) {
  const Attempt* best = o.best_attempt();
  if (!best) {
    std::printf("\nresult     no candidate was correct (%s); nothing written. Report: %s\n",
                o.best_rule.c_str(), report_path.string().c_str());
    return kExitCandidateFailed;
  }
  Status ws = WriteFileAtomic(out, best->code);
  if (!ws.ok()) return Fail(ws);
  if (heldout && !heldout->ok()) {
    std::printf("\nresult     %s: correct on the search's tests but NOT on held-out inputs (%s: %s); it is "
                "written for inspection, not as an answer\nreport     %s\n",
                out.string().c_str(), std::string(VerdictName(heldout->verdict)).c_str(), heldout->detail.c_str(),
                report_path.string().c_str());
    return kExitCandidateFailed;
  }
  const VerifyResult& final_result = heldout ? *heldout : best->result;
  const double speedup = heldout ? heldout->speedup : best->speedup;
  const std::string heldout_note =
      heldout ? fmt::format(", held-out inputs (the search measured {:.2f}x)", best->speedup) : std::string();
  if (o.best_verified && !final_result.candidate_timing) {
    bool emulated = final_result.emulated;
    std::printf("\nresult     %s: correct on every test%s%s; its speed was NOT measured (%s).\n"
                "           Time it on a GPU with: regrapht verify --problem %s --candidate %s\nreport     %s\n",
                out.string().c_str(), heldout ? " and on held-out inputs" : "", emulated ? " in the CPU emulator" : "",
                emulated ? "no GPU: --emulate checks correctness only" : "--no-timing", pdir.string().c_str(),
                out.string().c_str(), report_path.string().c_str());
    return kExitUnverified;
  }
  if (o.best_verified) {
    if (speedup >= 1.0) {
      std::printf("\nresult     %s: correct on every test, %.2fx faster than the sequential code "
                  "(median, transfers included%s) on %s\nreport     %s\n",
                  out.string().c_str(), speedup, heldout_note.c_str(), final_result.env.gpu_name.c_str(),
                  report_path.string().c_str());
      return kExitOk;
    }
    std::printf("\nresult     %s: correct on every test but SLOWER than the sequential code (%.2fx, median, "
                "transfers included%s) on %s; no faster candidate was found\nreport     %s\n",
                out.string().c_str(), speedup, heldout_note.c_str(), final_result.env.gpu_name.c_str(),
                report_path.string().c_str());
    return kExitCandidateFailed;
  }
  std::printf("\nresult     %s: NOT VERIFIED. There is no GPU here, so no candidate was run: this is %s.\n"
              "           Verify it on a GPU with: regrapht verify --problem %s --candidate %s\n"
              "           (or rerun with --emulate to check correctness, not speed, in the CPU emulator)\n"
              "report     %s\n",
              out.string().c_str(), o.best_rule.c_str(), pdir.string().c_str(), out.string().c_str(),
              report_path.string().c_str());
  return kExitUnverified;
}

int RunOptimize(const OptimizeState& s) {
  auto source = ReadInputFile(s.file);
  if (!source.ok()) return Fail(source.status());
  fs::path out = s.output.empty() ? Sibling(s.file, ".regrapht.cu") : fs::path(s.output);
  // 1. The problem: the user's spec, or one inferred from the signature.
  std::string spec_text;
  if (!s.spec.empty()) {
    auto t = ReadInputFile(s.spec);
    if (!t.ok()) return Fail(t.status());
    spec_text = *t;
    std::printf("spec       %s\n", s.spec.c_str());
  } else {
    auto inferred = verify::InferSpec(*source, s.function);
    if (!inferred.ok()) {
      return Fail(inferred.status().WithContext(s.file + ": cannot infer a spec for '" + s.function +
                                                 "'; write one (docs/problem-format.md) and pass --spec"));
    }
    std::printf("spec       inferred from the signature (check it; pass --spec FILE to override):\n");
    for (const auto& n : inferred->notes) std::printf("             %s\n", n.c_str());
    fs::path spec_out = Sibling(out, ".spec.json");
    Status w = WriteFile(spec_out, inferred->spec_json);
    if (!w.ok()) return Fail(w);
    if (!inferred->complete) {
      std::fprintf(stderr,
                   "regrapht: cannot infer a complete spec: %s.\nA template is in %s: fix the lengths and "
                   "sizes, then run again with --spec %s\n",
                   inferred->problem.c_str(), spec_out.string().c_str(), spec_out.string().c_str());
      return kExitError;
    }
    std::printf("             (written to %s)\n", spec_out.string().c_str());
    spec_text = inferred->spec_json;
  }
  fs::path pdir = Sibling(out, ".problem");
  Status st = WriteFile(pdir / "problem.json", spec_text);
  if (st.ok()) st = WriteFile(pdir / "reference.cpp", *source);
  if (st.ok()) st = WriteFile(pdir / "description.md", "Optimize `" + s.function + "` from " + s.file + ".\n");
  if (!st.ok()) return Fail(st);
  auto problem = LoadProblem(pdir);
  if (!problem.ok()) return Fail(problem.status());
  std::printf("function   %s\n", problem->spec.Signature().c_str());

  // 2. The harness: check the reference before spending model time.
  auto vopts = s.verify.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  if (Status sb = RequireSandbox(*vopts); !sb.ok()) return Fail(sb);
  InstallInterruptHandler();
  vopts->cancel = InterruptFlag();  // and a wait for the GPU lock
  SubprocessOptions sp = RunnerOptions(*vopts);
  sp.cancel = InterruptFlag();  // Ctrl-C kills the compile or run in progress
  auto runner = NewSubprocessRunner(sp);
  Verifier verifier(*vopts, runner.get());
  VerifyOptions quick = *vopts;
  quick.timing = false;
  Verifier checker(quick, runner.get());
  auto ref = checker.CheckReference(*problem);
  if (InterruptFlag()->load()) {
    std::fprintf(stderr, "regrapht: interrupted (%s) while checking the reference; no search ran, nothing written\n",
                 InterruptName().c_str());
    return InterruptExitCode();
  }
  if (!ref.ok()) return Fail(ref.status());
  std::printf("reference  builds, runs, deterministic, not degenerate\n");

  // 3. Graph, model, prompts.
  auto env = MakeSearchEnv(s.search);
  if (!env.ok()) return Fail(env.status());
  if ((*env)->graph) {
    std::printf("graph      %s (%zu techniques, %zu transitions, %zu examples)\n", (*env)->graph_path.c_str(),
                (*env)->graph->num_nodes() - 1, (*env)->graph->num_edges(), (*env)->graph->num_examples());
  }
  std::printf("model      %s\n", (*env)->llm->ModelId().c_str());
  std::printf("method     %s, budget %d generations, seed %llu\n", s.search.method.c_str(), s.search.budget,
              static_cast<unsigned long long>(s.search.seed));

  // 4. Search.
  SearchOptions so = s.search.ToOptions();
  so.arch = Join(vopts->archs, ", ");  // the prompt names what candidates are compiled for
  auto reasoner = NewReasoner(s.search.method, so);
  if (!reasoner.ok()) return Fail(reasoner.status());
  auto evaluator = NewVerifierEvaluator(&verifier);
  SearchTask task;
  task.problem = &*problem;
  task.graph = (*env)->graph.get();
  task.examples = (*env)->index.get();
  SearchContext ctx;
  ctx.llm = (*env)->llm.get();
  ctx.evaluator = evaluator.get();
  ctx.prompts = &(*env)->prompts;
  ctx.cancel = InterruptFlag();
  int budget = s.search.budget;
  bool quiet = s.quiet;
  ctx.on_event = [budget, quiet](const SearchEvent& e) {
    if (quiet || e.verdict.empty() || e.action == "select") return;
    std::fprintf(stderr, "[gen %3d/%d] iter %-3d %-30s -> %-16s best %s\n", e.generation, budget, e.iteration,
                 e.action.substr(0, 30).c_str(), e.verdict.c_str(),
                 e.best_speedup > 0 ? fmt::format("{:.2f}x", e.best_speedup).c_str() : "-");
  };
  auto outcome = (*reasoner)->Run(task, ctx);
  if (!outcome.ok()) {
    if (InterruptFlag()->load()) {
      std::fprintf(stderr, "regrapht: %s\nregrapht: interrupted (%s)\n", outcome.status().ToString().c_str(),
                   InterruptName().c_str());
      return InterruptExitCode();
    }
    return Fail(outcome.status());
  }
  // How the run ended decides the exit status before the candidates do.
  int early_exit = -1;
  std::string early_note;
  if (!outcome->error.ok()) {
    early_exit = kExitError;
    early_note = "the harness failed (" + outcome->error.ToString() +
                 "): the search stopped; the result above is what it found until then";
  } else if (outcome->interrupted) {
    early_exit = InterruptExitCode();
    early_note = "INTERRUPTED (" + InterruptName() + ") after " + std::to_string(outcome->generations) +
                 " generations: the result above is what the search found until then";
  } else if (outcome->endpoint_failed()) {
    early_exit = kExitEndpointFailed;
    early_note = "the model endpoint failed (" + std::to_string(outcome->endpoint_failures) + " of " +
                 std::to_string(outcome->generations) + " requests; " + outcome->stop_reason +
                 "): the search stopped early; the result above is what it found until then";
  }

  // 5. The answer, re-verified and re-timed on held-out inputs: the search
  // chose it by its own measurements (verify/heldout.h).
  std::optional<VerifyResult> heldout;
  // Not after an interrupt or a harness failure: the user asked to stop, or
  // the harness cannot run.
  const bool can_rerun = !outcome->interrupted && outcome->error.ok();
  if (const Attempt* best = outcome->best_attempt();
      best && can_rerun && s.search.heldout && NeedsHeldOutRun(best->result)) {
    if (!s.quiet) std::fprintf(stderr, "held-out   re-verifying the answer on new inputs and re-timing it\n");
    auto held = VerifyHeldOut(&verifier, *problem, best->code, HeldOutSalt(s.search.seed));
    if (!held.ok()) return Fail(held.status().WithContext("held-out verification"));
    heldout = std::move(*held);
  }

  // 6. Results: the winning path, the file, the report.
  std::printf("\nstopped    %s after %d generations, %d verifications, %.1f s\n", outcome->stop_reason.c_str(),
              outcome->generations, outcome->verifications, outcome->wall_s);
  std::printf("\n| step | technique / action | verdict | speedup |\n|---|---|---|---|\n");
  for (size_t i = 0; i < outcome->best_path.size(); ++i) {
    const Attempt& a = outcome->attempts[outcome->best_path[i]];
    std::printf("| %zu | %s | %s | %s |\n", i + 1, a.action.c_str(), std::string(VerdictName(a.verdict)).c_str(),
                a.verdict == Verdict::kCorrect && a.speedup > 0 ? fmt::format("{:.2f}x", a.speedup).c_str()
                : a.verdict == Verdict::kCorrect                ? "untimed"
                                                                : "-");
  }
  OrderedJson report;
  report["file"] = s.file;
  report["function"] = s.function;
  report["signature"] = problem->spec.Signature();
  report["method"] = s.search.method;
  report["model"] = (*env)->llm->ModelId();
  report["config"] = OrderedJson::parse(s.search.ConfigJson((*env)->llm->ModelId()));
  report["stop_reason"] = outcome->stop_reason;
  report["generations"] = outcome->generations;
  report["verifications"] = outcome->verifications;
  report["tokens_prompt"] = outcome->tokens_prompt;
  report["tokens_generated"] = outcome->tokens_generated;
  report["interrupted"] = outcome->interrupted;
  if (outcome->interrupted) report["signal"] = InterruptName();
  report["endpoint_stopped"] = outcome->endpoint_stopped;
  report["endpoint_failures"] = outcome->endpoint_failures;
  report["endpoint_errors"] = outcome->endpoint_errors;
  report["exit_status_reason"] = early_note.empty() ? "complete" : early_note;
  if (!outcome->error.ok()) report["error"] = outcome->error.ToString();
  report["best_rule"] = outcome->best_rule;
  report["best_verified"] = outcome->best_verified;
  {
    const Attempt* best_attempt = outcome->best_attempt();
    report["best_evidence"] = best_attempt ? std::string(EvidenceLevel(best_attempt->result)) : std::string("none");
  }
  report["best_path"] = outcome->best_path;
  report["attempts"] = search::AttemptsToJson(outcome->attempts, search::AttemptDetail::kFull);
  if (const Attempt* best = outcome->best_attempt()) report["best_result"] = VerifyResultToJson(best->result);
  if (heldout) report["heldout_result"] = VerifyResultToJson(*heldout);
  report["tree"] = OrderedJson::parse(outcome->tree_json.empty() ? "{}" : outcome->tree_json);
  report["source"] = *source;  // the sequential code: first attempts are diffed against it
  fs::path report_path = s.report.empty() ? Sibling(out, ".report.json") : fs::path(s.report);
  Status rs = WriteFileAtomic(report_path, DumpJson(report));
  if (!rs.ok()) return Fail(rs);
  // The same search as a page (tree show --format html), beside the report.
  fs::path page_path = fs::path(report_path).replace_extension(".html");
  auto page = RenderSearchReport(report_path, "html");
  Status ps = page.ok() ? WriteFileAtomic(page_path, *page) : page.status();
  if (ps.ok()) {
    std::printf("page       %s\n", page_path.string().c_str());
  } else {
    std::fprintf(stderr, "regrapht: warning: no HTML page of the search: %s\n", ps.ToString().c_str());
  }

  int rc = Conclude(*outcome, heldout, out, pdir, report_path);
  if (early_exit >= 0) {
    std::printf("\nSTOPPED    %s\n", early_note.c_str());
    if (!outcome->error.ok()) Fail(outcome->error);
    return rc == kExitError ? rc : early_exit;
  }
  return rc;
}

}  // namespace

std::function<int()> OptimizeCommand(CLI::App* sub) {
  auto s = std::make_shared<OptimizeState>();
  sub->add_option("file", s->file, "C++ source holding the sequential function")->required();
  sub->add_option("--function", s->function, "the function to optimize")->required();
  sub->add_option("--spec", s->spec, "problem spec (docs/problem-format.md); default: inferred from the signature");
  sub->add_option("-o,--output", s->output, "where to write the best CUDA (default: FILE.regrapht.cu)");
  sub->add_option("--report", s->report, "JSON report with every attempt and the search tree (default: OUT.report.json)");
  sub->add_flag("-q,--quiet", s->quiet, "no progress lines");
  s->search.Add(sub);
  s->verify.Add(sub);
  sub->footer("Exit status: 0 a verified faster drop-in was written, 3 no GPU or no timing (the written file is NOT "
              "verified on a GPU; with --emulate it passed every test in the CPU emulator, speed unknown), "
              "4 no correct candidate faster than the sequential code (a correct but slower one is still written), "
              "5 the model endpoint kept failing and the search stopped early (--max-endpoint-failures; report and "
              "best so far written), 130/143 stopped by SIGINT/SIGTERM (report and best so far written), "
              "1 error, 2 usage.");
  return [s]() { return RunOptimize(*s); };
}

}  // namespace regrapht::cli
