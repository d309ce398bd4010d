#include "store/results_store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/sqlite_db.h"

namespace regrapht {
namespace {

ResultRow Row(const std::string& problem, int sample, const std::string& verdict, double speedup) {
  ResultRow r;
  r.key = {"s", problem, "reference", "", "cfg", sample};
  r.verdict = verdict;
  r.speedup = speedup;
  r.tier = "easy";
  r.candidate_source = "__global__ void k() {}";
  return r;
}

TEST(ResultsStoreTest, PutHasQuery) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Put(Row("b", 0, "correct", 2.5)).ok());
  ASSERT_TRUE((*store)->Put(Row("a", 1, "wrong_answer", 0)).ok());
  EXPECT_TRUE(*(*store)->Has({"s", "b", "reference", "", "cfg", 0}));
  EXPECT_FALSE(*(*store)->Has({"s", "b", "reference", "", "cfg", 1}));
  EXPECT_FALSE(*(*store)->Has({"s", "b", "reference", "", "other", 0}));
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].key.problem, "a");
  EXPECT_EQ((*rows)[1].speedup, 2.5);
  EXPECT_FALSE((*rows)[1].created_at.empty());
  // Same key replaces.
  ASSERT_TRUE((*store)->Put(Row("b", 0, "correct", 3.0)).ok());
  rows = (*store)->Query("s", "reference");
  EXPECT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].speedup, 3.0);
  EXPECT_TRUE((*store)->Query("other")->empty());
}

// Concurrent samples (bench --max-in-flight) write through one store.
TEST(ResultsStoreTest, PutFromManyThreads) {
  auto dir = TempDir::Create("rgstore");
  auto store = ResultsStore::Open(dir->path() / "r.sqlite");
  ASSERT_TRUE(store.ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        if (!(*store)->Put(Row("p" + std::to_string(t), i, "correct", 1.0)).ok()) ++failures;
        if (!(*store)->Has({"s", "p0", "reference", "", "cfg", 0}).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ((*store)->Query()->size(), 160u);
}

// One store shared by writers (Put, PutPlan, MergeFrom) and readers (Has,
// Query, QueryPlan) at once: SQLite transactions belong to the connection,
// so without the store's mutex a second BEGIN IMMEDIATE fails ("cannot start
// a transaction within a transaction"), a COMMIT ends another thread's
// transaction, and an ATTACH inside one is refused. Every call must succeed
// and every row must arrive intact.
TEST(ResultsStoreTest, ConcurrentWritersAndReadersShareOneStore) {
  auto dir = TempDir::Create("rgstore");
  ASSERT_TRUE(dir.ok());
  {
    auto other = ResultsStore::Open(dir->path() / "other.sqlite");
    ASSERT_TRUE(other.ok());
    for (int i = 0; i < 30; ++i)
      ASSERT_TRUE((*other)->Put(Row("merged", i, "correct", 100 + i)).ok());
  }
  auto store = ResultsStore::Open(dir->path() / "r.sqlite");
  ASSERT_TRUE(store.ok());
  ResultsStore& s = **store;
  constexpr int kWriters = 6, kRows = 40;
  std::atomic<int> writers_left{kWriters};
  std::vector<std::string> errors;
  std::mutex errors_mu;
  auto check = [&](const Status& st, const std::string& what) {
    if (st.ok()) return;
    std::lock_guard lock(errors_mu);
    errors.push_back(what + ": " + st.ToString());
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRows; ++i)
        check(s.Put(Row("p" + std::to_string(t), i, "correct", t * 1000 + i)), "Put");
      --writers_left;
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; writers_left > 0; ++i) {
      PlanEntry e{"s", "p" + std::to_string(i % 50), "easy", "reference", "", "cfg", 1 + i % 3};
      check(s.PutPlan({e}), "PutPlan");
      check(s.QueryPlan().status(), "QueryPlan");
    }
  });
  threads.emplace_back([&] {
    while (writers_left > 0) {
      check(s.Query().status(), "Query");
      check(s.Has({"s", "p0", "reference", "", "cfg", 0}).status(), "Has");
    }
  });
  threads.emplace_back([&] {
    for (int i = 0; i < 5; ++i)
      check(s.MergeFrom({dir->path() / "other.sqlite"}).status(), "MergeFrom");
  });
  for (auto& t : threads) t.join();
  EXPECT_TRUE(errors.empty()) << errors.size() << " failed calls, the first: " << errors.front();
  auto rows = s.Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), size_t{kWriters * kRows + 30});
  for (const auto& r : *rows) {
    if (r.key.problem == "merged") {
      EXPECT_EQ(r.speedup, 100 + r.key.sample);
    } else {
      EXPECT_EQ(r.speedup, std::stoi(r.key.problem.substr(1)) * 1000 + r.key.sample)
          << r.key.problem;
    }
  }
}

// A writer killed with SIGKILL mid-run loses no committed row, and the file
// stays readable.
TEST(ResultsStoreTest, SurvivesKillNine) {
  auto dir = TempDir::Create("rgstore");
  fs::path db = dir->path() / "r.sqlite";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto s = ResultsStore::Open(db);
    if (!s.ok()) _exit(2);
    for (int i = 0;; ++i) {
      if (!(*s)->Put(Row("p", i, "correct", 1.0 + i)).ok()) _exit(3);
    }
  }
  // Let it write for a while, then kill it without warning.
  for (int tries = 0; tries < 200; ++tries) {
    usleep(20 * 1000);
    auto s = ResultsStore::Open(db);
    if (s.ok()) {
      auto rows = (*s)->Query();
      if (rows.ok() && rows->size() >= 20) break;
    }
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  auto s = ResultsStore::Open(db);
  ASSERT_TRUE(s.ok());
  auto rows = (*s)->Query();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_GE(rows->size(), 20u);
  // Every committed row is complete, and samples are contiguous from 0.
  std::vector<bool> seen(rows->size(), false);
  for (const auto& r : *rows) {
    ASSERT_LT(static_cast<size_t>(r.key.sample), rows->size());
    seen[r.key.sample] = true;
    EXPECT_EQ(r.speedup, 1.0 + r.key.sample);
    EXPECT_EQ(r.verdict, "correct");
  }
  for (bool b : seen) EXPECT_TRUE(b);
}

// Writes `rows` (and a plan) into a new database file.
fs::path WriteDb(const fs::path& path, const std::vector<ResultRow>& rows, const std::vector<PlanEntry>& plan = {}) {
  auto s = ResultsStore::Open(path);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  for (const auto& r : rows) EXPECT_TRUE((*s)->Put(r).ok());
  if (!plan.empty()) {
    EXPECT_TRUE((*s)->PutPlan(plan).ok());
  }
  return path;
}

PlanEntry Plan(const std::string& problem, int samples) {
  return {"s", problem, "easy", "reference", "", "cfg", samples};
}

TEST(ResultsStoreTest, SearchTimeFiguresRoundTripAndDefaultToNull) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  ResultRow held = Row("a", 0, "correct", 2.0);
  held.search_verdict = "correct";
  held.search_speedup = 2.6;
  ASSERT_TRUE((*store)->Put(held).ok());
  ASSERT_TRUE((*store)->Put(Row("b", 0, "wrong_answer", 0)).ok());
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].search_verdict, std::optional<std::string>("correct"));
  EXPECT_EQ((*rows)[0].search_speedup, std::optional<double>(2.6));
  EXPECT_FALSE((*rows)[1].search_verdict.has_value());
  EXPECT_FALSE((*rows)[1].search_speedup.has_value());
}

// A database written before the held-out columns existed: Open adds them
// (NULL in its rows), and merging it into a new one works.
TEST(ResultsStoreTest, OldDatabasesGainTheNewColumns) {
  auto dir = TempDir::Create("rgstore-old");
  ASSERT_TRUE(dir.ok());
  fs::path old_path = dir->path() / "old.sqlite";
  {
    auto db = SqliteDb::Open(old_path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Exec("CREATE TABLE results (suite TEXT NOT NULL, problem TEXT NOT NULL, method TEXT NOT NULL, "
                            "model TEXT NOT NULL, config_hash TEXT NOT NULL, sample INTEGER NOT NULL, tier TEXT, "
                            "config_json TEXT, seed INTEGER, verdict TEXT NOT NULL, speedup REAL, reward REAL, "
                            "candidate_ms REAL, reference_ms REAL, candidate_source TEXT, candidate_hash TEXT, "
                            "result_json TEXT, env_json TEXT, search_json TEXT, tokens_prompt INTEGER, "
                            "tokens_generated INTEGER, generations INTEGER, verifications INTEGER, wall_ms REAL, "
                            "created_at TEXT, PRIMARY KEY (suite, problem, method, model, config_hash, sample));"
                            "INSERT INTO results (suite, problem, method, model, config_hash, sample, verdict, speedup) "
                            "VALUES ('s', 'old', 'reference', '', 'cfg', 0, 'correct', 1.5);")
                    .ok());
  }
  {
    auto merged = ResultsStore::Open(dir->path() / "new.sqlite");
    ASSERT_TRUE(merged.ok());
    auto stats = (*merged)->MergeFrom({old_path});
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    EXPECT_EQ(stats->rows_added, 1);
    auto rows = (*merged)->Query();
    ASSERT_EQ(rows->size(), 1u);
    EXPECT_FALSE((*rows)[0].search_verdict.has_value());
    EXPECT_EQ((*rows)[0].run_json, "");
  }
  auto upgraded = ResultsStore::Open(old_path);
  ASSERT_TRUE(upgraded.ok()) << upgraded.status().ToString();
  auto rows = (*upgraded)->Query();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].speedup, 1.5);
  EXPECT_FALSE((*rows)[0].search_speedup.has_value());
  ResultRow next = Row("new", 0, "correct", 3.0);
  next.search_verdict = "correct";
  next.search_speedup = 3.5;
  EXPECT_TRUE((*upgraded)->Put(next).ok());
}

TEST(ResultsStoreTest, RowsRecordWhatRanAndTheRunsExitStatusOnceItEnds) {
  auto dir = TempDir::Create("rgstore-run");
  ASSERT_TRUE(dir.ok());
  auto store = ResultsStore::Open(dir->path() / "r.sqlite");
  ASSERT_TRUE(store.ok());
  ResultRow a = Row("a", 0, "correct", 2.0);
  a.run_json = R"j({"run_id":"run-1","command":"regrapht bench --suite s","device":"regrapht CUDA emulator (CPU)"})j";
  ResultRow b = Row("b", 0, "correct", 2.0);
  b.run_json = R"({"run_id":"run-2","command":"regrapht bench --suite s"})";
  ASSERT_TRUE((*store)->Put(a).ok());
  ASSERT_TRUE((*store)->Put(b).ok());
  ASSERT_TRUE((*store)->Put(Row("c", 0, "correct", 2.0)).ok());  // no run recorded (as old rows)
  ASSERT_TRUE((*store)->FinishRun("run-1", 3, 12.5).ok());
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);
  Json first = Json::parse((*rows)[0].run_json);
  EXPECT_EQ(first["exit_status"], 3);
  EXPECT_EQ(first["run_wall_s"], 12.5);
  EXPECT_EQ(first["device"], "regrapht CUDA emulator (CPU)");
  EXPECT_FALSE(Json::parse((*rows)[1].run_json).contains("exit_status"));  // run-2 has not ended
  EXPECT_EQ((*rows)[2].run_json, "");
  // What ran is not the row's outcome: a merge of the same row from another run is one row.
  ResultRow again = a;
  again.run_json = R"({"run_id":"run-9"})";
  fs::path other = WriteDb(dir->path() / "other.sqlite", {again});
  auto stats = (*store)->MergeFrom({other});
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->rows_same, 1);
}

TEST(ResultsStoreTest, PlanKeepsTheLargerSampleCount) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE((*store)->PutPlan({Plan("b", 3), Plan("a", 3)}).ok());
  ASSERT_TRUE((*store)->PutPlan({Plan("a", 5), Plan("b", 1)}).ok());
  auto plan = (*store)->QueryPlan();
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->size(), 2u);
  EXPECT_EQ((*plan)[0], Plan("a", 5));
  EXPECT_EQ((*plan)[1], Plan("b", 3));
}

TEST(ResultsStoreTest, MergeIsAUnionAndIdempotent) {
  auto dir = TempDir::Create("rgmerge");
  fs::path a = WriteDb(dir->path() / "a.sqlite", {Row("p", 0, "correct", 2.0), Row("q", 0, "wrong_answer", 0)},
                       {Plan("p", 2), Plan("q", 2), Plan("r", 2)});
  ResultRow same = Row("q", 0, "wrong_answer", 0);
  same.wall_ms = 1234;  // made again, as long as it took: the same row
  same.created_at = "2030-01-01T00:00:00Z";
  fs::path b = WriteDb(dir->path() / "b.sqlite", {same, Row("r", 1, "correct", 1.5)}, {Plan("r", 3)});
  auto out = ResultsStore::Open(dir->path() / "out.sqlite");
  ASSERT_TRUE(out.ok());
  auto stats = (*out)->MergeFrom({a, b, a});
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->inputs, 3);
  EXPECT_EQ(stats->rows_added, 3);
  EXPECT_EQ(stats->rows_same, 3);
  auto rows = (*out)->Query();
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_NE((*rows)[1].wall_ms, 1234);  // the first one met is kept
  auto plan = (*out)->QueryPlan();
  ASSERT_EQ(plan->size(), 3u);
  EXPECT_EQ((*plan)[2], Plan("r", 3));
  // Again: nothing new.
  stats = (*out)->MergeFrom({b, a});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->rows_added, 0);
  EXPECT_EQ((*out)->Query()->size(), 3u);
  // Into itself: a no-op.
  EXPECT_TRUE((*out)->MergeFrom({dir->path() / "out.sqlite"}).ok());
}

TEST(ResultsStoreTest, MergeConflictNamesBothFilesAndTheKey) {
  auto dir = TempDir::Create("rgmerge");
  fs::path a = WriteDb(dir->path() / "a.sqlite", {Row("p", 0, "correct", 2.0)});
  fs::path b = WriteDb(dir->path() / "b.sqlite", {Row("x", 0, "correct", 1.0), Row("p", 0, "correct", 2.5)});
  auto out = ResultsStore::Open(dir->path() / "out.sqlite");
  auto stats = (*out)->MergeFrom({a, b});
  ASSERT_FALSE(stats.ok());
  const std::string& m = stats.status().message();
  EXPECT_NE(m.find(a.string() + " and " + b.string()), std::string::npos) << m;
  EXPECT_NE(m.find("suite s, problem p, method reference, model -, config cfg, sample 0"), std::string::npos) << m;
  EXPECT_NE(m.find("speedup 2.0 vs 2.5"), std::string::npos) << m;
  // Nothing was written, not even the first input's rows.
  EXPECT_TRUE((*out)->Query()->empty());
  // A conflict with a row already in the output names the output.
  ASSERT_TRUE((*out)->MergeFrom({a}).ok());
  auto again = (*out)->MergeFrom({b});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find((dir->path() / "out.sqlite").string() + " and " + b.string()),
            std::string::npos)
      << again.status().message();
}

TEST(ResultsStoreTest, MergeRefusesMissingAndForeignFiles) {
  auto dir = TempDir::Create("rgmerge");
  auto out = ResultsStore::Open(":memory:");
  auto missing = (*out)->MergeFrom({dir->path() / "nope.sqlite"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_FALSE(fs::exists(dir->path() / "nope.sqlite"));
  {
    auto other = SqliteDb::Open(dir->path() / "other.sqlite");
    ASSERT_TRUE((*other)->Exec("CREATE TABLE t(x)").ok());
  }
  auto foreign = (*out)->MergeFrom({dir->path() / "other.sqlite"});
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.status().message().find("not a regrapht results database"), std::string::npos);
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// The schema of databases written before the CHECK constraints: rows a
// hand edit or a bug may have left behind.
constexpr const char* kLegacySchema = R"(
CREATE TABLE results (
  suite TEXT NOT NULL, problem TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL,
  config_hash TEXT NOT NULL, sample INTEGER NOT NULL,
  tier TEXT, config_json TEXT, seed INTEGER,
  verdict TEXT NOT NULL, speedup REAL, reward REAL, candidate_ms REAL, reference_ms REAL,
  candidate_source TEXT, candidate_hash TEXT, result_json TEXT, env_json TEXT, search_json TEXT,
  tokens_prompt INTEGER, tokens_generated INTEGER, generations INTEGER, verifications INTEGER,
  wall_ms REAL, created_at TEXT,
  PRIMARY KEY (suite, problem, method, model, config_hash, sample));
)";

fs::path LegacyDbWith(const fs::path& dir, const std::string& bad_verdict,
                      const std::string& bad_speedup) {
  fs::path db = dir / "legacy.sqlite";
  auto raw = SqliteDb::Open(db);
  EXPECT_TRUE((*raw)->Exec(kLegacySchema).ok());
  for (const char* p : {"p1", "p2", "p3"}) {
    EXPECT_TRUE(
        (*raw)
            ->Exec(std::string(
                       "INSERT INTO results (suite, problem, method, model, config_hash, sample, "
                       "verdict, speedup) VALUES ('s', '") +
                   p +
                   "', 'reference', '', 'cfg', 0, "
                   "'correct', 2.0)")
            .ok());
  }
  EXPECT_TRUE(
      (*raw)
          ->Exec(
              "INSERT INTO results (suite, problem, method, model, config_hash, sample, verdict, "
              "speedup) VALUES ('s', 'p4', 'reference', '', 'cfg', 0, '" +
              bad_verdict + "', '" + bad_speedup + "')")
          .ok());
  return db;
}

TEST(ResultsStoreTest, RowsThatMeanNothingAreRefusedByName) {
  auto dir = TempDir::Create("rgstore");
  fs::path db = LegacyDbWith(dir->path(), "banana", "abc");
  auto opened = ResultsStore::Open(db);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find(
                db.string() + ": row suite s, problem p4, method reference, model -, "
                              "config cfg, sample 0: verdict 'banana' is not a verdict (correct, "),
            std::string::npos)
      << opened.status().message();
  EXPECT_NE(opened.status().message().find("regrapht bench repair --db"), std::string::npos);

  fs::path db2 = dir->path() / "2";
  fs::create_directories(db2);
  db2 = LegacyDbWith(db2, "correct", "abc");
  auto speed = ResultsStore::Open(db2);
  ASSERT_FALSE(speed.ok());
  EXPECT_NE(speed.status().message().find(
                "problem p4, method reference, model -, config cfg, sample 0: speedup "
                "'abc' is not a number"),
            std::string::npos)
      << speed.status().message();

  // Merging it in is refused the same way, and writes nothing.
  auto out = ResultsStore::Open(":memory:");
  auto merged = (*out)->MergeFrom({db2});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.status().message().find("speedup 'abc' is not a number"), std::string::npos);
  EXPECT_TRUE((*out)->Query()->empty());

  // Repair keeps the three valid rows.
  auto stats = ResultsStore::Repair(db, dir->path() / "fixed.sqlite");
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->rows_copied, 3);
  EXPECT_EQ(stats->rows_invalid, 1);
  ASSERT_EQ(stats->notes.size(), 1u);
  EXPECT_NE(stats->notes[0].find("problem p4"), std::string::npos);
  auto fixed = ResultsStore::Open(dir->path() / "fixed.sqlite");
  ASSERT_TRUE(fixed.ok()) << fixed.status().ToString();
  EXPECT_EQ((*fixed)->Query()->size(), 3u);
  // Repair never overwrites.
  EXPECT_FALSE(ResultsStore::Repair(db, dir->path() / "fixed.sqlite").ok());
}

TEST(ResultsStoreTest, NewDatabasesCheckVerdictAndNumbers) {
  auto dir = TempDir::Create("rgstore");
  fs::path db = dir->path() / "r.sqlite";
  ASSERT_TRUE(ResultsStore::Open(db).ok());
  auto raw = SqliteDb::Open(db);
  EXPECT_FALSE(
      (*raw)
          ->Exec(
              "INSERT INTO results (suite, problem, method, model, config_hash, sample, verdict, "
              "speedup) VALUES ('s', 'p', 'm', '', 'c', 0, 'correct', 'abc')")
          .ok());
  EXPECT_FALSE(
      (*raw)
          ->Exec(
              "INSERT INTO results (suite, problem, method, model, config_hash, sample, verdict, "
              "speedup) VALUES ('s', 'p', 'm', '', 'c', 0, 'correct', -2)")
          .ok());
  EXPECT_TRUE(
      (*raw)
          ->Exec(
              "INSERT INTO results (suite, problem, method, model, config_hash, sample, verdict, "
              "speedup) VALUES ('s', 'p', 'm', '', 'c', 0, 'correct', 2)")
          .ok());
}

TEST(ResultsStoreTest, DamagedFileIsRefusedAndRepairSalvagesRows) {
  auto dir = TempDir::Create("rgstore");
  fs::path db = dir->path() / "r.sqlite";
  {
    auto store = ResultsStore::Open(db);
    ASSERT_TRUE(store.ok());
    for (int i = 0; i < 300; ++i) {
      ResultRow r = Row("p" + std::to_string(i), 0, "correct", 1.5);
      r.search_json = std::string(1500, 'x');
      ASSERT_TRUE((*store)->Put(r).ok());
    }
    ASSERT_TRUE((*store)->PutPlan({{"s", "p0", "easy", "reference", "", "cfg", 1}}).ok());
  }
  uintmax_t size = fs::file_size(db);
  ASSERT_GT(size, 200000u);
  {
    std::string data = *ReadFile(db);
    for (size_t i = 0; i < 8192; ++i) data[size / 2 + i] = static_cast<char>((i * 131) ^ 0x5a);
    ASSERT_TRUE(WriteFile(db, data).ok());
  }
  auto opened = ResultsStore::Open(db);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find(db.string() +
                                           ": damaged results database (SQLite quick_check: "),
            std::string::npos)
      << opened.status().message();
  auto stats = ResultsStore::Repair(db, dir->path() / "fixed.sqlite");
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_GT(stats->rows_copied, 200);
  EXPECT_LT(stats->rows_copied, 300);
  EXPECT_EQ(stats->plan_entries, 1);
  auto fixed = ResultsStore::Open(dir->path() / "fixed.sqlite");
  ASSERT_TRUE(fixed.ok()) << fixed.status().ToString();
  EXPECT_EQ(static_cast<int64_t>((*fixed)->Query()->size()), stats->rows_copied);

  // Plain garbage is not a database at all.
  ASSERT_TRUE(WriteFile(dir->path() / "junk.sqlite", std::string(20000, 'j')).ok());
  auto junk = ResultsStore::Open(dir->path() / "junk.sqlite");
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("junk.sqlite: "), std::string::npos);
  EXPECT_NE(junk.status().message().find("nothing was read or written"), std::string::npos)
      << junk.status().message();
}

}  // namespace
}  // namespace regrapht
