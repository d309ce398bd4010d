python3 - <<'PY'
import json, os
r = json.load(open(os.path.join(os.environ["ROOT"], "src/cli/testdata/tree/report.json")))
r["attempts"][2]["parent"] = 999
json.dump(r, open("report.json", "w"))
PY
