#!/bin/sh
# End to end: `regrapht optimize` on the bundled example, embedded llama.cpp,
# compile-only verification (or a GPU when there is one).
#   optimize_e2e_test.sh REGRAPHT SOURCE_ROOT tiny WRITE_TINY_GGUF   # tiny random-weight model (CI)
#   optimize_e2e_test.sh REGRAPHT SOURCE_ROOT real                   # the default model (label model)
# It checks that the run finishes, that the exit status tells the truth (0 only
# with a GPU and a verified faster candidate; 3 = unverified; 4 = nothing
# usable), that the terminal says plainly when nothing was verified, and that
# the JSON report holds every attempt and the search tree.
set -u
bin=$1 root=$2 mode=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$mode" = tiny ]; then
  "$4" "$work/tiny.gguf" || { echo "could not write the tiny model"; exit 1; }
  model="--model $work/tiny.gguf --max-tokens 48 --budget 3"
else
  "$bin" model list | grep -q '^smollm2-135m \* *yes' || { echo "SKIPPED: default model not fetched"; exit 77; }
  model="--max-tokens 256 --budget 2 --threads 1"
fi
cp "$root/examples/saxpy.cpp" "$work/"
# shellcheck disable=SC2086
"$bin" optimize "$work/saxpy.cpp" --function saxpy $model --seed 7 --no-cache \
  --cache "$work/cache" -o "$work/saxpy.cu" > "$work/out.txt" 2>&1
rc=$?
cat "$work/out.txt"
gpu=0
nvidia-smi -L > /dev/null 2>&1 && gpu=1
case $rc in
  0) [ $gpu = 1 ] || { echo "FAIL: exit 0 (verified) without a GPU"; exit 1; } ;;
  3) [ $gpu = 0 ] || { echo "FAIL: exit 3 (unverified) on a GPU machine"; exit 1; }
     grep -q "NOT VERIFIED" "$work/out.txt" || { echo "FAIL: exit 3 without saying NOT VERIFIED"; exit 1; }
     [ -s "$work/saxpy.cu" ] || { echo "FAIL: exit 3 but no file written"; exit 1; } ;;
  4) grep -q "^result " "$work/out.txt" || { echo "FAIL: exit 4 without a result line"; exit 1; } ;;
  *) echo "FAIL: optimize exited $rc"; exit 1 ;;
esac
grep -q "inferred" "$work/out.txt" || { echo "FAIL: the inferred spec was not shown"; exit 1; }
# Each finished step's line names its reply's tokens and, for a failed attempt, why (the reason
# used to be only in the JSON report).
grep '^\[gen' "$work/out.txt" > "$work/steps.txt" || { echo "FAIL: no step lines"; exit 1; }
# (The rules' seed spends no tokens: its line says "(rules)".)
if grep -v -- '-> correct' "$work/steps.txt" | grep -v '(rules)' | grep -v ' tokens  (.*)$' | grep -q .; then
  echo "FAIL: a failed step's line does not say why"; exit 1
fi
report="$work/saxpy.report.json"  # beside -o, named after it
[ -f "$report" ] || { echo "FAIL: no JSON report at $report"; exit 1; }
python3 - "$report" "$mode" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
budget = 3 if sys.argv[2] == "tiny" else 2
assert r["function"] == "saxpy", r["function"]
assert r["generations"] == budget, ("generations", r["generations"], budget)
rules = sum(1 for a in r["attempts"] if a.get("by") == "rules")  # the rules' seed: no generation
assert rules <= 1 and len(r["attempts"]) == r["generations"] + rules, (len(r["attempts"]), r["generations"])
assert "iterations" in r["tree"] or r["tree"], "no search tree"
for a in r["attempts"]:
    assert a["verdict"] in ("correct", "compiled_only", "compile_error", "static_reject", "no_code",
                            "wrong_answer", "runtime_error", "timeout", "nondeterministic"), a["verdict"]
print("report ok:", len(r["attempts"]), "attempts,", r["stop_reason"])
PY
if [ "$mode" = tiny ]; then
  # The embedded model offers embeddings (LlamaBackend::Embed): --retrieval embeddings ranks the
  # examples with them and the run ends as any other (3: compiled, not run, without a GPU). An
  # endpoint without embeddings is a clear error: retrieval_test's "does not offer embeddings".
  "$bin" optimize "$work/saxpy.cpp" --function saxpy --model "$work/tiny.gguf" --budget 1 --no-cache \
    --cache "$work/cache" --retrieval embeddings -o "$work/emb.cu" > "$work/emb.txt" 2>&1
  rc=$?
  case $rc in 0|3) ;; *) cat "$work/emb.txt"; echo "FAIL: --retrieval embeddings with the embedded model exited $rc"; exit 1;; esac
  grep -q "does not offer embeddings" "$work/emb.txt" && { cat "$work/emb.txt"; echo "FAIL: the embedded model's embeddings were refused"; exit 1; }
fi
echo ok
