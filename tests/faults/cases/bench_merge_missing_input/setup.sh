python3 "$ROOT/tests/faults/make_db.py" a.sqlite --rows 2
