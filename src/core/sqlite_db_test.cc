#include "core/sqlite_db.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace regrapht {
namespace {

TEST(SqliteDbTest, CreateInsertSelect) {
  auto db = SqliteDb::Open(":memory:");
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(k TEXT PRIMARY KEY, v INTEGER, d REAL, b BLOB)").ok());
  auto ins = (*db)->Prepare("INSERT INTO t VALUES(?1, ?2, ?3, ?4)");
  ASSERT_TRUE(ins.ok());
  ASSERT_TRUE(ins->Bind(1, "a").ok());
  ASSERT_TRUE(ins->Bind(2, int64_t{1} << 40).ok());
  ASSERT_TRUE(ins->Bind(3, 2.5).ok());
  ASSERT_TRUE(ins->BindBlob(4, std::string("x\0y", 3)).ok());
  ASSERT_TRUE(ins->Run().ok());
  EXPECT_EQ((*db)->Changes(), 1);

  auto sel = (*db)->Prepare("SELECT k, v, d, b FROM t WHERE k = ?1");
  ASSERT_TRUE(sel.ok());
  ASSERT_TRUE(sel->Bind(1, "a").ok());
  auto row = sel->Step();
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_EQ(sel->ColumnText(0), "a");
  EXPECT_EQ(sel->ColumnInt(1), int64_t{1} << 40);
  EXPECT_DOUBLE_EQ(sel->ColumnDouble(2), 2.5);
  EXPECT_EQ(sel->ColumnText(3), std::string("x\0y", 3));
  EXPECT_FALSE(*sel->Step());
}

TEST(SqliteDbTest, ErrorsNameTheProblem) {
  auto db = SqliteDb::Open(":memory:");
  ASSERT_TRUE(db.ok());
  Status s = (*db)->Exec("SELEC 1");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("syntax error"), std::string::npos) << s.ToString();
  auto bad = (*db)->Prepare("SELECT * FROM missing");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no such table"), std::string::npos);

  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(k TEXT PRIMARY KEY)").ok());
  auto ins = (*db)->Prepare("INSERT INTO t VALUES('dup')");
  ASSERT_TRUE(ins->Run().ok());
  Status dup = ins->Run();
  EXPECT_FALSE(dup.ok());
  EXPECT_NE(dup.message().find("UNIQUE"), std::string::npos) << dup.ToString();
}

TEST(SqliteDbTest, TransactionRollsBackUnlessCommitted) {
  auto dir = TempDir::Create("rgsql");
  ASSERT_TRUE(dir.ok());
  auto db = SqliteDb::Open(dir->path() / "sub" / "x.db");
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_TRUE((*db)->Exec("CREATE TABLE t(v INTEGER)").ok());
  {
    SqliteTransaction tx(db->get());
    ASSERT_TRUE(tx.Begin().ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO t VALUES(1)").ok());
  }  // rolled back
  {
    SqliteTransaction tx(db->get());
    ASSERT_TRUE(tx.Begin().ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO t VALUES(2)").ok());
    ASSERT_TRUE(tx.Commit().ok());
  }
  auto sel = (*db)->Prepare("SELECT group_concat(v) FROM t");
  ASSERT_TRUE(*sel->Step());
  EXPECT_EQ(sel->ColumnText(0), "2");
  auto mode = (*db)->Prepare("PRAGMA journal_mode");
  ASSERT_TRUE(*mode->Step());
  EXPECT_EQ(mode->ColumnText(0), "wal");
}

TEST(SqliteDbTest, TwoConnectionsShareAFile) {
  auto dir = TempDir::Create("rgsql");
  fs::path path = dir->path() / "shared.db";
  auto a = SqliteDb::Open(path);
  auto b = SqliteDb::Open(path);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE((*a)->Exec("CREATE TABLE t(v INTEGER)").ok());
  std::vector<std::thread> threads;
  for (auto* db : {a->get(), b->get()}) {
    threads.emplace_back([db] {
      for (int i = 0; i < 50; ++i) EXPECT_TRUE(db->Exec("INSERT INTO t VALUES(1)").ok());
    });
  }
  for (auto& t : threads) t.join();
  auto sel = (*b)->Prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(*sel->Step());
  EXPECT_EQ(sel->ColumnInt(0), 100);
}

TEST(SqliteDbTest, OpenFailureIsAStatus) {
  SqliteOptions ro;
  ro.read_only = true;
  auto db = SqliteDb::Open("/nonexistent-dir/x.db", ro);
  EXPECT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("/nonexistent-dir/x.db"), std::string::npos);
}

}  // namespace
}  // namespace regrapht
