python3 - <<'PY'
import json
j = json.load(open("trajectory.json"))
j["steps"][0]["method"] = "m" * 300000
json.dump(j, open("trajectory.json", "w"), indent=2)
PY
