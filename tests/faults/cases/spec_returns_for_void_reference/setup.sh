python3 - <<'PY'
import json
j = json.load(open("problem.json"))
j["returns"] = "float"
json.dump(j, open("problem.json", "w"), indent=2)
PY
