#include "store/results_store.h"

#include <chrono>
#include <ctime>
#include <set>
#include <string_view>
#include <utility>

#include "core/sqlite_db.h"

namespace regrapht {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS results (
  suite TEXT NOT NULL, problem TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL,
  config_hash TEXT NOT NULL, sample INTEGER NOT NULL,
  tier TEXT, config_json TEXT, seed INTEGER,
  verdict TEXT NOT NULL, speedup REAL, reward REAL, candidate_ms REAL, reference_ms REAL,
  candidate_source TEXT, candidate_hash TEXT, result_json TEXT, env_json TEXT, search_json TEXT,
  tokens_prompt INTEGER, tokens_generated INTEGER, generations INTEGER, verifications INTEGER,
  wall_ms REAL, created_at TEXT, search_verdict TEXT, search_speedup REAL,
  PRIMARY KEY (suite, problem, method, model, config_hash, sample)
);
CREATE TABLE IF NOT EXISTS plan (
  suite TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL, config_hash TEXT NOT NULL,
  problem TEXT NOT NULL, tier TEXT, samples INTEGER NOT NULL,
  PRIMARY KEY (suite, method, model, config_hash, problem)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
INSERT OR IGNORE INTO meta VALUES ('schema_version', '1');
)";

constexpr const char* kColumns =
    "suite, problem, method, model, config_hash, sample, tier, config_json, seed, verdict, speedup, "
    "reward, candidate_ms, reference_ms, candidate_source, candidate_hash, result_json, env_json, "
    "search_json, tokens_prompt, tokens_generated, generations, verifications, wall_ms, created_at, "
    "search_verdict, search_speedup";

// Columns added after the first release, with their types: a database made
// before them gets them on Open (NULL in old rows).
constexpr std::pair<const char*, const char*> kAddedColumns[] = {{"search_verdict", "TEXT"},
                                                                 {"search_speedup", "REAL"}};

// A row's key, and what decides whether two rows with one key are the same
// row: everything but when and how long it took (wall_ms, created_at) and the
// records of it that carry compile and run times (result_json, env_json,
// search_json).
constexpr const char* kKeyColumns[] = {"suite", "problem", "method", "model", "config_hash", "sample"};
constexpr const char* kOutcomeColumns[] = {"tier",           "config_json",      "seed",         "verdict",
                                           "speedup",        "reward",           "candidate_ms", "reference_ms",
                                           "candidate_source", "candidate_hash", "tokens_prompt",
                                           "tokens_generated", "generations",    "verifications"};
constexpr const char* kPlanColumns = "suite, method, model, config_hash, problem, tier, samples";

std::string ColumnList(const char* const* begin, const char* const* end, const std::string& prefix) {
  std::string out;
  for (auto it = begin; it != end; ++it) out += (out.empty() ? "" : ", ") + prefix + *it;
  return out;
}
std::string KeyList(const std::string& prefix = "") {
  return ColumnList(std::begin(kKeyColumns), std::end(kKeyColumns), prefix);
}
std::string OutcomeList(const std::string& prefix = "") {
  return ColumnList(std::begin(kOutcomeColumns), std::end(kOutcomeColumns), prefix);
}

// "suite s, problem p, method m, model x, config c, sample 0" from columns
// [first, first + 6) of `st`.
std::string DescribeKey(const SqliteStatement& st, int first) {
  std::string model = st.ColumnText(first + 3);
  return "suite " + st.ColumnText(first) + ", problem " + st.ColumnText(first + 1) + ", method " +
         st.ColumnText(first + 2) + ", model " + (model.empty() ? "-" : model) + ", config " +
         st.ColumnText(first + 4) + ", sample " + st.ColumnText(first + 5);
}

// The columns of `schema`.results ("main" or an attached "src").
Result<std::set<std::string>> ResultColumns(SqliteDb* db, const std::string& schema) {
  RG_ASSIGN_OR_RETURN(auto st, db->Prepare("PRAGMA " + schema + ".table_info(results)"));
  std::set<std::string> names;
  while (true) {
    RG_ASSIGN_OR_RETURN(bool has, st.Step());
    if (!has) break;
    names.insert(st.ColumnText(1));
  }
  return names;
}

// kColumns as a SELECT list over an attached database that may predate some
// of them (NULL in their place).
Result<std::string> SelectListFrom(SqliteDb* db, const std::string& schema) {
  RG_ASSIGN_OR_RETURN(auto have, ResultColumns(db, schema));
  std::string list = kColumns;
  for (const auto& [name, type] : kAddedColumns) {
    if (have.count(name)) continue;
    size_t at = list.find(name);
    list.replace(at, std::string_view(name).size(), std::string("NULL AS ") + name);
  }
  return list;
}

std::string NowIso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

ResultsStore::ResultsStore(std::unique_ptr<SqliteDb> db, fs::path path)
    : db_(std::move(db)), path_(std::move(path)) {}
ResultsStore::~ResultsStore() = default;

Result<std::unique_ptr<ResultsStore>> ResultsStore::Open(const fs::path& path) {
  RG_ASSIGN_OR_RETURN(auto db, SqliteDb::Open(path));
  RG_RETURN_IF_ERROR(db->Exec(kSchema));
  RG_ASSIGN_OR_RETURN(auto have, ResultColumns(db.get(), "main"));
  for (const auto& [name, type] : kAddedColumns) {
    if (have.count(name)) continue;
    RG_RETURN_IF_ERROR(db->Exec(std::string("ALTER TABLE results ADD COLUMN ") + name + " " + type)
                           .WithContext(path.string() + ": upgrading the results table"));
  }
  return std::unique_ptr<ResultsStore>(new ResultsStore(std::move(db), path));
}

Status ResultsStore::Put(const ResultRow& r) {
  std::lock_guard lock(mu_);
  SqliteTransaction tx(db_.get());
  RG_RETURN_IF_ERROR(tx.Begin());
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(std::string("INSERT OR REPLACE INTO results (") + kColumns +
                                            ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
                                            "?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27)"));
  int i = 1;
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.suite));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.problem));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.method));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.model));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.config_hash));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.key.sample));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.tier));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.config_json));
  RG_RETURN_IF_ERROR(st.Bind(i++, static_cast<int64_t>(r.seed)));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.verdict));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.speedup));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.reward));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.candidate_ms));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.reference_ms));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.candidate_source));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.candidate_hash));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.result_json));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.env_json));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.search_json));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.tokens_prompt));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.tokens_generated));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.generations));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.verifications));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.wall_ms));
  RG_RETURN_IF_ERROR(st.Bind(i++, r.created_at.empty() ? NowIso() : r.created_at));
  RG_RETURN_IF_ERROR(r.search_verdict ? st.Bind(i, *r.search_verdict) : st.BindNull(i));
  ++i;
  RG_RETURN_IF_ERROR(r.search_speedup ? st.Bind(i, *r.search_speedup) : st.BindNull(i));
  RG_RETURN_IF_ERROR(st.Run());
  return tx.Commit();
}

Result<bool> ResultsStore::Has(const ResultKey& k) {
  std::lock_guard lock(mu_);
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(
                                   "SELECT 1 FROM results WHERE suite=?1 AND problem=?2 AND method=?3 AND "
                                   "model=?4 AND config_hash=?5 AND sample=?6"));
  RG_RETURN_IF_ERROR(st.Bind(1, k.suite));
  RG_RETURN_IF_ERROR(st.Bind(2, k.problem));
  RG_RETURN_IF_ERROR(st.Bind(3, k.method));
  RG_RETURN_IF_ERROR(st.Bind(4, k.model));
  RG_RETURN_IF_ERROR(st.Bind(5, k.config_hash));
  RG_RETURN_IF_ERROR(st.Bind(6, k.sample));
  return st.Step();
}

Result<std::vector<ResultRow>> ResultsStore::Query(const std::string& suite, const std::string& method) {
  std::lock_guard lock(mu_);
  std::string sql = std::string("SELECT ") + kColumns +
                    " FROM results WHERE (?1 = '' OR suite = ?1) AND (?2 = '' OR method = ?2) "
                    "ORDER BY suite, method, model, config_hash, problem, sample";
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(sql));
  RG_RETURN_IF_ERROR(st.Bind(1, suite));
  RG_RETURN_IF_ERROR(st.Bind(2, method));
  std::vector<ResultRow> rows;
  while (true) {
    RG_ASSIGN_OR_RETURN(bool has, st.Step());
    if (!has) break;
    ResultRow r;
    int c = 0;
    r.key.suite = st.ColumnText(c++);
    r.key.problem = st.ColumnText(c++);
    r.key.method = st.ColumnText(c++);
    r.key.model = st.ColumnText(c++);
    r.key.config_hash = st.ColumnText(c++);
    r.key.sample = static_cast<int>(st.ColumnInt(c++));
    r.tier = st.ColumnText(c++);
    r.config_json = st.ColumnText(c++);
    r.seed = static_cast<uint64_t>(st.ColumnInt(c++));
    r.verdict = st.ColumnText(c++);
    r.speedup = st.ColumnDouble(c++);
    r.reward = st.ColumnDouble(c++);
    r.candidate_ms = st.ColumnDouble(c++);
    r.reference_ms = st.ColumnDouble(c++);
    r.candidate_source = st.ColumnText(c++);
    r.candidate_hash = st.ColumnText(c++);
    r.result_json = st.ColumnText(c++);
    r.env_json = st.ColumnText(c++);
    r.search_json = st.ColumnText(c++);
    r.tokens_prompt = st.ColumnInt(c++);
    r.tokens_generated = st.ColumnInt(c++);
    r.generations = static_cast<int>(st.ColumnInt(c++));
    r.verifications = static_cast<int>(st.ColumnInt(c++));
    r.wall_ms = st.ColumnDouble(c++);
    r.created_at = st.ColumnText(c++);
    if (!st.ColumnIsNull(c)) r.search_verdict = st.ColumnText(c);
    ++c;
    if (!st.ColumnIsNull(c)) r.search_speedup = st.ColumnDouble(c);
    rows.push_back(std::move(r));
  }
  return rows;
}

Status ResultsStore::PutPlan(const std::vector<PlanEntry>& entries) {
  std::lock_guard lock(mu_);
  SqliteTransaction tx(db_.get());
  RG_RETURN_IF_ERROR(tx.Begin());
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(std::string("INSERT INTO plan (") + kPlanColumns +
                                            ") VALUES (?1,?2,?3,?4,?5,?6,?7) "
                                            "ON CONFLICT (suite, method, model, config_hash, problem) "
                                            "DO UPDATE SET samples = max(samples, excluded.samples)"));
  for (const PlanEntry& e : entries) {
    st.Reset(/*clear_bindings=*/true);
    RG_RETURN_IF_ERROR(st.Bind(1, e.suite));
    RG_RETURN_IF_ERROR(st.Bind(2, e.method));
    RG_RETURN_IF_ERROR(st.Bind(3, e.model));
    RG_RETURN_IF_ERROR(st.Bind(4, e.config_hash));
    RG_RETURN_IF_ERROR(st.Bind(5, e.problem));
    RG_RETURN_IF_ERROR(st.Bind(6, e.tier));
    RG_RETURN_IF_ERROR(st.Bind(7, e.samples));
    RG_RETURN_IF_ERROR(st.Run());
  }
  return tx.Commit();
}

Result<std::vector<PlanEntry>> ResultsStore::QueryPlan() {
  std::lock_guard lock(mu_);
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(std::string("SELECT ") + kPlanColumns +
                                            " FROM plan ORDER BY suite, method, model, config_hash, problem"));
  std::vector<PlanEntry> plan;
  while (true) {
    RG_ASSIGN_OR_RETURN(bool has, st.Step());
    if (!has) break;
    PlanEntry e;
    e.suite = st.ColumnText(0);
    e.method = st.ColumnText(1);
    e.model = st.ColumnText(2);
    e.config_hash = st.ColumnText(3);
    e.problem = st.ColumnText(4);
    e.tier = st.ColumnText(5);
    e.samples = static_cast<int>(st.ColumnInt(6));
    plan.push_back(std::move(e));
  }
  return plan;
}

// ---- Merging ----------------------------------------------------------------
//
// Two passes over the inputs, each attached in turn as "src" (SQLite limits
// how many databases one connection attaches at once):
//   1. check: every input row against temp.merge_seen, the key and outcome of
//      each row seen so far (this database's, then earlier inputs') and the
//      file it came from; the first conflict stops the merge before anything
//      is written;
//   2. copy: INSERT OR IGNORE the rows, upsert the plans, one transaction per
//      input. A merge killed in this pass leaves whole inputs merged; running
//      it again completes it.

Status ResultsStore::CheckMergeConflicts(const fs::path& input) {
  std::string on;
  for (const char* k : kKeyColumns) on += std::string(on.empty() ? "" : " AND ") + "s." + k + " = t." + k;
  std::string differs;
  for (const char* c : kOutcomeColumns) {
    differs += std::string(differs.empty() ? "" : " OR ") + "s." + c + " IS NOT t." + c;
  }
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT " + KeyList("s.") + ", t.file, " + OutcomeList("s.") + ", " +
                                            OutcomeList("t.") + " FROM src.results s JOIN temp.merge_seen t ON " +
                                            on + " WHERE " + differs + " LIMIT 1"));
  RG_ASSIGN_OR_RETURN(bool conflict, st.Step());
  if (conflict) {
    constexpr int kOutcomes = static_cast<int>(std::size(kOutcomeColumns));
    const int first = static_cast<int>(std::size(kKeyColumns)) + 1;
    std::string fields;
    for (int i = 0; i < kOutcomes; ++i) {
      if (st.ColumnIsNull(first + i) == st.ColumnIsNull(first + kOutcomes + i) &&
          st.ColumnText(first + i) == st.ColumnText(first + kOutcomes + i)) {
        continue;
      }
      std::string field = kOutcomeColumns[i];
      if (field == "verdict" || field == "speedup") {
        field += " " + st.ColumnText(first + kOutcomes + i) + " vs " + st.ColumnText(first + i);
      }
      fields += (fields.empty() ? "" : ", ") + field;
    }
    return Status::InvalidArgument("conflicting rows: " + st.ColumnText(6) + " and " + input.string() +
                                      " both hold " + DescribeKey(st, 0) + " with different outcomes (" +
                                      fields + "); nothing was merged. Keep one of the two files out of the merge, "
                                      "or delete that row from one of them");
  }
  RG_ASSIGN_OR_RETURN(auto seen, db_->Prepare("INSERT OR IGNORE INTO temp.merge_seen SELECT " + KeyList() + ", " +
                                              OutcomeList() + ", ?1 FROM src.results"));
  RG_RETURN_IF_ERROR(seen.Bind(1, input.string()));
  return seen.Run();
}

Result<int64_t> ResultsStore::CopyAttached() {
  SqliteTransaction tx(db_.get());
  RG_RETURN_IF_ERROR(tx.Begin());
  RG_ASSIGN_OR_RETURN(std::string select, SelectListFrom(db_.get(), "src"));
  RG_RETURN_IF_ERROR(db_->Exec(std::string("INSERT OR IGNORE INTO main.results (") + kColumns + ") SELECT " +
                               select + " FROM src.results"));
  int64_t added = db_->Changes();
  RG_ASSIGN_OR_RETURN(auto has_plan, db_->Prepare("SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND "
                                                  "name = 'plan'"));
  RG_ASSIGN_OR_RETURN(bool plan, has_plan.Step());
  if (plan) {
    // "WHERE true" keeps SQLite from reading ON CONFLICT as a join clause.
    RG_RETURN_IF_ERROR(db_->Exec(std::string("INSERT INTO main.plan (") + kPlanColumns + ") SELECT " +
                                 kPlanColumns + " FROM src.plan WHERE true ON CONFLICT (suite, method, model, "
                                 "config_hash, problem) DO UPDATE SET samples = max(samples, excluded.samples)"));
  }
  RG_RETURN_IF_ERROR(tx.Commit());
  return added;
}

Result<MergeStats> ResultsStore::MergeFrom(const std::vector<fs::path>& inputs) {
  std::lock_guard lock(mu_);
  MergeStats stats;
  std::vector<fs::path> todo;
  for (const fs::path& in : inputs) {
    std::error_code ec;
    if (!fs::exists(in, ec)) return Status::NotFound(in.string() + ": no such database");
    if (path_ != ":memory:" && fs::equivalent(in, path_, ec)) continue;  // merging a file into itself
    todo.push_back(in);
  }
  auto attach = [&](const fs::path& in) -> Status {
    RG_ASSIGN_OR_RETURN(auto st, db_->Prepare("ATTACH DATABASE ?1 AS src"));
    RG_RETURN_IF_ERROR(st.Bind(1, in.string()));
    RG_RETURN_IF_ERROR(st.Run());
    RG_ASSIGN_OR_RETURN(auto has, db_->Prepare("SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND "
                                               "name = 'results'"));
    auto found = has.Step();
    if (!found.ok() || !*found) {
      (void)db_->Exec("DETACH DATABASE src");
      return found.ok() ? Status::InvalidArgument(in.string() + ": not a regrapht results database (no results table)")
                        : found.status().WithContext(in.string());
    }
    return Status::Ok();
  };
  // 1. Check.
  RG_RETURN_IF_ERROR(db_->Exec("DROP TABLE IF EXISTS temp.merge_seen; CREATE TEMP TABLE merge_seen (" + KeyList() +
                               ", " + OutcomeList() + ", file, PRIMARY KEY (" + KeyList() + "))"));
  {
    RG_ASSIGN_OR_RETURN(auto own, db_->Prepare("INSERT INTO temp.merge_seen SELECT " + KeyList() + ", " +
                                               OutcomeList() + ", ?1 FROM main.results"));
    RG_RETURN_IF_ERROR(own.Bind(1, path_.string()));
    RG_RETURN_IF_ERROR(own.Run());
  }
  for (const fs::path& in : todo) {
    RG_RETURN_IF_ERROR(attach(in));
    Status checked = CheckMergeConflicts(in);
    RG_RETURN_IF_ERROR(db_->Exec("DETACH DATABASE src"));
    RG_RETURN_IF_ERROR(checked);
  }
  RG_RETURN_IF_ERROR(db_->Exec("DROP TABLE temp.merge_seen"));
  // 2. Copy.
  for (const fs::path& in : todo) {
    RG_RETURN_IF_ERROR(attach(in));
    Result<int64_t> total = [&]() -> Result<int64_t> {
      RG_ASSIGN_OR_RETURN(auto count, db_->Prepare("SELECT count(*) FROM src.results"));
      RG_RETURN_IF_ERROR(count.Step().status());
      return count.ColumnInt(0);
    }();
    Result<int64_t> added = total.ok() ? CopyAttached() : Result<int64_t>(total.status());
    RG_RETURN_IF_ERROR(db_->Exec("DETACH DATABASE src"));
    if (!added.ok()) return added.status().WithContext("merging " + in.string());
    ++stats.inputs;
    stats.rows_added += *added;
    stats.rows_same += *total - *added;
  }
  return stats;
}

}  // namespace regrapht
