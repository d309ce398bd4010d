mkdir full suite
cp -r "$ROOT/problems/saxpy" suite/saxpy
echo '{"format": "regrapht-suite", "version": 1, "name": "s"}' > suite/suite.json
python3 "$ROOT/tests/faults/make_db.py" r.sqlite --rows 2
