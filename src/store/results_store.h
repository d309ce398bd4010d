// Benchmark results in SQLite: one row per problem x method x sample.
//
// Rows are written one transaction each, so a run killed at any moment
// (even kill -9) keeps every finished row and nothing half-written; a resumed
// run asks Has() and redoes only what is missing. Several processes may
// write one file (WAL, busy timeout), e.g. shards of the same run.
//
// Thread safety: Put/Has/Query may be called from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/fs.h"
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
};

class ResultsStore {
 public:
  // Opens or creates the database (and its folder). ":memory:" for tests.
  static Result<std::unique_ptr<ResultsStore>> Open(const fs::path& path);
  ~ResultsStore();

  // Inserts a row in its own transaction. A row with the same key replaces
  // the old one (a re-run of that sample).
  Status Put(const ResultRow& row);
  Result<bool> Has(const ResultKey& key);
  // All rows, optionally of one suite and/or method, ordered by suite,
  // method, model, config, problem, sample.
  Result<std::vector<ResultRow>> Query(const std::string& suite = "", const std::string& method = "");

  const fs::path& path() const { return path_; }

 private:
  ResultsStore(std::unique_ptr<SqliteDb> db, fs::path path);
  std::unique_ptr<SqliteDb> db_;
  fs::path path_;
};

}  // namespace regrapht
