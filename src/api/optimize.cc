// regrapht::Optimize (include/regrapht/optimize.h): spec -> problem ->
// reference check -> search -> held-out re-verification -> report.
#include "regrapht/optimize.h"

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>
#include <utility>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "search/attempt_json.h"
#include "seed/seed.h"
#include "verify/spec/heldout.h"
#include "verify/spec/infer.h"
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

// The search's candidates go to the harness; `on_check` (may be empty) is
// told when a check begins.
class HarnessEvaluator final : public CandidateEvaluator {
 public:
  HarnessEvaluator(OptimizeHarness* harness, std::function<void()> on_check)
      : harness_(harness), on_check_(std::move(on_check)) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override {
    if (on_check_) on_check_();
    return harness_->Verify(problem, code);
  }

 private:
  OptimizeHarness* harness_;
  std::function<void()> on_check_;
};

// The time limit of the whole job: a thread that sets `stop` once `clock`
// passes `deadline_s` (timed_out) or the caller's `cancel` is set, so that
// the model request and the check in progress, which poll one flag, end on
// either. Polls every 50 ms of wall time (the clock may be a FakeClock).
class Watchdog {
 public:
  Watchdog(const Clock* clock, double deadline_s, const std::atomic<bool>* cancel)
      : clock_(clock), deadline_s_(deadline_s), cancel_(cancel), thread_([this] { Run(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  const std::atomic<bool>* flag() const { return &stop_; }
  bool timed_out() const { return timed_out_.load(); }
  // Whether the deadline has passed, read now (the thread may not have looked yet).
  bool Passed() const { return timed_out_.load() || clock_->NowSeconds() >= deadline_s_; }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      if (clock_->NowSeconds() >= deadline_s_) {
        timed_out_ = true;
        stop_ = true;
      } else if (cancel_ && cancel_->load()) {
        stop_ = true;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  const Clock* clock_;
  double deadline_s_;
  const std::atomic<bool>* cancel_;
  std::atomic<bool> stop_{false}, timed_out_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members above are made
};

std::string LimitReason(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "budget: %.0f s wall clock", seconds);
  return buf;
}

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
    bool cut = !o.attempts.empty() && o.attempts.back().interrupted;
    report->stop_note = "INTERRUPTED (" + CancelReason(r) + ") after " + Plural(o.generations, "generation") +
                        (cut ? " (the one in progress was cut short)" : "") +
                        ": the result above is what the search found until then";
  } else if (o.endpoint_failed()) {
    report->stop = OptimizeStop::kEndpointFailed;
    report->stop_note = "the model endpoint failed (" + std::to_string(o.endpoint_failures) +
                        " of " + std::to_string(o.generations) + " requests; " + o.stop_reason +
                        "): the search stopped early; the result above is what it found until then";
  }
}

// The run's overall verdict: whether a best candidate exists, holds on the
// held-out inputs, was verified and timed, and is faster than the reference.
OptimizeVerdict OverallVerdict(const OptimizeReport& report) {
  const Attempt* best = report.best();
  if (!best) return OptimizeVerdict::kNoneCorrect;
  if (report.heldout && !report.heldout->ok()) return OptimizeVerdict::kWrongOnHeldOut;
  if (!report.search.best_verified) return OptimizeVerdict::kUnverified;
  if (!report.final_result().candidate_timing) return OptimizeVerdict::kUntimed;
  return report.speedup() >= 1.0 ? OptimizeVerdict::kFaster : OptimizeVerdict::kSlower;
}

// The rules' first step, when the method uses one: computed from the
// reference, told as an event, handed to the search.
std::optional<RulesSeed> MakeSeed(const OptimizeRequest& r, const Problem& problem,
                                  SearchTask* task) {
  if (r.method != "rules" && !(r.rules_seed && r.method == "regrapht-mcgs")) return std::nullopt;
  seed::Seed s = seed::Parallelize(problem);
  RulesSeed out{s.written, s.pattern, s.notes, s.category, s.reason};
  if (s.written) {
    task->seed_code = s.code;
    task->seed_technique = seed::kSeedTechnique;
  } else {
    task->seed_note = s.category + ": " + s.reason;
  }
  OptimizeEvent e;
  e.kind = OptimizeEvent::Kind::kSeed;
  e.seed = &out;
  Emit(r, e);
  return out;
}

OrderedJson SeedJson(const RulesSeed& s) {
  OrderedJson j = {{"written", s.written}, {"technique", seed::kSeedTechnique}};
  if (s.written) {
    j["pattern"] = s.pattern;
    j["notes"] = s.notes;
  } else {
    j["category"] = s.category;
    j["reason"] = s.reason;
  }
  return j;
}

std::string DefaultConfig(const OptimizeRequest& r, const std::string& model) {
  OrderedJson j = {{"method", r.method},
                   {"model", model},
                   {"budget", r.search.budget.max_generations},
                   {"heldout", r.heldout}};
  return JsonLine(j);
}

OrderedJson OrNull(const std::string& s) { return s.empty() ? OrderedJson(nullptr) : OrderedJson(s); }

std::string UtcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// What ran (docs/cli.md "Reports"): the program, the command, where the
// candidates were checked, how long it took, what came from caches and the
// exit status.
OrderedJson RunJson(const OptimizeRequest& r, const OptimizeReport& report) {
  OrderedJson run = {{"command", OrNull(r.command_line)},
                     {"version", OrNull(r.program_version)},
                     {"commit", OrNull(r.program_commit)},
                     {"finished_at", UtcNow()},
                     {"wall_s", report.wall_s},
                     {"time_limit_s", r.search.budget.max_wall_seconds > 0
                                          ? OrderedJson(r.search.budget.max_wall_seconds)
                                          : OrderedJson(nullptr)},
                     {"timed_out", report.timed_out},
                     {"device", report.device},
                     {"emulated", r.verify.emulated()},
                     {"cache", {{"replies", report.replies},
                                {"replies_cached", report.replies_cached},
                                {"builds", report.builds},
                                {"builds_cached", report.builds_cached}}}};
  run["exit_status"] = r.exit_status ? OrderedJson(r.exit_status(report)) : OrderedJson(nullptr);
  return run;
}

// Counts what caches served and names the device the candidates ran on.
void NoteCachesAndDevice(const OptimizeRequest& r, OptimizeReport* report) {
  for (const Attempt& a : report->search.attempts) {
    if (a.endpoint_error || a.interrupted) continue;
    ++report->replies;
    report->replies_cached += a.reply_cached;
    if (a.reused || a.code.empty()) continue;
    ++report->builds;
    report->builds_cached += a.result.compile_cached;
    if (report->device.empty()) report->device = a.result.env.gpu_name;
  }
  if (report->heldout && !report->heldout->env.gpu_name.empty()) report->device = report->heldout->env.gpu_name;
  if (report->device.empty()) {
    report->device = r.verify.emulated() ? std::string(kEmulatorGpuName)
                                      : "none: no candidate ran on a GPU (compiled only, or none built)";
  }
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
  if (report.seed) j["seed"] = SeedJson(*report.seed);  // asked for (--first-step rules)
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
  if (!report.heldout_skipped.empty()) j["heldout_skipped"] = report.heldout_skipped;
  j["run"] = RunJson(r, report);
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

namespace {

// The requests Optimize refuses before reading or writing any file.
Status CheckRequest(const OptimizeRequest& r, bool needs_model) {
  if (r.function.empty()) return Status::InvalidArgument("OptimizeRequest: no function named");
  if (needs_model && !r.llm && !r.load_search_resources)
    return Status::InvalidArgument("OptimizeRequest: no model backend (llm)");
  if (r.source_path.empty() && !r.source)
    return Status::InvalidArgument("OptimizeRequest: no source");
  // The search's options are checked before any file is read or written
  // (a budget of -1 once ran 174 generations).
  return NewReasoner(r.method, r.search).status();
}

// The time limit of a run: one flag for the caller's cancel and the
// deadline, polled by the model request and the check in progress.
struct TimeLimit {
  const Clock* clock = nullptr;
  double t0 = 0;
  double limit_s = 0;
  std::unique_ptr<Watchdog> watchdog;  // when there is a limit
  const std::atomic<bool>* stop = nullptr;
};

// Starts r's time limit; the verifier polls its flag unless r has a harness.
void StartTimeLimit(OptimizeRequest* r, TimeLimit* t) {
  t->clock = r->clock ? r->clock : SystemClock::Get();
  t->t0 = t->clock->NowSeconds();
  t->limit_s = r->search.budget.max_wall_seconds;
  t->stop = r->cancel;
  if (t->limit_s > 0) {
    t->watchdog = std::make_unique<Watchdog>(t->clock, t->t0 + t->limit_s, r->cancel);
    t->stop = t->watchdog->flag();
    if (!r->harness) r->verify.cancel = t->stop;
  }
}

// Step 3: the harness (r's, or a verifier into *own), with the reference
// checked before spending model time.
Result<OptimizeHarness*> ReadyHarness(const OptimizeRequest& r, const Problem& problem,
                                      const TimeLimit& t, std::unique_ptr<OptimizeHarness>* own) {
  OptimizeHarness* harness = r.harness;
  if (!harness) {
    RG_ASSIGN_OR_RETURN(*own, NewVerifierHarness(r.verify));
    harness = own->get();
  }
  Status ref = harness->CheckReference(problem);
  if (Cancelled(r)) {
    return Status::Cancelled("interrupted (" + CancelReason(r) +
                             ") while checking the reference; no search ran, nothing written");
  }
  if (t.watchdog && t.watchdog->Passed()) {
    return Status::DeadlineExceeded("the time limit (" + LimitReason(t.limit_s).substr(8) +
                                    ") passed while the reference was checked; no search ran");
  }
  RG_RETURN_IF_ERROR(ref);
  Emit(r, OptimizeEvent::Kind::kReference);
  return harness;
}

// What the search reads: the graph, its examples and the prompts (the
// request's, else loaded or built in).
struct SearchResources {
  std::unique_ptr<Graph> own_graph;
  ExampleIndexPtr own_index;
  const Graph* graph = nullptr;
  std::string graph_path;
  const ExampleIndex* examples = nullptr;
  PromptLibrary builtin_prompts;
  const PromptLibrary* prompts = nullptr;
};

// Step 4: the model (r->load_search_resources, when the method needs one),
// the graph, the examples and the prompts.
Status LoadResources(OptimizeRequest* r, bool needs_model, SearchResources* res) {
  if (r->load_search_resources && needs_model) {
    RG_RETURN_IF_ERROR(r->load_search_resources(r));
    if (!r->llm)
      return Status::InvalidArgument(
          "OptimizeRequest: load_search_resources gave no model backend (llm)");
  }
  res->graph = r->graph;
  res->graph_path = r->graph_path;
  if (!res->graph && NeedsGraph(r->method)) {
    if (res->graph_path.empty()) res->graph_path = (DataDir() / "graph" / "regrapht.json").string();
    auto g = LoadGraph(res->graph_path);
    if (!g.ok()) return g.status().WithContext("loading the reasoning graph");
    res->own_graph = std::make_unique<Graph>(std::move(*g));
    res->graph = res->own_graph.get();
  }
  res->examples = r->examples;
  if (!res->examples && res->graph) {
    res->own_index = NewExampleIndex(*res->graph);
    res->examples = res->own_index.get();
  }
  res->prompts = r->prompts ? r->prompts : &res->builtin_prompts;
  return Status::Ok();
}

// Step 5: the search, with what is left of the time limit (its stopper ends
// it between generations; the watchdog, in the middle of one). Sets the
// report's model, seed, search outcome, timed_out and stop.
Status RunSearch(const OptimizeRequest& r, const Problem& problem, OptimizeHarness* harness,
                 const SearchResources& res, const TimeLimit& t, OptimizeReport* report) {
  report->model = r.llm ? r.llm->ModelId() : "none (rules)";
  OptimizeEvent start;
  start.kind = OptimizeEvent::Kind::kSearchStart;
  start.graph = res.graph;
  start.graph_path = res.graph_path;
  start.model = report->model;
  Emit(r, start);

  SearchOptions so = r.search;
  so.arch = Join(r.verify.archs, ", ");  // the prompt names what candidates are compiled for
  if (t.limit_s > 0)
    so.budget.max_wall_seconds = std::max(1e-3, t.t0 + t.limit_s - t.clock->NowSeconds());
  RG_ASSIGN_OR_RETURN(auto reasoner, NewReasoner(r.method, so));
  HarnessEvaluator evaluator(harness, [&r] { Emit(r, OptimizeEvent::Kind::kChecking); });
  SearchTask task;
  task.problem = &problem;
  task.graph = res.graph;
  task.examples = res.examples;
  report->seed = MakeSeed(r, problem, &task);
  SearchContext ctx;
  ctx.llm = r.llm;
  ctx.evaluator = &evaluator;
  ctx.prompts = res.prompts;
  ctx.clock = t.clock;
  ctx.cancel = t.stop;
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
  RG_ASSIGN_OR_RETURN(report->search, reasoner->Run(task, ctx));
  SearchOutcome& o = report->search;
  if (t.limit_s > 0 && !Cancelled(r) && o.error.ok() &&
      ((o.interrupted && t.watchdog->timed_out()) ||
       o.stop_reason == LimitReason(so.budget.max_wall_seconds))) {
    // The time limit, not the caller, stopped it: a spent budget.
    report->timed_out = true;
    o.interrupted = false;
    o.stop_reason = LimitReason(t.limit_s);
  }
  ClassifyStop(r, report);
  return Status::Ok();
}

// Step 6: the answer, re-verified and re-timed on held-out inputs: the
// search chose it by its own measurements (verify/heldout.h). Not after an
// interrupt, a harness failure or the time limit: the caller asked to stop,
// the harness cannot run, or there is no time left.
Status RunHeldOut(const OptimizeRequest& r, const Problem& problem, OptimizeHarness* harness,
                  const TimeLimit& t, OptimizeReport* report) {
  const Attempt* best = report->best();
  if (!best || !r.heldout || !NeedsHeldOutRun(best->result)) return Status::Ok();
  SearchOutcome& o = report->search;
  if (report->timed_out) {
    report->heldout_skipped = "the time limit was reached";
  } else if (o.interrupted) {
    report->heldout_skipped = "interrupted (" + CancelReason(r) + ")";
  } else if (o.error.ok()) {
    Emit(r, OptimizeEvent::Kind::kHeldOut);
    auto held = harness->Verify(HeldOutProblem(problem, HeldOutSalt(r.search.seed)), best->code);
    if (t.stop && t.stop->load()) {
      // Stopped while it ran: the search's numbers stand, and the report says so.
      report->timed_out = t.watchdog && t.watchdog->timed_out() && !Cancelled(r);
      if (!report->timed_out) {
        o.interrupted = true;
        ClassifyStop(r, report);
      }
      report->heldout_skipped =
          report->timed_out ? "the time limit was reached during the held-out run"
                            : "interrupted (" + CancelReason(r) + ") during the held-out run";
    } else if (!held.ok()) {
      return held.status().WithContext("held-out verification");
    } else {
      report->heldout = std::move(*held);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<OptimizeReport> Optimize(const OptimizeRequest& request) {
  OptimizeRequest r = request;  // load_search_resources fills it in
  const bool needs_model = r.method != "rules";
  RG_RETURN_IF_ERROR(CheckRequest(r, needs_model));
  TimeLimit limit;
  StartTimeLimit(&r, &limit);
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
  RG_ASSIGN_OR_RETURN(OptimizeHarness * harness, ReadyHarness(r, problem, limit, &own_harness));
  // 4. Model, graph, examples, prompts.
  SearchResources res;
  RG_RETURN_IF_ERROR(LoadResources(&r, needs_model, &res));
  // 5. The search.
  RG_RETURN_IF_ERROR(RunSearch(r, problem, harness, res, limit, &report));
  // 6. The answer on held-out inputs.
  RG_RETURN_IF_ERROR(RunHeldOut(r, problem, harness, limit, &report));
  report.verdict = OverallVerdict(report);
  NoteCachesAndDevice(r, &report);

  // 7. The report, then the answer.
  report.report_path = r.report_path.empty() ? Sibling(out, ".report.json") : r.report_path;
  report.wall_s = limit.clock->NowSeconds() - limit.t0;
  report.report_json = ReportJson(r, source, report);
  RG_RETURN_IF_ERROR(files->Write(report.report_path, report.report_json));
  if (const Attempt* best = report.best()) {
    RG_RETURN_IF_ERROR(files->Write(out, best->code));
    report.output = out;
  }
  return report;
}

}  // namespace regrapht
