python3 - <<'PY'
t = open("suite.json").read()
open("suite.json", "w").write(t.replace('"name": "cudaeval"', '"name": "cuda\\u0000eval"', 1))
PY
grep -q 'cuda\\u0000eval' suite.json
