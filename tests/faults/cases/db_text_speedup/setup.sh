python3 "$ROOT/tests/faults/make_db.py" r.sqlite --rows 3 --bad correct,abc
