python3 "$ROOT/tests/faults/make_db.py" r.sqlite --rows 300 --garbage 8192
