// A minimal RAII wrapper over SQLite: a connection (opened in WAL mode with a
// busy timeout), prepared statements, and transactions. Errors come back as
// Status naming the database file and SQLite's message; nothing throws.
//
//   RG_ASSIGN_OR_RETURN(auto db, SqliteDb::Open(path));
//   RG_RETURN_IF_ERROR(db->Exec("CREATE TABLE IF NOT EXISTS t(k TEXT PRIMARY KEY, v INT)"));
//   RG_ASSIGN_OR_RETURN(auto insert, db->Prepare("INSERT INTO t VALUES(?1, ?2)"));
//   RG_RETURN_IF_ERROR(insert.Bind(1, "a"));
//   RG_RETURN_IF_ERROR(insert.Bind(2, int64_t{7}));
//   RG_RETURN_IF_ERROR(insert.Run());
//
// Thread safety: a SqliteDb is opened in SQLite's serialized mode, so its
// methods may be called from several threads; a SqliteStatement must be used
// by one thread at a time. Several processes may share one file (WAL + busy
// timeout); a writer waits up to the busy timeout for another writer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/fs.h"
#include "regrapht/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace regrapht {

struct SqliteOptions {
  int busy_timeout_ms = 5000;
  bool wal = true;        // journal_mode=WAL (ignored for ":memory:")
  bool read_only = false;
};

class SqliteStatement;

class SqliteDb {
 public:
  // Opens (creating it and its parent folder unless read-only) the database at
  // `path`; ":memory:" opens a private in-memory database.
  static Result<std::unique_ptr<SqliteDb>> Open(const fs::path& path,
                                                const SqliteOptions& options = {});
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs one or more `;`-separated statements that return no rows.
  Status Exec(std::string_view sql);
  // Compiles one statement. The statement must not outlive *this.
  Result<SqliteStatement> Prepare(std::string_view sql);

  int64_t LastInsertRowId() const;
  int Changes() const;  // rows changed by the last statement
  const fs::path& path() const { return path_; }
  sqlite3* raw() { return db_; }

  // Non-OK Status "<path>: <what>: <sqlite message>".
  Status Error(std::string_view what) const;

 private:
  SqliteDb(sqlite3* db, fs::path path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  fs::path path_;
};

// A prepared statement. Parameters are 1-based (`?1`), columns 0-based.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  Status Bind(int index, int64_t value);
  Status Bind(int index, int value) { return Bind(index, static_cast<int64_t>(value)); }
  Status Bind(int index, double value);
  Status Bind(int index, std::string_view text);
  Status Bind(int index, const char* text) { return Bind(index, std::string_view(text)); }
  Status BindBlob(int index, std::string_view bytes);
  Status BindNull(int index);

  // Advances: true when a row is available, false when done.
  Result<bool> Step();
  // Steps to completion, ignoring rows (INSERT/UPDATE/DELETE), then resets.
  Status Run();
  // Resets for re-execution; keeps bindings unless `clear_bindings`.
  void Reset(bool clear_bindings = false);

  int ColumnCount() const;
  bool ColumnIsNull(int col) const;
  int64_t ColumnInt(int col) const;
  double ColumnDouble(int col) const;
  std::string ColumnText(int col) const;  // also returns blobs' bytes

 private:
  friend class SqliteDb;
  SqliteStatement(SqliteDb* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Status Check(int rc, std::string_view what);
  SqliteDb* db_;
  sqlite3_stmt* stmt_;
};

// BEGIN IMMEDIATE on Begin(); ROLLBACK on destruction unless Commit() succeeded.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb* db) : db_(db) {}
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  Status Begin();
  Status Commit();

 private:
  SqliteDb* db_;
  bool open_ = false;
};

}  // namespace regrapht
