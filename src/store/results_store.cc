#include "store/results_store.h"

#include <chrono>
#include <ctime>

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
  wall_ms REAL, created_at TEXT,
  PRIMARY KEY (suite, problem, method, model, config_hash, sample)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
INSERT OR IGNORE INTO meta VALUES ('schema_version', '1');
)";

constexpr const char* kColumns =
    "suite, problem, method, model, config_hash, sample, tier, config_json, seed, verdict, speedup, "
    "reward, candidate_ms, reference_ms, candidate_source, candidate_hash, result_json, env_json, "
    "search_json, tokens_prompt, tokens_generated, generations, verifications, wall_ms, created_at";

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
  return std::unique_ptr<ResultsStore>(new ResultsStore(std::move(db), path));
}

Status ResultsStore::Put(const ResultRow& r) {
  SqliteTransaction tx(db_.get());
  RG_RETURN_IF_ERROR(tx.Begin());
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(std::string("INSERT OR REPLACE INTO results (") + kColumns +
                                            ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
                                            "?16,?17,?18,?19,?20,?21,?22,?23,?24,?25)"));
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
  RG_RETURN_IF_ERROR(st.Run());
  return tx.Commit();
}

Result<bool> ResultsStore::Has(const ResultKey& k) {
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
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace regrapht
