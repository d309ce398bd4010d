// regrapht optimize: the main job. A sequential C++ function in, the best
// verified CUDA drop-in the small model finds out. The work is the library's
// regrapht::Optimize (include/regrapht/optimize.h); this file is its flags,
// its printing, the HTML page and the exit statuses.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/build_info.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/json_output.h"
#include "cli/optimize_live.h"
#include "cli/search_flags.h"
#include "cli/verify_flags.h"
#include "regrapht/files.h"
#include "regrapht/optimize.h"
#include "regrapht/optimize_progress.h"

namespace regrapht::cli {
namespace {

// "1 generation", "3 generations".
std::string PluralNoun(int n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

struct OptimizeState {
  std::string file, function, spec, output, report;
  SearchFlags search;
  VerifyFlags verify;
  bool quiet = false, json = false;
};

// --json: the answer in one document (the full record is the report file).
OrderedJson ReportSummary(const OptimizeReport& r, const std::string& page, int exit_status) {
  const SearchOutcome& o = r.search;
  const Attempt* best = r.best();
  OrderedJson path = OrderedJson::array();
  for (size_t i : o.best_path) {
    const Attempt& a = o.attempts[i];
    path.push_back({{"action", a.action},
                    {"by", a.by_rules ? "rules" : "model"},
                    {"verdict", std::string(VerdictName(a.verdict))},
                    {"speedup", a.verdict == Verdict::kCorrect && a.speedup > 0 ? OrderedJson(a.speedup)
                                                                                 : OrderedJson(nullptr)}});
  }
  const bool timed = best && r.final_result().verdict == Verdict::kCorrect && r.speedup() > 0 &&
                     (r.verdict == OptimizeVerdict::kFaster || r.verdict == OptimizeVerdict::kSlower);
  return {{"verdict", std::string(OptimizeVerdictName(r.verdict))},
          {"exit_status", exit_status},
          {"output", r.verdict == OptimizeVerdict::kNoneCorrect ? OrderedJson(nullptr) : OrderedJson(r.output.string())},
          {"report", r.report_path.string()},
          {"page", page.empty() ? OrderedJson(nullptr) : OrderedJson(page)},
          {"problem_dir", r.problem_dir.string()},
          {"speedup", timed ? OrderedJson(r.speedup()) : OrderedJson(nullptr)},
          {"heldout", r.heldout.has_value()},
          {"gpu", best && !r.final_result().env.gpu_name.empty() ? OrderedJson(r.final_result().env.gpu_name)
                                                                : OrderedJson(nullptr)},
          {"stop_reason", o.stop_reason},
          {"stopped_early", r.stop == OptimizeStop::kComplete ? OrderedJson(nullptr) : OrderedJson(r.stop_note)},
          {"generations", o.generations},
          {"verifications", o.verifications},
          {"wall_s", o.wall_s},
          {"timed_out", r.timed_out},
          {"best_path", path}};
}

// Says what the answer is and returns the exit status it gives.
int Conclude(const OptimizeReport& r, const std::filesystem::path& report_path) {
  const std::string out = r.output.string(), pdir = r.problem_dir.string(), report = report_path.string();
  const Attempt* best = r.best();
  const std::string heldout_note =
      r.heldout && best ? fmt::format(", held-out inputs (the search measured {:.2f}x)", best->speedup)
                        : std::string();
  switch (r.verdict) {
    case OptimizeVerdict::kNoneCorrect:
      std::printf("\nresult     no candidate was correct (%s); nothing written. Report: %s\n",
                  r.search.best_rule.c_str(), report.c_str());
      return kExitCandidateFailed;
    case OptimizeVerdict::kWrongOnHeldOut:
      std::printf("\nresult     %s: correct on the search's tests but NOT on held-out inputs (%s: %s); it is "
                  "written for inspection, not as an answer\nreport     %s\n",
                  out.c_str(), std::string(VerdictName(r.heldout->verdict)).c_str(), r.heldout->detail.c_str(),
                  report.c_str());
      return kExitCandidateFailed;
    case OptimizeVerdict::kUntimed: {
      bool emulated = r.final_result().emulated;
      std::printf("\nresult     %s: correct on every test%s%s; its speed was NOT measured (%s).\n"
                  "           Time it on a GPU with: regrapht verify --problem %s --candidate %s\nreport     %s\n",
                  out.c_str(), r.heldout ? " and on held-out inputs" : "", emulated ? " in the CPU emulator" : "",
                  emulated ? "no GPU: --emulate checks correctness only" : "--no-timing", pdir.c_str(), out.c_str(),
                  report.c_str());
      return kExitUnverified;
    }
    case OptimizeVerdict::kFaster:
      std::printf("\nresult     %s: correct on every test, %.2fx faster than the sequential code "
                  "(median, transfers included%s) on %s\nreport     %s\n",
                  out.c_str(), r.speedup(), heldout_note.c_str(), r.final_result().env.gpu_name.c_str(),
                  report.c_str());
      return kExitOk;
    case OptimizeVerdict::kSlower:
      std::printf("\nresult     %s: correct on every test but SLOWER than the sequential code (%.2fx, median, "
                  "transfers included%s) on %s; no faster candidate was found\nreport     %s\n",
                  out.c_str(), r.speedup(), heldout_note.c_str(), r.final_result().env.gpu_name.c_str(),
                  report.c_str());
      return kExitCandidateFailed;
    case OptimizeVerdict::kUnverified:
      break;
  }
  std::printf("\nresult     %s: NOT VERIFIED. There is no GPU here, so no candidate was run: this is %s.\n"
              "           Verify it on a GPU with: regrapht verify --problem %s --candidate %s\n"
              "           (or rerun with --emulate to check correctness, not speed, in the CPU emulator)\n"
              "report     %s\n",
              out.c_str(), r.search.best_rule.c_str(), pdir.c_str(), out.c_str(), report.c_str());
  return kExitUnverified;
}

// The model as a person reads it: the GGUF file and where it runs, or the
// endpoint's model and URL (the report keeps the backend's ModelId).
std::string ModelLabel(const SearchFlags& f, const std::string& model_id) {
  if (f.backend.UseHttp()) return model_id + " (an OpenAI-compatible endpoint)";
  auto path = f.backend.ModelPath();
  std::string where = f.backend.gpu_layers > 0 ? fmt::format("embedded llama.cpp, {} layers on the GPU",
                                                             f.backend.gpu_layers)
                                               : "embedded llama.cpp on the CPU";
  return (path.ok() ? path->string() : model_id) + " (" + where + ")";
}

// The search's size and where it came from ("auto" picks it by backend).
std::string BudgetLine(const SearchFlags& f) {
  if (f.method == "rules") return "method     rules: the rules' first step alone, no model\n";
  std::string line =
      fmt::format("method     {}, budget {} of up to {} tokens, seed {}, {}\n", f.method,
                  PluralNoun(f.budget, "generation"), f.max_tokens, f.seed,
                  f.max_seconds > 0 ? fmt::format("time limit {:.0f} s", f.max_seconds)
                                    : std::string("no time limit (--max-seconds)"));
  if (f.budget_auto || f.max_tokens_auto) {
    line += f.EmbeddedOnCpu()
                ? fmt::format("           (auto for the embedded model on a CPU: minutes on a quiet machine, the "
                              "estimate says how long here; the paper's search is --budget {} --max-tokens {})\n",
                              SearchFlags::kPaperBudget, SearchFlags::kPaperMaxTokens)
                : std::string("           (auto: the paper's budget)\n");
  }
  return line;
}

// Prints Optimize's progress as it happens, never in the middle of the
// status line.
void PrintEvent(const OptimizeState& s, OptimizeProgress& live, const OptimizeEvent& e) {
  switch (e.kind) {
    case OptimizeEvent::Kind::kSpec: {
      if (!e.spec_inferred) {
        live.Print(stdout, "spec       " + e.spec_path.string() + "\n");
        return;
      }
      std::string text = "spec       inferred from the signature (check it; pass --spec FILE to override):\n";
      for (const auto& n : e.notes) text += "             " + n + "\n";
      if (e.spec_complete) text += "             (written to " + e.spec_path.string() + ")\n";
      live.Print(stdout, text);
      return;
    }
    case OptimizeEvent::Kind::kProblem:
      live.Print(stdout, "function   " + e.signature + "\n");
      return;
    case OptimizeEvent::Kind::kReference:
      live.Print(stdout, "reference  builds, runs, deterministic, not degenerate\n");
      return;
    case OptimizeEvent::Kind::kSearchStart: {
      std::string text;
      if (e.graph) {
        text += fmt::format("graph      {} ({} techniques, {} transitions, {} examples)\n", e.graph_path,
                            e.graph->num_nodes() - 1, e.graph->num_edges(), e.graph->num_examples());
      }
      text += "model      " + ModelLabel(s.search, e.model) + "\n";
      live.Print(stdout, text);
      return;
    }
    case OptimizeEvent::Kind::kSearchStep: {
      const SearchEvent& st = e.step;
      if (s.quiet || st.verdict.empty() || st.action == "select") return;
      live.Print(stderr, OptimizeStepLine(st, s.search.budget) + "\n");
      return;
    }
    case OptimizeEvent::Kind::kGenerating:
    case OptimizeEvent::Kind::kChecking:
      return;  // the status line shows them
    case OptimizeEvent::Kind::kHeldOut:
      if (!s.quiet) live.Print(stderr, "held-out   re-verifying the answer on new inputs and re-timing it\n");
      return;
    case OptimizeEvent::Kind::kSeed: {
      if (!e.seed->written) {
        live.Print(stdout, "seed       none from the rules (" + e.seed->category + "): " + e.seed->reason + "\n");
        return;
      }
      std::string text = "seed       the rules wrote a " + e.seed->pattern + " version (thread_mapping, no model)" +
                         (s.search.method == "rules" ? "" : "; the search starts from it") + "\n";
      for (const auto& n : e.seed->notes) text += "             " + n + "\n";
      live.Print(stdout, text);
      return;
    }
  }
}

// The exit status a report gives (0 faster, 3 untimed or unverified, 4 none
// correct, slower or wrong on held-out inputs, 1 the harness failed, 5 the
// endpoint, 130/143 a signal): recorded in the report, returned by RunOptimize.
int ExitStatusOf(const OptimizeReport& r) {
  switch (r.stop) {
    case OptimizeStop::kHarnessFailed:
      return kExitError;
    case OptimizeStop::kInterrupted:
      return InterruptSignal() != 0 ? InterruptExitCode() : 130;
    case OptimizeStop::kEndpointFailed:
      return kExitEndpointFailed;
    case OptimizeStop::kComplete:
      break;
  }
  switch (r.verdict) {
    case OptimizeVerdict::kFaster:
      return kExitOk;
    case OptimizeVerdict::kUntimed:
    case OptimizeVerdict::kUnverified:
      return kExitUnverified;
    case OptimizeVerdict::kSlower:
    case OptimizeVerdict::kWrongOnHeldOut:
    case OptimizeVerdict::kNoneCorrect:
      return kExitCandidateFailed;
  }
  return kExitError;
}

// The stop line: why the search stopped and what it spent, said once.
std::string StopLine(const OptimizeReport& r) {
  const SearchOutcome& o = r.search;
  std::string times = fmt::format("search {:.1f} s, run {:.1f} s", o.wall_s, r.wall_s);
  if (o.stop_reason.starts_with("budget: ") &&
      (o.stop_reason.ends_with(" generations") || o.stop_reason.ends_with(" generation"))) {
    return fmt::format("stopped    the budget of {} is spent ({}; {})", o.stop_reason.substr(8),
                       PluralNoun(o.verifications, "verification"), times);
  }
  return fmt::format("stopped    {} after {}, {} ({})", o.stop_reason,
                     PluralNoun(o.generations, "generation"),
                     PluralNoun(o.verifications, "verification"), times);
}

// What the caches served, when they served anything.
std::string CacheLine(const OptimizeReport& r) {
  if (r.replies_cached == 0 && r.builds_cached == 0) return "";
  std::string line = "cache      ";
  if (r.replies_cached > 0) {
    line += fmt::format("{} of {} replies from the response cache (--no-cache asks the model again)", r.replies_cached,
                        r.replies);
  }
  if (r.builds_cached > 0) {
    line += fmt::format("{}{} of {} builds from the build cache", r.replies_cached > 0 ? "; " : "", r.builds_cached,
                        r.builds);
  }
  return line + "\n";
}

// A run that ended with a Status: says why; returns the exit status.
int FailedRun(const Status& status, bool incomplete_spec) {
  if (incomplete_spec) {  // the template is written: say how to go on
    std::fprintf(stderr, "regrapht: %s\n", status.message().c_str());
    return kExitError;
  }
  if (InterruptFlag()->load()) {
    if (status.code() == Status::Code::kCancelled) {  // while checking the reference
      std::fprintf(stderr, "regrapht: %s\n", status.message().c_str());
    } else {
      std::fprintf(stderr, "regrapht: %s\nregrapht: interrupted (%s)\n", status.ToString().c_str(),
                   InterruptName().c_str());
    }
    return InterruptExitCode();
  }
  return Fail(status);
}

// The winning path as a Markdown table, or one line when there is none.
void PrintPath(const SearchOutcome& o) {
  if (o.best_path.empty()) {
    std::printf("path       none: no attempt compiled and passed\n");
    return;
  }
  std::printf("\n| step | technique / action | by | verdict | speedup |\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < o.best_path.size(); ++i) {
    const Attempt& a = o.attempts[o.best_path[i]];
    std::printf("| %zu | %s | %s | %s | %s |\n", i + 1, a.action.c_str(), a.by_rules ? "rules" : "model",
                std::string(AttemptVerdictName(a)).c_str(),
                a.verdict == Verdict::kCorrect && a.speedup > 0 ? fmt::format("{:.2f}x", a.speedup).c_str()
                : a.verdict == Verdict::kCorrect                ? "untimed"
                                                                : "-");
  }
}

// The end of a run that has its report: how the search stopped, the winning
// path, the device and caches, the page beside the report, the result;
// returns the exit status.
int PrintOutcome(const OptimizeState& s, const OptimizeReport& r) {
  std::printf("\n%s\n", StopLine(r).c_str());
  PrintPath(r.search);
  std::printf("device     %s\n%s", r.device.c_str(), CacheLine(r).c_str());
  if (!r.heldout_skipped.empty()) std::printf("held-out   not run: %s\n", r.heldout_skipped.c_str());
  // The same search as a page (tree show --format html), beside the report.
  std::filesystem::path page_path = std::filesystem::path(r.report_path).replace_extension(".html");
  auto page = RenderSearchReport(r.report_path, "html");
  Status ps = page.ok() ? WriteFileAtomic(page_path, *page) : page.status();
  const std::string page_written = ps.ok() ? page_path.string() : std::string();
  if (ps.ok()) {
    std::printf("page       %s\n", page_path.string().c_str());
  } else {
    std::fprintf(stderr, "regrapht: warning: no HTML page of the search: %s\n", ps.ToString().c_str());
  }
  Conclude(r, r.report_path);
  if (r.stop != OptimizeStop::kComplete) std::printf("\nSTOPPED    %s\n", r.stop_note.c_str());
  if (r.stop == OptimizeStop::kHarnessFailed) Fail(r.search.error);
  const int rc = ExitStatusOf(r);
  if (s.json) EmitJson(ReportSummary(r, page_written, rc));
  return rc;
}

// Flags -> request -> regrapht::Optimize -> lines, the page, the exit status.
int RunOptimize(const OptimizeState& s) {
  auto vopts = s.verify.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  InstallInterruptHandler();
  vopts->cancel = InterruptFlag();  // a wait for the GPU lock, and the compile or run in progress
  // Signs of life from the first second: the status line, then the estimate.
  std::unique_ptr<OptimizeProgress> live_owner =
      NewOptimizeLive(s.search, s.quiet, vopts->emulated());
  OptimizeProgress& live = *live_owner;
  live.Start();

  OptimizeRequest req;
  req.source_path = s.file;
  req.function = s.function;
  req.spec_path = s.spec;
  req.output_path = s.output;
  req.report_path = s.report;
  req.method = s.search.method;
  req.search = s.search.ToOptions();
  req.heldout = s.search.heldout;
  req.rules_seed = s.search.seed_step == "rules";
  if (s.search.method == "rules") req.config_json = s.search.ConfigJson("none (rules)");
  req.command_line = InvocationCommandLine();
  req.program_version = kBuildVersion;
  req.program_commit = BuildCommit();
  req.exit_status = ExitStatusOf;
  // Graph, model, prompts (--retrieval embeddings asks the model): loaded
  // once the reference passed; then the estimate, before the search.
  std::unique_ptr<SearchEnv> env;
  req.load_search_resources = [&s, &env, &live](OptimizeRequest* r) -> Status {
    RG_ASSIGN_OR_RETURN(env, MakeSearchEnv(s.search));
    r->llm = env->llm.get();
    r->graph = env->graph.get();
    r->graph_path = env->graph_path;
    r->examples = env->index.get();
    r->prompts = &env->prompts;
    r->config_json = s.search.ConfigJson(env->llm->ModelId());
    return Status::Ok();
  };
  req.verify = *vopts;
  req.cancel = InterruptFlag();
  req.cancel_reason = [] { return InterruptName(); };
  bool incomplete_spec = false;
  req.on_event = [&s, &live, &env, &incomplete_spec](const OptimizeEvent& e) {
    if (e.kind == OptimizeEvent::Kind::kSpec) incomplete_spec = !e.spec_complete;
    PrintEvent(s, live, e);
    if (e.kind == OptimizeEvent::Kind::kSearchStart) {
      // Before the search: its size, and how long it may take here.
      live.Print(stdout, BudgetLine(s.search));
      PrintEstimate(live, s.search, env ? env->model : nullptr, e.model);
    }
    live.OnEvent(e);
  };
  auto report = Optimize(req);
  live.Stop();
  if (!report.ok()) return FailedRun(report.status(), incomplete_spec);
  live.Record(*report);
  return PrintOutcome(s, *report);
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
  AddJsonFlag(sub, &s->json, "the answer (verdict, exit status, files written, speedup, winning path)");
  s->search.Add(sub, /*with_method=*/true, /*auto_sized=*/true);
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
