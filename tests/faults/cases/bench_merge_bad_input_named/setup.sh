python3 "$ROOT/tests/faults/make_db.py" a.sqlite --rows 2
head -c 5000 /dev/urandom > b.sqlite
