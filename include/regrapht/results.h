// Results databases (what `regrapht bench` writes, docs/bench.md): merging
// shards' databases into one, repairing a damaged one, and the report of
// what they hold (`regrapht report`).
//
//   ReportOptions o;
//   o.dbs = {"results.sqlite"};
//   o.format = "md";
//   Result<std::string> text = RenderReport(o);
//
// Thread safety: the functions may be called from any thread; two that
// write one database are serialised by SQLite's lock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "regrapht/results_counts.h"
#include "regrapht/status.h"

namespace regrapht {

struct MergeCounts {
  int inputs = 0;
  int64_t rows_added = 0;  // rows new to the output
  int64_t rows_same = 0;   // rows the output already had (the same row twice is one row)
  int64_t rows = 0;        // rows in the output afterwards
};

// Merges the databases `inputs` (read only) into `output` (created, or
// added to): the same row twice is one row; rows that conflict are an
// error naming both files. A merge that fails (a missing or bad input, a
// conflict) leaves no output it created: an empty database would pass for a
// result.
Result<MergeCounts> MergeResults(const std::string& output, const std::vector<std::string>& inputs);

// Copies the readable, valid rows and the plan of the damaged database
// `input` (read only; one that `bench` and the report refuse) to `output`,
// which must not exist.
Result<RepairCounts> RepairResults(const std::string& input, const std::string& output);

struct ReportOptions {
  // The databases, read only: their union in memory, checked for
  // conflicting rows as MergeResults does. A report never creates,
  // converts or upgrades a file; a 0-byte or foreign file is refused.
  std::vector<std::string> dbs;
  // md | csv | json (the metrics tables: pass@k, speedup@k, geomean,
  // fast_p, with budget use and the spread across seeds), or html (one
  // self-contained page: tables, figures, the per-problem table with the
  // candidates' sources, environments).
  std::string format = "md";
  // A suite folder: its experiments only, and its problems are the expected
  // set the coverage checks for missing rows (without it: the plan the runs
  // recorded); or a suite name: only that suite. "": every suite.
  std::string suite;
  std::string method;  // only this method; "": every method
  std::vector<int> ks = {1};
  int bootstrap = 1000;         // resamples for the 95% intervals
  std::string timing = "call";  // call (transfers included) | kernel (kernel-only time)
  // md, csv or json: one row per problem and experiment in place of the
  // metrics tables (html always has it).
  bool per_problem = false;
  // Markdown: our rows in the layout of the paper's Table 1 and 2 beside its
  // numbers, read from `paper_data` ("": the shipped
  // DataDir()/paper/regrapht-2510.19873.json).
  bool paper = false;
  std::string paper_data;
};

// The report of `options.dbs` in `options.format`. Errors: a database that
// cannot be read or conflicts with another (named), a suite folder that
// does not load (file and field), paper data that does not parse, and a
// filter (suite, method) that keeps nothing of databases holding other
// suites or methods: NotFound naming what they hold (an empty table would
// read as "no results").
Result<std::string> RenderReport(const ReportOptions& options);

}  // namespace regrapht
