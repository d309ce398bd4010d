// Benchmark results in SQLite: one row per problem x method x sample.
//
// Rows are written one transaction each, so a run killed at any moment
// (even kill -9) keeps every finished row and nothing half-written; a resumed
// run asks Has() and redoes only what is missing. Several processes on one
// machine may write one file (WAL, busy timeout). WAL needs shared memory, so
// processes on different machines (shards of a cluster run on NFS or Lustre)
// must each write their own file and merge them at the end (MergeFrom;
// docs/scale.md).
//
// Besides the results, a database holds the *plan* of every run that wrote
// to it: the suite's problems and the samples asked for, for each method,
// model and config, so a report can say which rows are still missing.
//
// Thread safety: every method may be called from several threads (calls on
// one store are serialised: SQLite transactions belong to the connection).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "regrapht/results_counts.h"
#include "regrapht/status.h"

namespace regrapht {

class SqliteDb;

// Identity of an experiment: what was run, on what, with which settings.
struct ResultKey {
  std::string suite;
  std::string problem;
  std::string method;
  std::string model;        // "" for methods without a model (reference)
  std::string config_hash;  // hash of the settings that change results (budget, temperature, ...)
  int sample = 0;

  bool operator==(const ResultKey&) const = default;
};

struct ResultRow {
  ResultKey key;
  std::string tier;                // easy | medium | hard | "" (untiered suites)
  std::string config_json;         // the settings behind config_hash
  uint64_t seed = 0;
  std::string verdict;             // VerdictName()
  double speedup = 0;
  double reward = -1;
  double candidate_ms = 0;         // median, 0 unless correct
  double reference_ms = 0;
  std::string candidate_source;
  std::string candidate_hash;
  std::string result_json;         // the whole VerifyResult
  std::string env_json;            // its Environment
  std::string search_json;         // the method's trace (search tree, attempts), may be ""
  int64_t tokens_prompt = 0;
  int64_t tokens_generated = 0;
  int generations = 0;             // small-model generations spent on this sample
  int verifications = 0;           // harness verifications spent
  double wall_ms = 0;
  std::string created_at;          // ISO 8601 UTC, set by Put() when empty
  // Held-out evaluation (docs/bench.md): verdict, speedup and result_json
  // above are the held-out run's; these are what the method's own selection
  // saw. Unset (NULL) when no held-out run was made (reference rows, failed
  // or unverified answers, --no-heldout, databases from before it).
  std::optional<std::string> search_verdict;
  std::optional<double> search_speedup;
  // What ran (docs/bench.md "What ran"): a JSON object with the run's id,
  // command line, version, commit and device, what the caches served this
  // row (replies, builds), and, once the run ended (FinishRun), its exit
  // status and wall time. Like wall_ms, not part of the row's outcome
  // (merges ignore it). "" in rows from before it.
  std::string run_json;
  // The content hash of the problem the row was made for (its spec,
  // reference, description and expert solutions: bench::ProblemContentHash).
  // A resumed run redoes a row whose problem changed since. Empty (NULL):
  // unknown, a row from before it was recorded.
  std::string problem_hash;
};

// One problem of a run's plan: the run means to store `samples` rows for it.
struct PlanEntry {
  std::string suite, problem, tier, method, model, config_hash;
  int samples = 0;

  bool operator==(const PlanEntry&) const = default;
};

// What Repair did (the public struct: regrapht/results_counts.h).
using RepairStats = RepairCounts;

// What MergeFrom did.
struct MergeStats {
  int inputs = 0;
  int64_t rows_added = 0;  // rows new to the output
  int64_t rows_same = 0;   // rows the output already had (the same row twice is one row)
};

class ResultsStore {
 public:
  // Opens or creates the database (and its folder). ":memory:" for tests.
  // An existing file is checked first (Verify): a damaged file or a row that
  // cannot mean anything is an error naming the file (and the row), and
  // nothing is read from or written to it.
  static Result<std::unique_ptr<ResultsStore>> Open(const fs::path& path);

  // Copies every readable, valid row and plan entry of the (possibly
  // damaged) database `in` to a new database `out` (which must not exist).
  // Rows are read one by one, so a damaged page loses only the rows on it.
  static Result<RepairStats> Repair(const fs::path& in, const fs::path& out);

  // True for the verdicts a row may hold (verify's VerdictName values).
  static bool IsKnownVerdict(std::string_view verdict);
  ~ResultsStore();

  // Inserts a row in its own transaction. A row with the same key replaces
  // the old one (a re-run of that sample).
  Status Put(const ResultRow& row);
  Result<bool> Has(const ResultKey& key);
  // The problem_hash of the row with `key`: nullopt when there is no such
  // row, "" when the row predates problem hashes.
  Result<std::optional<std::string>> StoredProblemHash(const ResultKey& key);
  // All rows, optionally of one suite and/or method, ordered by suite,
  // method, model, config, problem, sample.
  Result<std::vector<ResultRow>> Query(const std::string& suite = "", const std::string& method = "");

  // Records how the run `run_id` ended in the run_json of every row it
  // wrote: "exit_status" and "run_wall_s". Rows of a run that never ends
  // (kill -9) keep neither.
  Status FinishRun(const std::string& run_id, int exit_status, double wall_s);

  // Records what a run means to produce, in one transaction. An entry already
  // planned keeps the larger sample count.
  Status PutPlan(const std::vector<PlanEntry>& entries);
  // The plan, ordered by suite, method, model, config, problem.
  Result<std::vector<PlanEntry>> QueryPlan();

  // Adds the rows and plans of the databases at `inputs` (read, never
  // written) to this one. Idempotent: a row whose key is already here with
  // the same outcome is one row. Two rows with one key and different outcomes
  // (verdict, speedup, timings, candidate, seed, config, tokens, tier; when
  // and how long a row took to make do not count) are a conflict: nothing is
  // written and the error names both files and the row's key. NotFound for an
  // input that does not exist, InvalidArgument for one without a results table.
  Result<MergeStats> MergeFrom(const std::vector<fs::path>& inputs);

  const fs::path& path() const { return path_; }

 private:
  ResultsStore(std::unique_ptr<SqliteDb> db, fs::path path);
  // SQLite's quick_check and the row checks over schema `schema` ("main" or
  // an attached "src"); `file` names it in errors.
  Status Verify(const std::string& schema, const fs::path& file);
  // MergeFrom's passes over one attached input ("src").
  Status CheckMergeConflicts(const fs::path& input);
  Result<int64_t> CopyAttached();
  std::mutex mu_;  // one transaction at a time on db_
  std::unique_ptr<SqliteDb> db_;
  fs::path path_;
};

}  // namespace regrapht
