python3 - <<PY
import json
t = open("problem.json").read()
t = t.replace('"version": 1,', '"version": 1,\n  "notes": ' + "[" * 100000 + "]" * 100000 + ",", 1)
open("problem.json", "w").write(t)
PY
