// regrapht::Optimize (include/regrapht/optimize.h): spec -> problem ->
// reference check -> search -> held-out re-verification -> report.
#include "regrapht/optimize.h"

#include <utility>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "search/attempt_json.h"
#include "verify/heldout.h"
#include "verify/infer.h"
#include "verify/result_json.h"
#include "verify/runner_options.h"

namespace regrapht {
namespace {

fs::path Sibling(const fs::path& out, const std::string& suffix) {
  fs::path p = out;
  p.replace_extension();
  p += suffix;
  return p;
}

class VerifierHarness final : public OptimizeHarness {
 public:
  explicit VerifierHarness(const VerifyOptions& options)
      : runner_(MakeRunner(options)),
        verifier_(options, runner_.get()),
        checker_(Quick(options), runner_.get()) {}

  Status CheckReference(const Problem& problem) override {
    return checker_.CheckReference(problem).status();
  }
  Result<VerifyResult> Verify(const Problem& problem, const std::string& code) override {
    return verifier_.Verify(problem, code);
  }

 private:
  static std::unique_ptr<CommandRunner> MakeRunner(const VerifyOptions& o) {
    SubprocessOptions so = SandboxRunnerOptions(o);
    so.cancel = o.cancel;  // a set flag kills the compile or run in progress
    return NewSubprocessRunner(so);
  }
  // The reference check needs no timing.
  static VerifyOptions Quick(VerifyOptions o) {
    o.timing = false;
    return o;
  }

  std::unique_ptr<CommandRunner> runner_;
  Verifier verifier_;
  Verifier checker_;
};

class DiskOutputFiles final : public OutputFiles {
 public:
  Status Write(const fs::path& path, const std::string& contents) override {
    return WriteFileAtomic(path, contents);
  }
};

// The search's candidates go to the harness.
class HarnessEvaluator final : public CandidateEvaluator {
 public:
  explicit HarnessEvaluator(OptimizeHarness* harness) : harness_(harness) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override {
    return harness_->Verify(problem, code);
  }

 private:
  OptimizeHarness* harness_;
};

bool Cancelled(const OptimizeRequest& r) { return r.cancel && r.cancel->load(); }

std::string CancelReason(const OptimizeRequest& r) {
  return r.cancel_reason ? r.cancel_reason() : "cancelled";
}

void Emit(const OptimizeRequest& r, const OptimizeEvent& e) {
  if (r.on_event) r.on_event(e);
}

void Emit(const OptimizeRequest& r, OptimizeEvent::Kind kind) {
  OptimizeEvent e;
  e.kind = kind;
  Emit(r, e);
}

std::string Description(const OptimizeRequest& r) {
  return "Optimize `" + r.function + "` from " + r.source_path.string() + ".\n";
}

// An incomplete inferred spec: the problem folder as a template
// (problem.json with the values to write marked, reference.cpp,
// description.md) beside the output, and an error naming the file and the
// fields to edit.
Status WriteTemplate(const OptimizeRequest& r, const std::string& source, const fs::path& out,
                     const verify::InferredSpec& inferred, OutputFiles* files,
                     OptimizeReport* report) {
  report->problem_dir = Sibling(out, ".problem");
  report->spec_path = report->problem_dir / "problem.json";
  RG_RETURN_IF_ERROR(files->Write(report->spec_path, inferred.spec_json));
  RG_RETURN_IF_ERROR(files->Write(report->problem_dir / "reference.cpp", source));
  RG_RETURN_IF_ERROR(files->Write(report->problem_dir / "description.md", Description(r)));
  OptimizeEvent e;
  e.kind = OptimizeEvent::Kind::kSpec;
  e.spec_path = report->spec_path;
  e.spec_inferred = true;
  e.spec_complete = false;
  e.notes = inferred.notes;
  Emit(r, e);
  const std::string spec = report->spec_path.string(), dir = report->problem_dir.string();
  return Status::InvalidArgument(
      "cannot infer a complete spec for '" + r.function + "': " + inferred.problem +
      ".\nA problem-folder template is in " + dir + "/: edit " + spec +
      (inferred.to_fill.empty() ? std::string()
                                : " (the values starting with \"" + std::string(verify::kFillIn) +
                                      "\": " + Join(inferred.to_fill, ", ") + ")") +
      ", check it with `regrapht problem check " + dir + "`, then run again with --spec " + spec +
      " (docs/inference.md)");
}

// Steps 1-2: the spec (given or inferred; an inferred one is written beside
// the output) and the problem, in memory and as a folder beside the output.
Result<Problem> MakeProblem(const OptimizeRequest& r, const std::string& source,
                            const fs::path& out, OutputFiles* files, OptimizeReport* report) {
  std::string spec_text;
  OptimizeEvent spec_event;
  spec_event.kind = OptimizeEvent::Kind::kSpec;
  if (r.spec_text || !r.spec_path.empty()) {
    if (r.spec_text) {
      spec_text = *r.spec_text;
    } else {
      RG_ASSIGN_OR_RETURN(spec_text, ReadInputFile(r.spec_path));
    }
    spec_event.spec_path = r.spec_path;
    Emit(r, spec_event);
  } else {
    RG_RETURN_IF_ERROR(verify::CheckReferenceSource(source, r.source_path.string(), r.function));
    auto inferred = verify::InferSpec(source, r.function);
    if (!inferred.ok()) {
      return inferred.status().WithContext(r.source_path.string() + ": cannot infer a spec for '" +
                                           r.function +
                                           "'; write one (docs/problem-format.md) and pass --spec");
    }
    if (!inferred->complete) return WriteTemplate(r, source, out, *inferred, files, report);
    report->spec_path = Sibling(out, ".spec.json");
    RG_RETURN_IF_ERROR(files->Write(report->spec_path, inferred->spec_json));
    spec_event.spec_path = report->spec_path;
    spec_event.spec_inferred = true;
    spec_event.spec_complete = true;
    spec_event.notes = inferred->notes;
    Emit(r, spec_event);
    spec_text = inferred->spec_json;
  }
  // The folder `regrapht verify --problem` takes, written first so that
  // errors below name files the user can open.
  report->problem_dir = Sibling(out, ".problem");
  const fs::path& pdir = report->problem_dir;
  Problem p;
  p.dir = pdir;
  p.spec_text = spec_text;
  p.reference_source = source;
  p.description = Description(r);
  RG_RETURN_IF_ERROR(files->Write(pdir / "problem.json", p.spec_text));
  RG_RETURN_IF_ERROR(files->Write(pdir / "reference.cpp", p.reference_source));
  RG_RETURN_IF_ERROR(files->Write(pdir / "description.md", p.description));
  // Errors name the user's spec file where there is one.
  const fs::path spec_name = r.spec_path.empty() ? pdir / "problem.json" : r.spec_path;
  RG_ASSIGN_OR_RETURN(p.spec, ParseProblemSpec(p.spec_text, spec_name.string()));
  if (p.reference_source.find(p.spec.function) == std::string::npos) {
    return Status::InvalidArgument(r.source_path.string() + ": does not mention the function '" +
                                   p.spec.function + "' named in the spec");
  }
  {
    const auto& ret = p.spec.returns;
    const std::string ret_name = !ret ? "" : ret->scalar ? std::string(ScalarTypeName(*ret->scalar))
                                                         : p.spec.structs[ret->struct_index].name;
    RG_RETURN_IF_ERROR(verify::CheckReferenceSource(p.reference_source, r.source_path.string(), p.spec.function,
                                                    !ret.has_value(), ret_name));
  }
  report->signature = p.spec.Signature();
  OptimizeEvent e;
  e.kind = OptimizeEvent::Kind::kProblem;
  e.signature = report->signature;
  Emit(r, e);
  return p;
}

// How the run ended decides the report's stop before the candidates do.
void ClassifyStop(const OptimizeRequest& r, OptimizeReport* report) {
  const SearchOutcome& o = report->search;
  if (!o.error.ok()) {
    report->stop = OptimizeStop::kHarnessFailed;
    report->stop_note = "the harness failed (" + o.error.ToString() +
                        "): the search stopped; the result above is what it found until then";
  } else if (o.interrupted) {
    report->stop = OptimizeStop::kInterrupted;
    report->stop_note = "INTERRUPTED (" + CancelReason(r) + ") after " +
                        std::to_string(o.generations) +
                        " generations: the result above is what the search found until then";
  } else if (o.endpoint_failed()) {
    report->stop = OptimizeStop::kEndpointFailed;
    report->stop_note = "the model endpoint failed (" + std::to_string(o.endpoint_failures) +
                        " of " + std::to_string(o.generations) + " requests; " + o.stop_reason +
                        "): the search stopped early; the result above is what it found until then";
  }
}

OptimizeVerdict Judge(const OptimizeReport& report) {
  const Attempt* best = report.best();
  if (!best) return OptimizeVerdict::kNoneCorrect;
  if (report.heldout && !report.heldout->ok()) return OptimizeVerdict::kWrongOnHeldOut;
  if (!report.search.best_verified) return OptimizeVerdict::kUnverified;
  if (!report.final_result().candidate_timing) return OptimizeVerdict::kUntimed;
  return report.speedup() >= 1.0 ? OptimizeVerdict::kFaster : OptimizeVerdict::kSlower;
}

std::string DefaultConfig(const OptimizeRequest& r, const std::string& model) {
  OrderedJson j = {{"method", r.method},
                   {"model", model},
                   {"budget", r.search.budget.max_generations},
                   {"heldout", r.heldout}};
  return JsonLine(j);
}

std::string ReportJson(const OptimizeRequest& r, const std::string& source,
                       const OptimizeReport& report) {
  const SearchOutcome& o = report.search;
  OrderedJson j;
  j["file"] = r.source_path.string();
  j["function"] = r.function;
  j["signature"] = report.signature;
  j["method"] = r.method;
  j["model"] = report.model;
  j["config"] =
      OrderedJson::parse(r.config_json.empty() ? DefaultConfig(r, report.model) : r.config_json);
  j["stop_reason"] = o.stop_reason;
  j["generations"] = o.generations;
  j["verifications"] = o.verifications;
  j["tokens_prompt"] = o.tokens_prompt;
  j["tokens_generated"] = o.tokens_generated;
  j["interrupted"] = o.interrupted;
  if (o.interrupted) j["signal"] = CancelReason(r);
  j["endpoint_stopped"] = o.endpoint_stopped;
  j["endpoint_failures"] = o.endpoint_failures;
  j["endpoint_errors"] = o.endpoint_errors;
  if (r.search.pipeline > 1) {
    // Generated ahead (docs/search.md "Pipelining"); the discarded ones are
    // in no other count (generations, tokens_generated, attempts).
    j["pipeline"] = {{"depth", r.search.pipeline},
                     {"speculated", o.pipeline_speculated},
                     {"used", o.pipeline_used},
                     {"discarded_generations", o.discarded_generations},
                     {"tokens_discarded", o.tokens_discarded}};
  }
  j["exit_status_reason"] = report.stop_note.empty() ? "complete" : report.stop_note;
  if (!o.error.ok()) j["error"] = o.error.ToString();
  j["best_rule"] = o.best_rule;
  j["best_verified"] = o.best_verified;
  j["best_evidence"] =
      report.best() ? std::string(EvidenceLevel(report.best()->result)) : std::string("none");
  j["best_path"] = o.best_path;
  j["attempts"] = search::AttemptsToJson(o.attempts, search::AttemptDetail::kFull);
  if (report.best()) j["best_result"] = VerifyResultToJson(report.best()->result);
  if (report.heldout) j["heldout_result"] = VerifyResultToJson(*report.heldout);
  j["tree"] = OrderedJson::parse(o.tree_json.empty() ? "{}" : o.tree_json);
  j["source"] = source;  // the sequential code: first attempts are diffed against it
  return DumpJson(j);
}

}  // namespace

std::string_view OptimizeVerdictName(OptimizeVerdict v) {
  switch (v) {
    case OptimizeVerdict::kFaster:
      return "faster";
    case OptimizeVerdict::kUntimed:
      return "untimed";
    case OptimizeVerdict::kUnverified:
      return "unverified";
    case OptimizeVerdict::kSlower:
      return "slower";
    case OptimizeVerdict::kWrongOnHeldOut:
      return "wrong_on_heldout";
    case OptimizeVerdict::kNoneCorrect:
      return "none_correct";
  }
  return "?";
}

Result<std::unique_ptr<OptimizeHarness>> NewVerifierHarness(const VerifyOptions& options) {
  RG_RETURN_IF_ERROR(CheckSandboxAvailable(options));
  return std::unique_ptr<OptimizeHarness>(std::make_unique<VerifierHarness>(options));
}

std::unique_ptr<OutputFiles> NewDiskOutputFiles() { return std::make_unique<DiskOutputFiles>(); }

Result<OptimizeReport> Optimize(const OptimizeRequest& request) {
  OptimizeRequest r = request;  // load_search_resources fills it in
  if (r.function.empty()) return Status::InvalidArgument("OptimizeRequest: no function named");
  if (!r.llm && !r.load_search_resources)
    return Status::InvalidArgument("OptimizeRequest: no model backend (llm)");
  if (r.source_path.empty() && !r.source)
    return Status::InvalidArgument("OptimizeRequest: no source");
  // The search's options are checked before any file is read or written
  // (a budget of -1 once ran 174 generations).
  RG_RETURN_IF_ERROR(NewReasoner(r.method, r.search).status());
  std::unique_ptr<OutputFiles> disk;
  OutputFiles* files = r.files;
  if (!files) {
    disk = NewDiskOutputFiles();
    files = disk.get();
  }
  std::string source;
  if (r.source) {
    source = *r.source;
  } else {
    RG_ASSIGN_OR_RETURN(source, ReadInputFile(r.source_path));
  }
  OptimizeReport report;
  const fs::path out =
      r.output_path.empty() ? Sibling(r.source_path, ".regrapht.cu") : r.output_path;

  // 1-2. The spec and the problem.
  RG_ASSIGN_OR_RETURN(Problem problem, MakeProblem(r, source, out, files, &report));

  // 3. The harness: check the reference before spending model time.
  std::unique_ptr<OptimizeHarness> own_harness;
  OptimizeHarness* harness = r.harness;
  if (!harness) {
    RG_ASSIGN_OR_RETURN(own_harness, NewVerifierHarness(r.verify));
    harness = own_harness.get();
  }
  Status ref = harness->CheckReference(problem);
  if (Cancelled(r)) {
    return Status::Cancelled("interrupted (" + CancelReason(r) +
                             ") while checking the reference; no search ran, nothing written");
  }
  RG_RETURN_IF_ERROR(ref);
  Emit(r, OptimizeEvent::Kind::kReference);

  // 4. Model, graph, examples, prompts.
  if (r.load_search_resources) {
    RG_RETURN_IF_ERROR(r.load_search_resources(&r));
    if (!r.llm)
      return Status::InvalidArgument(
          "OptimizeRequest: load_search_resources gave no model backend (llm)");
  }
  std::unique_ptr<Graph> own_graph;
  ExampleIndexPtr own_index;
  const Graph* graph = r.graph;
  std::string graph_path = r.graph_path;
  if (!graph && NeedsGraph(r.method)) {
    if (graph_path.empty()) graph_path = (DataDir() / "graph" / "regrapht.json").string();
    auto g = LoadGraph(graph_path);
    if (!g.ok()) return g.status().WithContext("loading the reasoning graph");
    own_graph = std::make_unique<Graph>(std::move(*g));
    graph = own_graph.get();
  }
  const ExampleIndex* examples = r.examples;
  if (!examples && graph) {
    own_index = NewExampleIndex(*graph);
    examples = own_index.get();
  }
  PromptLibrary builtin_prompts;
  const PromptLibrary* prompts = r.prompts ? r.prompts : &builtin_prompts;
  report.model = r.llm->ModelId();
  OptimizeEvent start;
  start.kind = OptimizeEvent::Kind::kSearchStart;
  start.graph = graph;
  start.graph_path = graph_path;
  start.model = report.model;
  Emit(r, start);

  // 5. The search.
  SearchOptions so = r.search;
  so.arch = Join(r.verify.archs, ", ");  // the prompt names what candidates are compiled for
  RG_ASSIGN_OR_RETURN(auto reasoner, NewReasoner(r.method, so));
  HarnessEvaluator evaluator(harness);
  SearchTask task;
  task.problem = &problem;
  task.graph = graph;
  task.examples = examples;
  SearchContext ctx;
  ctx.llm = r.llm;
  ctx.evaluator = &evaluator;
  ctx.prompts = prompts;
  ctx.clock = r.clock;
  ctx.cancel = r.cancel;
  if (r.on_event) {
    ctx.on_event = [&r](const SearchEvent& s) {
      OptimizeEvent e;
      e.kind = OptimizeEvent::Kind::kSearchStep;
      e.step = s;
      r.on_event(e);
    };
    ctx.on_generation = [&r](const GenerationProgress& g) {
      OptimizeEvent e;
      e.kind = OptimizeEvent::Kind::kGenerating;
      e.generation = g;
      r.on_event(e);
    };
  }
  RG_ASSIGN_OR_RETURN(report.search, reasoner->Run(task, ctx));
  ClassifyStop(r, &report);

  // 6. The answer, re-verified and re-timed on held-out inputs: the search
  // chose it by its own measurements (verify/heldout.h). Not after an
  // interrupt or a harness failure: the caller asked to stop, or the harness
  // cannot run.
  const bool can_rerun = !report.search.interrupted && report.search.error.ok();
  if (const Attempt* best = report.best();
      best && can_rerun && r.heldout && NeedsHeldOutRun(best->result)) {
    Emit(r, OptimizeEvent::Kind::kHeldOut);
    auto held = harness->Verify(HeldOutProblem(problem, HeldOutSalt(r.search.seed)), best->code);
    if (!held.ok()) return held.status().WithContext("held-out verification");
    report.heldout = std::move(*held);
  }
  report.verdict = Judge(report);

  // 7. The report, then the answer.
  report.report_path = r.report_path.empty() ? Sibling(out, ".report.json") : r.report_path;
  report.report_json = ReportJson(r, source, report);
  RG_RETURN_IF_ERROR(files->Write(report.report_path, report.report_json));
  if (const Attempt* best = report.best()) {
    RG_RETURN_IF_ERROR(files->Write(out, best->code));
    report.output = out;
  }
  return report;
}

}  // namespace regrapht
