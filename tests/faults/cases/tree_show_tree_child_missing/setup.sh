python3 - <<'PY'
import json, os
r = json.load(open(os.path.join(os.environ["ROOT"], "src/cli/testdata/tree/report.json")))
r["tree"] = {"method": "regrapht-mcgs", "nodes": [
    {"id": 0, "technique": "init", "attempt": -1, "edges": [{"technique": "map", "child": 999}]}]}
json.dump(r, open("report.json", "w"))
PY
