#include "core/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

namespace regrapht {

Result<std::unique_ptr<SqliteDb>> SqliteDb::Open(const fs::path& path,
                                                 const SqliteOptions& options) {
  bool memory = path == ":memory:";
  if (!memory && !options.read_only && path.has_parent_path()) {
    RG_RETURN_IF_ERROR(MakeDirs(path.parent_path()));
  }
  int flags = SQLITE_OPEN_FULLMUTEX |
              (options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    sqlite3_close(raw);
    return Status::IoError(path.string() + ": cannot open database: " + msg);
  }
  std::unique_ptr<SqliteDb> db(new SqliteDb(raw, path));
  sqlite3_busy_timeout(raw, options.busy_timeout_ms);
  sqlite3_extended_result_codes(raw, 1);
  if (!memory && options.wal && !options.read_only) {
    RG_RETURN_IF_ERROR(db->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  }
  RG_RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys=ON;"));
  return db;
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

Status SqliteDb::Error(std::string_view what) const {
  return Status::IoError(path_.string() + ": " + std::string(what) + ": " + sqlite3_errmsg(db_));
}

Status SqliteDb::Exec(std::string_view sql) {
  std::string s(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    return Status::IoError(path_.string() + ": " + msg + " (in: " + s.substr(0, 80) + ")");
  }
  return Status::Ok();
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    return Error("cannot prepare \"" + std::string(sql.substr(0, 80)) + "\"");
  }
  return SqliteStatement(this, stmt);
}

int64_t SqliteDb::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }
int SqliteDb::Changes() const { return sqlite3_changes(db_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

Status SqliteStatement::Check(int rc, std::string_view what) {
  if (rc == SQLITE_OK) return Status::Ok();
  return db_->Error(what);
}

Status SqliteStatement::Bind(int index, int64_t value) {
  return Check(sqlite3_bind_int64(stmt_, index, value), "bind");
}
Status SqliteStatement::Bind(int index, double value) {
  return Check(sqlite3_bind_double(stmt_, index, value), "bind");
}
Status SqliteStatement::Bind(int index, std::string_view text) {
  return Check(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT,
                                   SQLITE_UTF8),
               "bind");
}
Status SqliteStatement::BindBlob(int index, std::string_view bytes) {
  return Check(sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT),
               "bind");
}
Status SqliteStatement::BindNull(int index) {
  return Check(sqlite3_bind_null(stmt_, index), "bind");
}

Result<bool> SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Status s = db_->Error(std::string("step \"") + sqlite3_sql(stmt_) + "\"");
  sqlite3_reset(stmt_);
  return s;
}

Status SqliteStatement::Run() {
  while (true) {
    RG_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) break;
  }
  Reset();
  return Status::Ok();
}

void SqliteStatement::Reset(bool clear_bindings) {
  sqlite3_reset(stmt_);
  if (clear_bindings) sqlite3_clear_bindings(stmt_);
}

int SqliteStatement::ColumnCount() const { return sqlite3_column_count(stmt_); }
bool SqliteStatement::ColumnIsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
int64_t SqliteStatement::ColumnInt(int col) const { return sqlite3_column_int64(stmt_, col); }
double SqliteStatement::ColumnDouble(int col) const { return sqlite3_column_double(stmt_, col); }
std::string SqliteStatement::ColumnText(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  int n = sqlite3_column_bytes(stmt_, col);
  return p ? std::string(static_cast<const char*>(p), n) : std::string();
}

SqliteTransaction::~SqliteTransaction() {
  if (open_) (void)db_->Exec("ROLLBACK");
}

Status SqliteTransaction::Begin() {
  RG_RETURN_IF_ERROR(db_->Exec("BEGIN IMMEDIATE"));
  open_ = true;
  return Status::Ok();
}

Status SqliteTransaction::Commit() {
  if (!open_) return Status::Internal("commit without begin");
  RG_RETURN_IF_ERROR(db_->Exec("COMMIT"));
  open_ = false;
  return Status::Ok();
}

}  // namespace regrapht
