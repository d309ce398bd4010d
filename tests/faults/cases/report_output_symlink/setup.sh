python3 "$ROOT/tests/faults/make_db.py" r.sqlite --rows 2
echo "not regrapht's" > mine.txt
ln -s mine.txt out.md
