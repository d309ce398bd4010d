python3 "$ROOT/tests/faults/make_db.py" r.sqlite --rows 2
