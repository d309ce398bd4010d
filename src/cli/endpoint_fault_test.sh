#!/bin/sh
# Endpoint faults against chat, optimize and bench, kept as data: each line of
# testdata/endpoint_faults.txt names a fault of fake_openai_server.py, a
# command, the exit status and a message it must give, and what it must have
# written (optimize's report and best file, bench's rows). Every command runs
# under a 120 s watchdog: a run that needs it is a hang. Then Ctrl-C/SIGTERM:
# optimize and bench stopped by a signal while a request hangs write their
# report, best file and rows and exit 130/143, and a bench database stays
# consistent and resumable. Ends with the tally: faults tried / clear errors
# (right exit, right message, nothing lost) / hangs / lost runs.
# Usage: endpoint_fault_test.sh REGRAPHT_BINARY SOURCE_DIR
# ($FAULT_ONLY=REGEX: only the cases whose names match, e.g. 'sig|resume'.)
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
command -v timeout >/dev/null 2>&1 || { echo "timeout(1) not found: skipped"; exit 77; }

mkdir -p "$tmp/suite"
cp -r "$src/problems/saxpy" "$tmp/suite/saxpy"
echo '{"format": "regrapht-suite", "version": 1, "name": "faults"}' >"$tmp/suite/suite.json"
cp "$src/examples/saxpy.cpp" "$tmp/saxpy.cpp"
export FAKE_SEARCH_REPLY="$src/problems/saxpy/solution.cu"
# --model-id: every fake server has a port of its own, and the resumed bench must find its rows.
base_flags="--model-name test-model --model-id test-model --no-cache --max-retries 1"
endpoint_flags="$base_flags --request-timeout 3"

# start SETTINGS: a fresh fake server with the FAKE_* settings (sets $endpoint).
start() {
  rm -f "$tmp/requests.port"
  (
    unset FAKE_MODE FAKE_GOOD FAKE_FAIL_TIMES
    for kv in $1; do [ "$kv" = - ] || export "$kv"; done
    exec python3 "$src/src/cli/fake_openai_server.py" "$tmp" "$tmp/requests.port" "$tmp/requests.log"
  ) &
  server=$!
  server_pids="$server_pids $server"
  i=0
  while [ ! -s "$tmp/requests.port" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "the fake server did not start"
    sleep 0.1
  done
  endpoint="http://127.0.0.1:$(cat "$tmp/requests.port")/v1"
}
stop() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }

# run_command COMMAND WORKDIR: runs it against $endpoint (watchdog 120 s); sets $rc.
run_command() {
  w=$2
  case $1 in
    chat)
      # shellcheck disable=SC2086
      timeout 120 "$bin" chat --endpoint "$endpoint" $endpoint_flags hi >"$w/out.txt" 2>&1 ;;
    optimize)
      # shellcheck disable=SC2086
      timeout 120 "$bin" optimize "$tmp/saxpy.cpp" --function saxpy --method best-of-n --budget 5 \
        --endpoint "$endpoint" $endpoint_flags --max-endpoint-failures 1 -o "$w/out.cu" >"$w/out.txt" 2>&1 ;;
    bench)
      # shellcheck disable=SC2086
      timeout 120 "$bin" bench --suite "$tmp/suite" --method standard --samples 3 --endpoint "$endpoint" \
        $endpoint_flags --max-endpoint-failures 1 --db "$w/db.sqlite" --quiet >"$w/out.txt" 2>&1 ;;
    *) fail "unknown command $1" ;;
  esac
  rc=$?
}

rows() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM results').fetchone()[0])" "$1" 2>/dev/null || echo 0; }

tried=0 clear=0 hangs=0 lost=0 wrong=0
failures=
selected() { [ -z "${FAULT_ONLY:-}" ] || echo "$1" | grep -qE "$FAULT_ONLY"; }
trim() { printf '%s' "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }
while IFS='|' read -r name settings cmd want message writes; do
  name=$(trim "$name")
  case $name in '' | '#'*) continue ;; esac
  selected "$name" || continue
  settings=$(trim "$settings")
  cmd=$(trim "$cmd")
  want=$(trim "$want")
  message=$(trim "$message")
  writes=$(trim "$writes")
  w="$tmp/case-$name"
  mkdir -p "$w"
  start "$settings"
  run_command "$cmd" "$w"
  stop
  tried=$((tried + 1))
  problem=
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    hangs=$((hangs + 1))
    problem="HANG (killed by the 120 s watchdog)"
  else
    case "/$want/" in */$rc/*) ;; *) problem="exit $rc, expected $want" ;; esac
    grep -qF -- "$message" "$w/out.txt" || problem="${problem:+$problem; }no \"$message\" in the output"
    missing=
    case $writes in
      report) [ -s "$w/out.report.json" ] || missing="the report" ;;
      report+cu)
        [ -s "$w/out.report.json" ] || missing="the report"
        [ -s "$w/out.cu" ] || missing="${missing:+$missing and }the best file" ;;
      rows=*) n=$(rows "$w/db.sqlite"); [ "$n" = "${writes#rows=}" ] || missing="$n rows, expected ${writes#rows=}" ;;
    esac
    if [ -n "$missing" ]; then
      lost=$((lost + 1))
      problem="${problem:+$problem; }LOST RUN: $missing"
    fi
  fi
  if [ -z "$problem" ]; then
    clear=$((clear + 1))
    echo "ok    $name: exit $rc, \"$message\""
  else
    [ $rc -eq 124 ] || wrong=$((wrong + 1))
    echo "FAIL  $name: $problem"
    sed 's/^/      | /' "$w/out.txt" | tail -n 15
    failures="$failures $name"
  fi
done <"$src/src/cli/testdata/endpoint_faults.txt"

# Signals: a run that is waiting on a request that never comes back.
# signal_case NAME SIGNAL EXIT COMMAND: starts COMMAND (optimize or bench)
# against a server that answers once and then hangs, sends SIGNAL once the
# second request arrived, and checks the exit status and what was written.
signal_case() {
  name=$1 sig=$2 want=$3 cmd=$4
  selected "$name" || return 0
  w="$tmp/case-$name"
  mkdir -p "$w"
  # The table's hang cases left "fault hang" lines: without this the wait
  # below ends at once and the signal can come before the first generation.
  : >"$tmp/requests.log"
  start "FAKE_GOOD=1 FAKE_MODE=hang"
  case $cmd in
    optimize)
      # shellcheck disable=SC2086
      timeout 120 "$bin" optimize "$tmp/saxpy.cpp" --function saxpy --method best-of-n --budget 5 \
        --endpoint "$endpoint" $base_flags --request-timeout 0 -o "$w/out.cu" >"$w/out.txt" 2>&1 &
      ;;
    bench)
      # shellcheck disable=SC2086
      timeout 120 "$bin" bench --suite "$tmp/suite" --method standard --samples 3 --endpoint "$endpoint" \
        $base_flags --request-timeout 0 --db "$w/db.sqlite" --quiet >"$w/out.txt" 2>&1 &
      ;;
  esac
  pid=$!
  i=0
  until grep -q "^fault hang" "$tmp/requests.log" 2>/dev/null; do
    i=$((i + 1))
    { [ $i -gt 900 ] || ! kill -0 "$pid" 2>/dev/null; } && break
    sleep 0.1
  done
  # optimize: the first reply's check finished (its step line is out), so
  # there is a result to keep; the signal cuts the second, hanging request.
  # (With the model's next request in flight while a candidate is checked,
  # the signal could otherwise cut that check, which is interrupted by design.)
  if [ "$cmd" = optimize ]; then
    i=0
    until grep -q "^\[gen *1/" "$w/out.txt" 2>/dev/null; do
      i=$((i + 1))
      { [ $i -gt 1200 ] || ! kill -0 "$pid" 2>/dev/null; } && break
      sleep 0.1
    done
  fi
  sleep 0.5
  # timeout(1) passes the signal on to the command.
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  stop
  : >"$tmp/requests.log"
  tried=$((tried + 1))
  problem=
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    hangs=$((hangs + 1))
    problem="HANG after $sig"
  else
    [ $rc -eq "$want" ] || problem="exit $rc after $sig, expected $want"
    missing=
    if [ "$cmd" = optimize ]; then
      [ -s "$w/out.report.json" ] || missing="the report"
      [ -s "$w/out.cu" ] || missing="${missing:+$missing and }the best file"
      [ -z "$missing" ] && ! python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r['interrupted'] and r['signal']==sys.argv[2] else 1)" \
        "$w/out.report.json" "SIG$sig" && problem="${problem:+$problem; }the report does not say interrupted by $sig"
    else
      n=$(rows "$w/db.sqlite")
      [ "$n" = 1 ] || missing="$n rows, expected 1"
      ok=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])" "$w/db.sqlite")
      [ "$ok" = ok ] || problem="${problem:+$problem; }integrity_check: $ok"
      # Said by the clean stop only (the default action of the signal would say nothing).
      grep -q "STOPPED EARLY: interrupted (SIG$sig); 1 sample(s) stored, 1 not finished" "$w/out.txt" ||
        problem="${problem:+$problem; }no STOPPED EARLY line"
    fi
    if [ -n "$missing" ]; then
      lost=$((lost + 1))
      problem="${problem:+$problem; }LOST RUN: $missing"
    fi
  fi
  if [ -z "$problem" ]; then
    clear=$((clear + 1))
    echo "ok    $name: exit $rc"
  else
    wrong=$((wrong + 1))
    echo "FAIL  $name: $problem"
    sed 's/^/      | /' "$w/out.txt" | tail -n 15
    failures="$failures $name"
  fi
}
signal_case opt-sigint INT 130 optimize
signal_case opt-sigterm TERM 143 optimize
signal_case bench-sigterm TERM 143 bench
signal_case bench-sigint INT 130 bench

# The interrupted bench resumes: the stored row is kept, the rest are done.
if selected bench-resume; then
start "-"
# shellcheck disable=SC2086
timeout 120 "$bin" bench --suite "$tmp/suite" --method standard --samples 3 --endpoint "$endpoint" \
  $endpoint_flags --db "$tmp/case-bench-sigint/db.sqlite" --quiet >"$tmp/resume.txt" 2>&1
rc=$?
stop
grep -q "3 samples (1 already done)" "$tmp/resume.txt" || { cat "$tmp/resume.txt"; fail "the interrupted bench did not resume (exit $rc)"; }
[ "$(rows "$tmp/case-bench-sigint/db.sqlite")" = 3 ] || fail "the resumed bench has $(rows "$tmp/case-bench-sigint/db.sqlite") rows"
echo "ok    bench-resume: 1 row kept, 2 done"
fi

echo "endpoint faults: $tried tried / $clear clear errors / $hangs hangs / $lost lost runs / $wrong other failures"
[ -z "$failures" ] || fail "cases failed:$failures"
echo ok
