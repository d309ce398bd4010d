// Optimize: regrapht's main job as one library call. A sequential C++
// function in; the best verified CUDA drop-in the small model finds, and a
// report of how it was found, out (`regrapht optimize` is this call plus
// flags, printing and exit statuses; examples/optimize_one.cc).
//
//   auto llm = NewOpenAiBackend(openai_options);      // or NewLlamaBackend
//   OptimizeRequest request;
//   request.source_path = "saxpy.cpp";
//   request.function = "saxpy";
//   request.llm = llm->get();
//   request.verify.run_mode = VerifyOptions::RunMode::kEmulate;  // no GPU: the CPU emulator
//   Result<OptimizeReport> report = Optimize(request);
//   // report->verdict, report->speedup(), report->best()->code
//
// Steps (docs/architecture.md, "Data flow of one optimize call"): the problem
// spec (given, or inferred from the function's signature) -> the problem ->
// the reference checked before any model time is spent -> the search (MCGS
// by default) -> the answer re-verified on held-out inputs -> the report.
//
// A search that finds nothing, or a candidate that fails, is data
// (OptimizeReport::verdict), and so is a search that stopped early (the
// model endpoint kept failing, `cancel` was set, the harness failed during
// the search: OptimizeReport::stop), whose report still holds what it found.
// A Status means the job could not run: bad input (the file, the function,
// the spec: named with file and line), the reference is broken, the sandbox
// cannot start, cancelled before the search, or an output could not be
// written.
//
// Files: the inferred spec, the problem folder, the best candidate and the
// JSON report are written through OptimizeRequest::files (the disk by
// default), so tests and embedders can keep them in memory.
//
// Thread safety: separate calls may run concurrently if their backends,
// harnesses and file sinks allow it.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/clock.h"
#include "regrapht/graph.h"
#include "regrapht/llm.h"
#include "regrapht/problem.h"
#include "regrapht/prompts.h"
#include "regrapht/search.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht {

// What Optimize verifies with: a seam so tests can script verdicts without
// nvcc or a GPU.
class OptimizeHarness {
 public:
  virtual ~OptimizeHarness() = default;
  // Checks that the reference is a sane oracle (builds, runs, terminates,
  // deterministic, not degenerate). A broken reference is a Status naming
  // what is wrong.
  virtual Status CheckReference(const Problem& problem) = 0;
  // Verifies one candidate (the search's, and the held-out re-run of the
  // answer). A failing candidate is data; a Status means the harness failed.
  virtual Result<VerifyResult> Verify(const Problem& problem, const std::string& code) = 0;
};

// The real harness: Verifier with `options`, on a sandboxed subprocess
// runner (options.cancel also kills the command in progress); the reference
// is checked without timing. FailedPrecondition, naming why and what to do,
// when candidates would run sandboxed and the sandbox cannot start here.
Result<std::unique_ptr<OptimizeHarness>> NewVerifierHarness(const VerifyOptions& options);

// Where Optimize writes its files: a seam so tests keep them in memory.
class OutputFiles {
 public:
  virtual ~OutputFiles() = default;
  // Writes `contents` to `path` whole, creating parent folders. Readers of
  // the disk implementation see the old or the new contents, never a torn
  // file.
  virtual Status Write(const std::filesystem::path& path, const std::string& contents) = 0;
};

// The disk (atomic writes: temporary file, fsync, rename).
std::unique_ptr<OutputFiles> NewDiskOutputFiles();

// The rules' first step (OptimizeRequest::rules_seed): a parallel version
// written without a model from the reference's loops (docs/search.md, "The
// rules' first step").
struct RulesSeed {
  bool written = false;
  std::string pattern;             // "map", "map-2d", "reduction", ...
  std::vector<std::string> notes;  // one line per parallelized loop
  std::string category, reason;    // not written: the refusal's class and why
};

// Progress, in the order it happens (the CLI prints these lines).
struct OptimizeEvent {
  enum class Kind {
    kSpec,         // the spec: `spec_path`, `spec_inferred`, `spec_complete`, `notes`
    kProblem,      // the problem is made: `signature`
    kReference,    // the reference passed its checks
    kSearchStart,  // `graph` (null for methods without one), `graph_path`, `model`
    kSearchStep,   // one step of the search: `step`
    kHeldOut,      // the answer is being re-verified on held-out inputs
    kGenerating,   // the model is generating: `generation` (embedded backend only)
    kSeed,         // the rules' first step was analysed: `seed`
    kChecking,     // a candidate is being checked (the harness's Verify began)
  };
  Kind kind = Kind::kSpec;
  std::filesystem::path spec_path;
  bool spec_inferred = false;
  bool spec_complete = true;       // false: a template to edit; Optimize fails next
  std::vector<std::string> notes;  // what was inferred, one line each
  std::string signature;
  const Graph* graph = nullptr;
  std::string graph_path;
  std::string model;
  SearchEvent step;
  GenerationProgress generation;
  const RulesSeed* seed = nullptr;
};

struct OptimizeReport;

struct OptimizeRequest {
  // ---- The input.
  // The C++ file: read unless `source` is set; names it in messages.
  std::filesystem::path source_path;
  std::optional<std::string> source;  // its text, when the caller has it already
  std::string function;               // required: the function to optimize
  // The problem spec (docs/problem-format.md): a file, or its text (named by
  // spec_path in errors). Neither: inferred from the function's signature,
  // and written beside the output (OptimizeReport::spec_path) to check and edit;
  // one that cannot be completed is written as a problem-folder template
  // (OUT.problem/: problem.json with the values to write marked, reference.cpp)
  // and Optimize fails with InvalidArgument naming it and those fields
  // (docs/inference.md).
  std::filesystem::path spec_path;
  std::optional<std::string> spec_text;

  // ---- Outputs; empty: beside the input. With OUT the output path without
  // its extension, the problem folder (problem.json, reference.cpp,
  // description.md: for `regrapht verify --problem`) is OUT.problem/ and an
  // inferred spec OUT.spec.json.
  // The best CUDA; default: the source path with .regrapht.cu for its extension.
  std::filesystem::path output_path;
  std::filesystem::path report_path;  // the JSON report; default OUT.report.json
  OutputFiles* files = nullptr;       // null: the disk. Not owned.

  // ---- The search.
  std::string method = "regrapht-mcgs";  // NewReasoner's names
  // Budget, seed, sampling, shaping, ... search.budget.max_wall_seconds is
  // the whole job's time limit, counted from the call: when it passes, the
  // model's generation and the check in progress are cancelled (recorded as
  // interrupted attempts), no held-out run starts, and the report is written,
  // so Optimize returns within seconds of it; the search has then stopped as
  // when a budget is spent (OptimizeStop::kComplete, OptimizeReport::
  // timed_out, stop reason "budget: N s wall clock"). Passing it while the
  // reference is checked is a DeadlineExceeded Status. Only a harness made
  // here (harness null) has its checks cancelled.
  SearchOptions search;
  // The rules' first step (--first-step rules): for regrapht-mcgs the root's
  // first child, verified before the model's first step, which then starts
  // from it; method "rules" (no model) writes it alone. false: none
  // (--first-step none).
  bool rules_seed = true;
  // Re-verify and re-time the answer on held-out inputs (new seeds; the
  // numbers reported are that run's). false: the search's own measurement
  // (the paper's protocol).
  bool heldout = true;
  // Required (here or from load_search_resources) except for "rules"; not owned.
  LlmBackend* llm = nullptr;
  // The reasoning graph, for the methods that need one (NeedsGraph). null:
  // loaded from graph_path, or the shipped data/graph/regrapht.json.
  const Graph* graph = nullptr;
  std::string graph_path;
  const ExampleIndex* examples = nullptr;  // null: BM25 over the graph's examples
  const PromptLibrary* prompts = nullptr;  // null: the built-in templates
  // The settings recorded as the report's "config" (a JSON object's text);
  // empty: method, model, budget and heldout.
  std::string config_json;
  // Called once, on Optimize's copy of the request, after the reference
  // passed and before the search, when set: may fill in llm, graph,
  // graph_path, examples, prompts and config_json, so that a model is only
  // loaded when it will be used (the CLI does; bad input then costs no model
  // loading). A Status ends Optimize with it.
  std::function<Status(OptimizeRequest* request)> load_search_resources;

  // ---- Verification. `harness` null: NewVerifierHarness(verify). The
  // prompts name verify.archs as the target either way.
  VerifyOptions verify;
  OptimizeHarness* harness = nullptr;  // not owned

  // ---- Control.
  const Clock* clock = nullptr;  // null: the system clock (budget.max_wall_seconds)
  // Set (e.g. by SIGINT): the reference check or the search stops at its
  // next check; the report says so. Not owned; may be null.
  const std::atomic<bool>* cancel = nullptr;
  // What set `cancel` ("SIGINT"), for the report; may be empty.
  std::function<std::string()> cancel_reason;
  std::function<void(const OptimizeEvent&)> on_event;

  // ---- What ran, recorded in the report's "run" object (docs/cli.md
  // "Reports"): the program's version and commit and the command line that
  // ran it (empty: null). `exit_status`, when set, gives the status the
  // program exits with for a report (the CLI's), recorded beside them.
  std::string program_version, program_commit, command_line;
  std::function<int(const OptimizeReport&)> exit_status;
};

// What the answer is (the CLI's exit statuses in brackets).
enum class OptimizeVerdict {
  kFaster,          // correct on every test, verified and timed on a GPU, faster (0)
  kUntimed,         // correct on every test, speed not measured: the emulator or no timing (3)
  kUnverified,      // no GPU: nothing ran; the best is chosen by the compile-only rule (3)
  kSlower,          // correct, timed, slower than the sequential code (4)
  kWrongOnHeldOut,  // correct on the search's tests, not on held-out inputs (4)
  kNoneCorrect,     // no candidate was correct; no file written (4)
};
std::string_view OptimizeVerdictName(OptimizeVerdict v);  // "faster", "untimed", ...

// How the search ended (the CLI's exit statuses in brackets).
enum class OptimizeStop {
  kComplete,        // its budget or iterations ran out
  kHarnessFailed,   // the harness failed (OptimizeReport::search.error) (1)
  kInterrupted,     // `cancel` was set (130/143)
  kEndpointFailed,  // the model endpoint kept failing (5)
};

struct OptimizeReport {
  OptimizeVerdict verdict = OptimizeVerdict::kNoneCorrect;
  OptimizeStop stop = OptimizeStop::kComplete;
  std::string stop_note;  // why it stopped early, one line; empty when complete
  std::string signature;  // "void saxpy(int n, float a, const float* x, float* y)"
  std::string model;      // the backend's ModelId
  SearchOutcome search;   // every attempt, the tree, the best
  // The rules' first step, when it was asked for.
  std::optional<RulesSeed> seed;
  // The answer re-verified on held-out inputs (when `heldout` and the answer
  // ran and passed during the search).
  std::optional<VerifyResult> heldout;
  // Why a held-out run that was due was not made or not finished (the time
  // limit, an interruption); empty otherwise.
  std::string heldout_skipped;
  bool timed_out = false;  // the time limit (search.budget.max_wall_seconds) ended the search
  double wall_s = 0;       // from the call to the report, seconds
  // Served from caches instead of being made again: replies from the
  // response cache and candidate builds from the build cache, of all replies
  // and builds (reused verifications of duplicate code are neither).
  int replies = 0, replies_cached = 0, builds = 0, builds_cached = 0;
  std::string device;      // what checked the candidates: a GPU's name, the CPU emulator, or none (compile only)

  // Written files (empty: not written). `output` only when there is a best
  // candidate; for kWrongOnHeldOut it is there for inspection, not as an answer.
  std::filesystem::path output, report_path, problem_dir;
  std::filesystem::path spec_path;  // the inferred spec; empty when one was given
  std::string report_json;          // what report_path holds

  const Attempt* best() const { return search.best_attempt(); }
  // The result the answer is judged by: held-out's when there is one.
  // REQUIRES: best().
  const VerifyResult& final_result() const { return heldout ? *heldout : best()->result; }
  // The speedup reported (held-out's when there is one); 0 without a best.
  double speedup() const { return best() ? (heldout ? heldout->speedup : best()->speedup) : 0; }
};

// Runs the whole job. See the top of this file.
Result<OptimizeReport> Optimize(const OptimizeRequest& request);

}  // namespace regrapht
