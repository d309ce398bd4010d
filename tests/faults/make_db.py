"""Writes a results database for the fault suite (tests/faults/cases/db_*).

make_db.py FILE --rows N [--bad VERDICT,SPEEDUP] [--garbage BYTES]

The table has the schema regrapht wrote before its CHECK constraints, so a
bad row can be stored the way a hand edit or an old bug could leave it.
--garbage overwrites BYTES in the middle of the file after it is closed.
"""
import argparse
import sqlite3

SCHEMA = """
CREATE TABLE results (
  suite TEXT NOT NULL, problem TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL,
  config_hash TEXT NOT NULL, sample INTEGER NOT NULL,
  tier TEXT, config_json TEXT, seed INTEGER,
  verdict TEXT NOT NULL, speedup REAL, reward REAL, candidate_ms REAL, reference_ms REAL,
  candidate_source TEXT, candidate_hash TEXT, result_json TEXT, env_json TEXT, search_json TEXT,
  tokens_prompt INTEGER, tokens_generated INTEGER, generations INTEGER, verifications INTEGER,
  wall_ms REAL, created_at TEXT,
  PRIMARY KEY (suite, problem, method, model, config_hash, sample));
CREATE TABLE plan (
  suite TEXT NOT NULL, method TEXT NOT NULL, model TEXT NOT NULL, config_hash TEXT NOT NULL,
  problem TEXT NOT NULL, tier TEXT, samples INTEGER NOT NULL,
  PRIMARY KEY (suite, method, model, config_hash, problem));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema_version', '1');
"""

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--rows", type=int, default=3)
ap.add_argument("--bad")
ap.add_argument("--garbage", type=int, default=0)
a = ap.parse_args()
db = sqlite3.connect(a.file)
db.executescript(SCHEMA)
rows = [("p%d" % i, "correct", 2.0) for i in range(a.rows)]
if a.bad:
    verdict, speedup = a.bad.split(",")
    rows.append(("p%d" % a.rows, verdict, speedup))
for problem, verdict, speedup in rows:
    db.execute("INSERT INTO results (suite, problem, method, model, config_hash, sample, tier, verdict, speedup, "
               "reward, candidate_ms, reference_ms, search_json, tokens_prompt, tokens_generated, generations, "
               "verifications, wall_ms, created_at) VALUES ('s', ?, 'reference', '', 'cfg', 0, 'easy', ?, ?, 1, 1, 2, "
               "?, 0, 0, 0, 1, 5, '2026-12-01T00:00:00Z')", (problem, verdict, speedup, "x" * 1500))
db.commit()
db.close()
if a.garbage:
    with open(a.file, "r+b") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(size // 2)
        f.write(bytes(((i * 131) ^ 0x5A) & 0xFF for i in range(a.garbage)))
