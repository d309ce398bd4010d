python3 - <<'PY'
t = open("trajectory.json").read()
open("trajectory.json", "w").write(t.replace('"kernel": "abs_difference"', '"kernel": "abs\\u0000difference"', 1))
PY
