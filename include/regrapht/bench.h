// Benchmarks: one method over a suite of problems, k samples per problem,
// one row per problem x sample in a SQLite results database (docs/bench.md).
// What `regrapht bench` runs, as a library call, so that a program can
// benchmark a method without the CLI:
//
//   BenchOptions o;
//   o.suite_dir = "bench/suites/pareval-lite";
//   o.method = "reference";              // or "rules", or a search method
//   o.db = "results.sqlite";
//   RG_ASSIGN_OR_RETURN(std::unique_ptr<Bench> bench, Bench::Open(o, &listener));
//   RG_ASSIGN_OR_RETURN(BenchSummary s, bench->Run());
//   bench->Finish(exit_status);          // recorded with the run's rows
//
// The run is resumable (rows already stored are skipped unless !resume),
// shardable (shard i of n takes every n-th problem), and concurrent. A
// sample's method: "reference" verifies the suite's expert solutions,
// "rules" the rules' first step (no model), any other name is a search
// method (NewReasoner) whose best candidate is re-checked on held-out inputs
// (verify/heldout.h) when `search.heldout`. Failed candidates are rows, not
// errors; a Status is a failure of the tool (a bad suite, nvcc missing), and
// a run stopped early (interrupted, an endpoint that keeps failing) says so
// in BenchSummary. The library prints nothing on stdout: notes go to the
// BenchListener; the runner's progress bar (options.progress) to stderr.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "regrapht/graph.h"
#include "regrapht/llm.h"
#include "regrapht/prompts.h"
#include "regrapht/search.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht {

// The settings that change a search method's results: the experiment key,
// stored with every row and hashed into the row key, so that rows of
// different settings never mix or resume each other.
struct ExperimentSettings {
  std::string method;               // a NewReasoner name, or "rules"
  std::string model;                // LlmBackend::ModelId()
  SearchOptions options;            // budget, knobs, sampling, shape, seed, protocol
  std::string graph;                // the graph file as given ("": the default)
  std::string retrieval = "bm25";   // bm25 | embeddings
  std::string embed_model;          // a GGUF file; only its file name is keyed
  std::string seed_step = "rules";  // rules | none: the rules' first step
  bool heldout = true;              // the held-out re-check of the answer
};

// `s` as one JSON line. Keys that are off or at the value of an earlier
// release are left out, so that earlier rows keep their hash.
std::string ExperimentKeyJson(const ExperimentSettings& s);

// What a search method's samples use besides the problem. Not owned: must
// outlive Bench::Run.
struct BenchSearchEnv {
  const Graph* graph = nullptr;  // null for methods without the graph
  const ExampleIndex* examples = nullptr;
  LlmBackend* llm = nullptr;
  const PromptLibrary* prompts = nullptr;
};

// Where a run's notes go (the CLI: stderr). Called from the calling thread.
class BenchListener {
 public:
  virtual ~BenchListener() = default;
  // One line for the user, without its newline ("note: ...").
  virtual void Note(const std::string& line) = 0;
};

struct BenchOptions {
  std::string suite_dir;             // suite.json + problem folders
  std::string method = "reference";  // reference | rules | a search method
  std::string db =
      "regrapht-results.sqlite";  // {shard} and {shards} become the shard's index and count
  std::string shard = "0/1";      // i/n, or auto (a Slurm job array's task)
  int samples = 1;                // per problem
  bool resume = true;             // false: redo samples already stored
  bool progress = true;           // the runner's progress bar on stderr
  int jobs = 2;                   // compile jobs and verifications at once
  VerifyOptions verify;           // kernel_form picks the form; cancel: see below
  // Set (Ctrl-C): kills the compile or run in progress and ends the search
  // of each sample in flight; Run installs it as verify.cancel. May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Polled before each sample: non-empty stops the run there, and says why
  // ("interrupted (SIGINT)"). May be empty.
  std::function<std::string()> interrupted;
  // What runs, recorded in every row's run_json.
  std::string command, version, commit;
  // --form kernel and a search method: ParEval's generation-prompts.json
  // (each problem's "cuda" prompt is the task); "": descriptions.
  std::string pareval_prompts;
  // Search methods: their settings (method and model are filled in by Run)
  // and environment, opened by Run after the suite checks (null: a search
  // method is an error). Failed model requests in a row, over every sample,
  // beyond max_endpoint_failures stop the run.
  ExperimentSettings search;
  int max_endpoint_failures = 5;
  int max_in_flight = 1;  // samples in flight for a search method
  std::function<Result<BenchSearchEnv>()> open_search;
};

struct BenchSummary {
  int tasks = 0, skipped = 0, done = 0, correct = 0, failed = 0, unverified = 0;
  int incomplete = 0;                           // samples that did not finish (not stored)
  int incomplete_endpoint = 0;                  // of those, because the model endpoint failed
  int not_started = 0;                          // samples the run stopped before
  std::string stop_reason;                      // empty: every sample was run
  std::vector<std::string> incomplete_reasons;  // "problem #sample: why"
  std::map<std::string, int> changed;           // problem -> rows redone (its content changed)
  int unhashed_kept = 0;                        // rows from before problem hashes, kept
  double wall_s = 0;
  // "cache      3 of 4 replies from the response cache; ..." or "".
  std::string cache_line;
  // The endpoint failed: a sample could not finish for it, or more than
  // max_endpoint_failures requests in a row failed.
  bool endpoint_failed = false;
};

class Bench {
 public:
  // Reads the shard, the suite (with "/kernel" after its name for the
  // kernel form, whose every problem must have a "kernel" section) and
  // opens (creates) the database. Notes the database shared by shards.
  static Result<std::unique_ptr<Bench>> Open(const BenchOptions& options, BenchListener* listener);
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  const std::string& db() const;     // the database, {shard} expanded
  const std::string& suite() const;  // the suite's name as keyed in rows
  int problems() const;              // in the whole suite
  int shard_index() const;
  int shard_count() const;

  // Runs the samples not stored yet. Call once.
  Result<BenchSummary> Run();
  // Records the run's exit status with its rows (ResultsStore::FinishRun).
  // REQUIRES: Run returned its summary.
  Status Finish(int exit_status);

 private:
  struct Impl;
  explicit Bench(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace regrapht
