// regrapht optimize: the main job. A sequential C++ function in, the best
// verified CUDA drop-in the small model finds out. The work is the library's
// regrapht::Optimize (include/regrapht/optimize.h); this file is its flags,
// its printing, the HTML page and the exit statuses.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/json_output.h"
#include "cli/search_flags.h"
#include "cli/verify_flags.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "regrapht/optimize.h"
#include "search/progress_text.h"

namespace regrapht::cli {
namespace {

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
          {"best_path", path}};
}

// Says what the answer is and returns the exit status it gives.
int Conclude(const OptimizeReport& r, const fs::path& report_path) {
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

bool StderrIsTty() {
  static const bool tty = ::isatty(STDERR_FILENO) != 0;
  return tty;
}

// Prints Optimize's progress as it happens.
void PrintEvent(const OptimizeState& s, const OptimizeEvent& e) {
  switch (e.kind) {
    case OptimizeEvent::Kind::kSpec:
      if (!e.spec_inferred) {
        std::printf("spec       %s\n", e.spec_path.string().c_str());
        return;
      }
      std::printf("spec       inferred from the signature (check it; pass --spec FILE to override):\n");
      for (const auto& n : e.notes) std::printf("             %s\n", n.c_str());
      if (e.spec_complete) std::printf("             (written to %s)\n", e.spec_path.string().c_str());
      return;
    case OptimizeEvent::Kind::kProblem:
      std::printf("function   %s\n", e.signature.c_str());
      return;
    case OptimizeEvent::Kind::kReference:
      std::printf("reference  builds, runs, deterministic, not degenerate\n");
      return;
    case OptimizeEvent::Kind::kSearchStart:
      if (e.graph) {
        std::printf("graph      %s (%zu techniques, %zu transitions, %zu examples)\n", e.graph_path.c_str(),
                    e.graph->num_nodes() - 1, e.graph->num_edges(), e.graph->num_examples());
      }
      std::printf("model      %s\n", e.model.c_str());
      if (s.search.method == "rules") {
        std::printf("method     rules: the rules' first step alone, no model\n");
        return;
      }
      std::printf("method     %s, budget %d generations, seed %llu\n", s.search.method.c_str(), s.search.budget,
                  static_cast<unsigned long long>(s.search.seed));
      return;
    case OptimizeEvent::Kind::kSearchStep: {
      const SearchEvent& st = e.step;
      if (s.quiet || st.verdict.empty() || st.action == "select") return;
      if (StderrIsTty()) std::fputs("\r\033[K", stderr);  // the generation line, if any
      std::fprintf(stderr, "%s\n", search::StepLine(st, s.search.budget).c_str());
      return;
    }
    case OptimizeEvent::Kind::kGenerating:
      // A live line on a terminal only: logs get the finished step's line.
      if (!s.quiet && StderrIsTty())
        std::fprintf(stderr, "\r\033[K%s", search::GenerationLine(e.generation).c_str());
      return;
    case OptimizeEvent::Kind::kHeldOut:
      if (!s.quiet) std::fprintf(stderr, "held-out   re-verifying the answer on new inputs and re-timing it\n");
      return;
    case OptimizeEvent::Kind::kSeed:
      if (!e.seed->written) {
        std::printf("seed       none from the rules (%s): %s\n", e.seed->category.c_str(), e.seed->reason.c_str());
        return;
      }
      std::printf("seed       the rules wrote a %s version (thread_mapping, no model)%s\n", e.seed->pattern.c_str(),
                  s.search.method == "rules" ? "" : "; the search starts from it");
      for (const auto& n : e.seed->notes) std::printf("             %s\n", n.c_str());
      return;
  }
}

// Flags -> request -> regrapht::Optimize -> lines, the page, the exit status.
int RunOptimize(const OptimizeState& s) {
  auto vopts = s.verify.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  InstallInterruptHandler();
  vopts->cancel = InterruptFlag();  // a wait for the GPU lock, and the compile or run in progress

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
  // Graph, model, prompts (--retrieval embeddings asks the model): loaded
  // once the reference passed; "rules" needs none of them.
  std::unique_ptr<SearchEnv> env;
  req.load_search_resources = [&s, &env](OptimizeRequest* r) -> Status {
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
  req.on_event = [&s, &incomplete_spec](const OptimizeEvent& e) {
    if (e.kind == OptimizeEvent::Kind::kSpec) incomplete_spec = !e.spec_complete;
    PrintEvent(s, e);
  };
  auto report = Optimize(req);
  if (!report.ok()) {
    if (incomplete_spec) {  // the template is written: say how to go on
      std::fprintf(stderr, "regrapht: %s\n", report.status().message().c_str());
      return kExitError;
    }
    if (InterruptFlag()->load()) {
      if (report.status().code() == Status::Code::kCancelled) {  // while checking the reference
        std::fprintf(stderr, "regrapht: %s\n", report.status().message().c_str());
      } else {
        std::fprintf(stderr, "regrapht: %s\nregrapht: interrupted (%s)\n", report.status().ToString().c_str(),
                     InterruptName().c_str());
      }
      return InterruptExitCode();
    }
    return Fail(report.status());
  }
  const OptimizeReport& r = *report;
  const SearchOutcome& o = r.search;

  // The winning path.
  std::printf("\nstopped    %s after %d generations, %d verifications, %.1f s\n", o.stop_reason.c_str(),
              o.generations, o.verifications, o.wall_s);
  std::printf("\n| step | technique / action | by | verdict | speedup |\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < o.best_path.size(); ++i) {
    const Attempt& a = o.attempts[o.best_path[i]];
    std::printf("| %zu | %s | %s | %s | %s |\n", i + 1, a.action.c_str(), a.by_rules ? "rules" : "model",
                std::string(VerdictName(a.verdict)).c_str(),
                a.verdict == Verdict::kCorrect && a.speedup > 0 ? fmt::format("{:.2f}x", a.speedup).c_str()
                : a.verdict == Verdict::kCorrect                ? "untimed"
                                                                : "-");
  }
  // The same search as a page (tree show --format html), beside the report.
  fs::path page_path = fs::path(r.report_path).replace_extension(".html");
  auto page = RenderSearchReport(r.report_path, "html");
  Status ps = page.ok() ? WriteFileAtomic(page_path, *page) : page.status();
  const std::string page_written = ps.ok() ? page_path.string() : std::string();
  if (ps.ok()) {
    std::printf("page       %s\n", page_path.string().c_str());
  } else {
    std::fprintf(stderr, "regrapht: warning: no HTML page of the search: %s\n", ps.ToString().c_str());
  }

  int rc = Conclude(r, r.report_path);
  if (r.stop != OptimizeStop::kComplete) std::printf("\nSTOPPED    %s\n", r.stop_note.c_str());
  switch (r.stop) {
    case OptimizeStop::kHarnessFailed:
      rc = Fail(o.error);
      break;
    case OptimizeStop::kInterrupted:
      rc = InterruptExitCode();
      break;
    case OptimizeStop::kEndpointFailed:
      rc = kExitEndpointFailed;
      break;
    case OptimizeStop::kComplete:
      break;
  }
  if (s.json) EmitJson(ReportSummary(r, page_written, rc));
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
  AddJsonFlag(sub, &s->json, "the answer (verdict, exit status, files written, speedup, winning path)");
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
