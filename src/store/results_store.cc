#include "store/results_store.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <optional>
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
  verdict TEXT NOT NULL CHECK (verdict <> ''),
  speedup REAL CHECK (typeof(speedup) IN ('real', 'integer', 'null') AND NOT speedup < 0),
  reward REAL CHECK (typeof(reward) IN ('real', 'integer', 'null')),
  candidate_ms REAL CHECK (typeof(candidate_ms) IN ('real', 'integer', 'null') AND NOT candidate_ms < 0),
  reference_ms REAL CHECK (typeof(reference_ms) IN ('real', 'integer', 'null') AND NOT reference_ms < 0),
  candidate_source TEXT, candidate_hash TEXT, result_json TEXT, env_json TEXT, search_json TEXT,
  tokens_prompt INTEGER CHECK (typeof(tokens_prompt) IN ('integer', 'null')),
  tokens_generated INTEGER CHECK (typeof(tokens_generated) IN ('integer', 'null')),
  generations INTEGER CHECK (typeof(generations) IN ('integer', 'null')),
  verifications INTEGER CHECK (typeof(verifications) IN ('integer', 'null')),
  wall_ms REAL CHECK (typeof(wall_ms) IN ('real', 'integer', 'null')), created_at TEXT,
  search_verdict TEXT,
  search_speedup REAL CHECK (typeof(search_speedup) IN ('real', 'integer', 'null') AND NOT search_speedup < 0),
  run_json TEXT,
  problem_hash TEXT,
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
    "search_verdict, search_speedup, run_json, problem_hash";

constexpr int ColumnCount(std::string_view list) {
  int n = 1;
  for (char c : list) n += c == ',';
  return n;
}
static_assert(ColumnCount(kColumns) == 29);

// Columns added after the first release, with their types: a database made
// before them gets them on Open (NULL in old rows).
constexpr std::pair<const char*, const char*> kAddedColumns[] = {
    {"search_verdict", "TEXT"}, {"search_speedup", "REAL"}, {"run_json", "TEXT"}, {"problem_hash", "TEXT"}};

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

// The verdicts a row may hold: verify's VerdictName values (the store does
// not depend on verify; bench's report_test checks the two lists agree).
constexpr std::string_view kVerdicts[] = {"correct",       "compiled_only",    "static_reject",
                                          "compile_error", "runtime_error",    "timeout",
                                          "wrong_answer",  "nondeterministic", "implausible_speed",
                                          "race",          "host_compute",     "not_emulated"};

// Numeric columns and what they may hold, checked when a database is opened.
struct NumericColumn {
  const char* name;
  bool integer;  // INTEGER (else REAL or INTEGER)
  bool non_negative;
};
constexpr NumericColumn kNumericColumns[] = {
    {"sample", true, true},        {"seed", true, false},
    {"speedup", false, true},      {"reward", false, false},
    {"candidate_ms", false, true}, {"reference_ms", false, true},
    {"tokens_prompt", true, true}, {"tokens_generated", true, true},
    {"generations", true, true},   {"verifications", true, true},
    {"wall_ms", false, true}};

// SELECT list of the row checks: the key (6), the verdict, then per numeric
// column its typeof() and its value.
std::string CheckColumns() {
  std::string out = KeyList() + ", verdict";
  for (const auto& c : kNumericColumns) out += std::string(", typeof(") + c.name + "), " + c.name;
  return out;
}

// Why the row under `st` (columns as CheckColumns from column `first`)
// cannot mean anything, or nullopt if it can.
std::optional<std::string> RowProblem(const SqliteStatement& st, int first = 0) {
  std::string verdict = st.ColumnText(first + 6);
  if (!ResultsStore::IsKnownVerdict(verdict)) {
    std::string known;
    for (auto v : kVerdicts) known += (known.empty() ? "" : ", ") + std::string(v);
    return "verdict '" + verdict + "' is not a verdict (" + known + ")";
  }
  int col = first + 7;
  for (const auto& c : kNumericColumns) {
    std::string type = st.ColumnText(col);
    std::string text = st.ColumnText(col + 1);
    col += 2;
    if (type == "null") continue;
    if (type != "integer" && (c.integer || type != "real")) {
      return std::string(c.name) + " '" + text + "' is not " +
             (c.integer ? "an integer" : "a number");
    }
    double v = st.ColumnDouble(col - 1);
    if (!std::isfinite(v)) return std::string(c.name) + " " + text + " is not finite";
    if (c.non_negative && v < 0) return std::string(c.name) + " " + text + " is negative";
  }
  return std::nullopt;
}

std::string RepairHint(const fs::path& path) {
  return "`regrapht bench repair --db " + path.string() +
         " -o NEW.db` copies its readable, valid rows to a new file";
}

// Why the machine, not the file, keeps `path` from being opened or written:
// a read-only file system, a full disk, no write permission; nullopt when
// none of these holds and SQLite's message names no such cause. A database
// refused for one of these is not damaged and needs no repair.
std::optional<std::string> MachineProblem(const fs::path& path, const std::string& sqlite_message) {
  fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) == 0) {
    if (vfs.f_flag & ST_RDONLY) return "the file system holding it is read-only";
    if (vfs.f_bavail == 0 || static_cast<double>(vfs.f_bavail) * vfs.f_frsize < 64 * 1024) {
      return "the disk holding it is full (" + std::to_string(vfs.f_bavail * vfs.f_frsize) + " bytes free)";
    }
  }
  if (::access(dir.c_str(), W_OK) != 0) return "its folder " + dir.string() + " is not writable";
  std::error_code ec;
  if (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0) return "the file is not writable";
  for (const char* full : {"database or disk is full", "disk is full"}) {
    if (sqlite_message.find(full) != std::string::npos) return "the disk holding it is full";
  }
  if (sqlite_message.find("readonly") != std::string::npos) return "it cannot be written here (read-only)";
  if (sqlite_message.find("disk I/O error") != std::string::npos) {
    return "the disk reported an I/O error (full, read-only or failing storage)";
  }
  return std::nullopt;
}

Status MachineError(const fs::path& path, const std::string& why, const Status& sqlite) {
  return Status::IoError(path.string() + ": cannot use the results database: " + why + " (SQLite: " +
                         sqlite.message() + "). This is the machine, not the file: it is not known to be "
                         "damaged and needs no repair; nothing was changed. Free space, make it writable, or "
                         "use another --db");
}

// A database given by name must be a regular file (or not exist yet, where
// `may_create`): never a device, FIFO or folder, which SQLite would open.
// An existing file must look like SQLite: a 0-byte file or another format
// is refused, never turned into a database.
Status CheckDatabaseFile(const fs::path& path, bool may_create) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) {
    if (may_create) return Status::Ok();
    return Status::NotFound(path.string() + ": no such database");
  }
  if (!fs::is_regular_file(st)) {
    return Status::InvalidArgument(path.string() + ": not a regular file (" +
                                   (fs::is_directory(st) ? "a folder" : "a device, FIFO or socket") +
                                   "): a results database is an SQLite file");
  }
  if (fs::file_size(path, ec) == 0 && !ec) {
    if (may_create) return Status::Ok();  // bench starts an empty file it was pointed at
    return Status::InvalidArgument(path.string() + ": empty (0 bytes): not a results database; nothing was written");
  }
  char head[16] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(head, sizeof head);
  if (in.gcount() < 16 || std::string_view(head, 16) != std::string_view("SQLite format 3\0", 16)) {
    return Status::InvalidArgument(path.string() +
                                   ": not a readable results database: not an SQLite file (its first 16 bytes are "
                                   "not SQLite's header); nothing was read or written");
  }
  return Status::Ok();
}

// Reads the columns of kColumns starting at `c` into a row.
ResultRow ReadRow(const SqliteStatement& st, int c) {
  ResultRow r;
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
  ++c;
  r.run_json = st.ColumnText(c++);
  if (!st.ColumnIsNull(c)) r.problem_hash = st.ColumnText(c);
  return r;
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

bool ResultsStore::IsKnownVerdict(std::string_view verdict) {
  for (auto v : kVerdicts) {
    if (v == verdict) return true;
  }
  return false;
}

Result<std::unique_ptr<ResultsStore>> ResultsStore::Open(const fs::path& path) {
  std::error_code ec;
  const bool memory = path == ":memory:";
  if (!memory) RG_RETURN_IF_ERROR(CheckDatabaseFile(path, /*may_create=*/true));
  bool existing = !memory && fs::exists(path, ec) && fs::file_size(path, ec) > 0 && !ec;
  auto machine = [&](const Status& s) -> std::optional<Status> {
    if (memory) return std::nullopt;
    auto why = MachineProblem(path, s.message());
    if (!why) return std::nullopt;
    return MachineError(path, *why, s);
  };
  auto db = SqliteDb::Open(path);
  if (!db.ok()) {
    if (auto m = machine(db.status())) return *m;
    if (!existing) return db.status();
    return Status::InvalidArgument(path.string() + ": not a readable results database (" +
                                   db.status().message() + "); nothing was read or written. " +
                                   RepairHint(path));
  }
  std::unique_ptr<ResultsStore> store(new ResultsStore(std::move(*db), path));
  if (existing) {
    Status verified = store->Verify("main", path);
    if (!verified.ok()) {
      if (auto m = machine(verified)) return *m;
      return verified;
    }
  }
  if (Status made = store->db_->Exec(kSchema); !made.ok()) {
    if (auto m = machine(made)) return *m;
    return made;
  }
  RG_ASSIGN_OR_RETURN(auto have, ResultColumns(store->db_.get(), "main"));
  for (const auto& [name, type] : kAddedColumns) {
    if (have.count(name)) continue;
    RG_RETURN_IF_ERROR(store->db_->Exec(std::string("ALTER TABLE results ADD COLUMN ") + name + " " + type)
                           .WithContext(path.string() + ": upgrading the results table"));
  }
  return store;
}

Status ResultsStore::Verify(const std::string& schema, const fs::path& file) {
  // SQLite's own words, without the file and statement SqliteDb adds
  // ("r.sqlite: step \"PRAGMA ...\": database disk image is malformed").
  auto sqlite_reason = [](const std::string& message) {
    auto at = message.rfind("\": ");
    return at == std::string::npos ? message : message.substr(at + 3);
  };
  auto damaged = [&](const std::string& why) {
    return Status::InvalidArgument(file.string() + ": damaged results database (SQLite " + why +
                                   "); nothing was read or written. " + RepairHint(file));
  };
  {
    auto st = db_->Prepare("PRAGMA " + schema + ".quick_check(5)");
    if (!st.ok()) return damaged("quick_check: " + sqlite_reason(st.status().message()));
    std::string problems;
    while (true) {
      auto has = st->Step();
      if (!has.ok()) return damaged("quick_check: " + sqlite_reason(has.status().message()));
      if (!*has) break;
      std::string line = st->ColumnText(0);
      if (line != "ok") problems += (problems.empty() ? "" : "; ") + line;
    }
    if (!problems.empty()) return damaged("quick_check: " + problems);
  }
  RG_ASSIGN_OR_RETURN(auto has_table,
                      db_->Prepare("SELECT 1 FROM " + schema +
                                   ".sqlite_master WHERE type = 'table' AND name = 'results'"));
  auto found = has_table.Step();
  if (!found.ok()) return damaged(sqlite_reason(found.status().message()));
  if (!*found) return Status::Ok();  // a fresh or foreign file: MergeFrom and Open say so
  auto st = db_->Prepare("SELECT " + CheckColumns() + " FROM " + schema + ".results");
  if (!st.ok()) return damaged(sqlite_reason(st.status().message()));
  while (true) {
    auto has = st->Step();
    if (!has.ok()) return damaged(sqlite_reason(has.status().message()));
    if (!*has) break;
    if (auto why = RowProblem(*st)) {
      return Status::InvalidArgument(
          file.string() + ": row " + DescribeKey(*st, 0) + ": " + *why +
          "; nothing was read or written (the file was edited or damaged). " + RepairHint(file));
    }
  }
  return Status::Ok();
}

Status ResultsStore::Put(const ResultRow& r) {
  std::lock_guard lock(mu_);
  SqliteTransaction tx(db_.get());
  RG_RETURN_IF_ERROR(tx.Begin());
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(std::string("INSERT OR REPLACE INTO results (") + kColumns +
                                            ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
                                            "?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29)"));
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
  ++i;
  RG_RETURN_IF_ERROR(r.run_json.empty() ? st.BindNull(i) : st.Bind(i, r.run_json));
  ++i;
  RG_RETURN_IF_ERROR(!r.problem_hash.empty() ? st.Bind(i, r.problem_hash) : st.BindNull(i));
  RG_RETURN_IF_ERROR(st.Run());
  return tx.Commit();
}

Status ResultsStore::FinishRun(const std::string& run_id, int exit_status, double wall_s) {
  std::lock_guard lock(mu_);
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare("UPDATE results SET run_json = json_set(run_json, '$.exit_status', ?1, "
                                            "'$.run_wall_s', ?2) WHERE json_valid(run_json) AND "
                                            "json_extract(run_json, '$.run_id') = ?3"));
  RG_RETURN_IF_ERROR(st.Bind(1, static_cast<int64_t>(exit_status)));
  RG_RETURN_IF_ERROR(st.Bind(2, wall_s));
  RG_RETURN_IF_ERROR(st.Bind(3, run_id));
  return st.Run();
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

Result<std::optional<std::string>> ResultsStore::StoredProblemHash(const ResultKey& k) {
  std::lock_guard lock(mu_);
  RG_ASSIGN_OR_RETURN(auto st, db_->Prepare(
                                   "SELECT coalesce(problem_hash, '') FROM results WHERE suite=?1 AND problem=?2 "
                                   "AND method=?3 AND model=?4 AND config_hash=?5 AND sample=?6"));
  RG_RETURN_IF_ERROR(st.Bind(1, k.suite));
  RG_RETURN_IF_ERROR(st.Bind(2, k.problem));
  RG_RETURN_IF_ERROR(st.Bind(3, k.method));
  RG_RETURN_IF_ERROR(st.Bind(4, k.model));
  RG_RETURN_IF_ERROR(st.Bind(5, k.config_hash));
  RG_RETURN_IF_ERROR(st.Bind(6, k.sample));
  RG_ASSIGN_OR_RETURN(bool has, st.Step());
  if (!has) return std::optional<std::string>();
  return std::optional<std::string>(st.ColumnText(0));
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
    ResultRow r = ReadRow(st, 0);
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
    RG_RETURN_IF_ERROR(CheckDatabaseFile(in, /*may_create=*/false));
    if (path_ != ":memory:" && fs::equivalent(in, path_, ec)) continue;  // merging a file into itself
    todo.push_back(in);
  }
  auto attach = [&](const fs::path& in) -> Status {
    // Errors name the input, not the database it is merged into.
    auto input_error = [&](const Status& s) {
      return Status::InvalidArgument(in.string() + ": cannot be read as a results database (" + s.message() + ")");
    };
    RG_ASSIGN_OR_RETURN(auto st, db_->Prepare("ATTACH DATABASE ?1 AS src"));
    RG_RETURN_IF_ERROR(st.Bind(1, in.string()));
    if (Status attached = st.Run(); !attached.ok()) return input_error(attached);
    RG_ASSIGN_OR_RETURN(auto has, db_->Prepare("SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND "
                                               "name = 'results'"));
    auto found = has.Step();
    if (!found.ok() || !*found) {
      (void)db_->Exec("DETACH DATABASE src");
      return found.ok() ? Status::InvalidArgument(in.string() + ": not a regrapht results database (no results table)")
                        : input_error(found.status());
    }
    Status verified = Verify("src", in);
    if (!verified.ok()) (void)db_->Exec("DETACH DATABASE src");
    return verified;
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

namespace regrapht {

// ---- Repair -----------------------------------------------------------------
//
// Reads `in` row by row in rowid order (each row its own lookup, so a damaged
// page costs the rows on it, not the scan), checks each row as Open does and
// writes the valid ones to a fresh `out`.

namespace {

// Adds a line to the repair's notes (the first 50).
void Note(RepairStats* stats, std::string line) {
  if (stats->notes.size() < 50) stats->notes.push_back(std::move(line));
}

// Copies the valid rows of `src`'s results to `dst`, scanning in rowid order
// and, past a damaged page, looking ids up one at a time; counts rows
// copied, invalid and unreadable in *stats.
Status CopyReadableRows(SqliteDb* src, ResultsStore* dst, RepairStats* stats) {
  // The largest rowid, if the rightmost pages are readable; else probe on.
  int64_t max_rowid = -1;
  if (auto m = src->Prepare("SELECT max(rowid) FROM results"); m.ok()) {
    if (auto has = m->Step(); has.ok() && *has) max_rowid = m->ColumnInt(0);
  }
  // A file from before the held-out columns reads NULL in their place.
  std::string select = kColumns;
  if (auto list = SelectListFrom(src, "main"); list.ok()) select = *list;
  std::string cols = "rowid, " + select + ", " + CheckColumns();
  RG_ASSIGN_OR_RETURN(
      auto next,
      src->Prepare("SELECT " + cols + " FROM results WHERE rowid > ?1 ORDER BY rowid LIMIT 1"));
  RG_ASSIGN_OR_RETURN(auto one, src->Prepare("SELECT " + cols + " FROM results WHERE rowid = ?1"));
  constexpr int kRowCols = 1 + ColumnCount(kColumns);  // rowid, kColumns; then CheckColumns
  auto take = [&](SqliteStatement& st) -> Status {
    if (auto why = RowProblem(st, kRowCols)) {
      ++stats->rows_invalid;
      Note(stats, "row " + DescribeKey(st, 1) + ": " + *why + " (not copied)");
      return Status::Ok();
    }
    RG_RETURN_IF_ERROR(dst->Put(ReadRow(st, 1)));
    ++stats->rows_copied;
    return Status::Ok();
  };
  int64_t last = 0;
  constexpr int64_t kProbeLimit = 1000000;  // consecutive unreadable ids before giving up
  while (true) {
    next.Reset();
    RG_RETURN_IF_ERROR(next.Bind(1, last));
    auto has = next.Step();
    if (has.ok()) {
      if (!*has) break;
      last = next.ColumnInt(0);
      RG_RETURN_IF_ERROR(take(next));
      continue;
    }
    // The scan hit a damaged page: look ids up one at a time past it.
    int64_t from = last + 1, bad = 0;
    bool resumed = false;
    for (int64_t id = from; id - from < kProbeLimit && (max_rowid < 0 || id <= max_rowid); ++id) {
      one.Reset();
      RG_RETURN_IF_ERROR(one.Bind(1, id));
      auto got = one.Step();
      if (!got.ok()) {
        ++bad;
        continue;
      }
      if (!*got) continue;
      last = id;
      RG_RETURN_IF_ERROR(take(one));
      resumed = true;
      break;
    }
    stats->rows_unreadable += bad;
    if (bad > 0) {
      Note(stats, std::to_string(bad) + " unreadable row id(s) after row id " +
                      std::to_string(from - 1) + " (damaged pages)");
    }
    if (!resumed) break;
  }
  return Status::Ok();
}

// The plan entries of `src` up to the first unreadable one.
std::vector<PlanEntry> ReadablePlan(SqliteDb* src, RepairStats* stats) {
  std::vector<PlanEntry> plan;
  auto st = src->Prepare(std::string("SELECT ") + kPlanColumns + " FROM plan");
  if (!st.ok()) return plan;
  while (true) {
    auto has = st->Step();
    if (!has.ok()) {
      Note(stats, "plan: " + has.status().message() + " (the rest of the plan is lost)");
      break;
    }
    if (!*has) break;
    PlanEntry e{st->ColumnText(0),
                st->ColumnText(4),
                st->ColumnText(5),
                st->ColumnText(1),
                st->ColumnText(2),
                st->ColumnText(3),
                static_cast<int>(st->ColumnInt(6))};
    plan.push_back(std::move(e));
  }
  return plan;
}

}  // namespace

Result<RepairStats> ResultsStore::Repair(const fs::path& in, const fs::path& out) {
  std::error_code ec;
  if (!fs::exists(in, ec)) return Status::NotFound(in.string() + ": no such database");
  if (fs::exists(out, ec)) {
    return Status::InvalidArgument(
        out.string() + ": already exists (repair writes a new file; choose another --out)");
  }
  SqliteOptions ro;
  ro.read_only = true;
  ro.wal = false;
  auto src = SqliteDb::Open(in, ro);
  if (!src.ok()) return src.status().WithContext("repair: cannot open " + in.string() + " at all");
  RG_ASSIGN_OR_RETURN(auto dst, Open(out));
  RepairStats stats;
  RG_RETURN_IF_ERROR(CopyReadableRows(src->get(), dst.get(), &stats));
  // The plan: whatever is readable.
  std::vector<PlanEntry> plan = ReadablePlan(src->get(), &stats);
  RG_RETURN_IF_ERROR(dst->PutPlan(plan));
  stats.plan_entries = static_cast<int64_t>(plan.size());
  return stats;
}

}  // namespace regrapht
