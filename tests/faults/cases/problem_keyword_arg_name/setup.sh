python3 - <<'PY'
import json
j = json.load(open("problem.json"))
j["args"][2]["name"] = "class"
json.dump(j, open("problem.json", "w"), indent=2)
PY
