# Shared by the CLI tests that talk to fake_openai_server.py (sourced, POSIX sh).
# Sets up $tmp (removed on exit), fail(), and start_fake_server, which starts
# the server and sets $endpoint. The caller sets $src (the source tree) first.
tmp=$(mktemp -d)
server_pids=
cleanup() {
  for p in $server_pids; do kill "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$tmp"/*.log "$tmp"/*.txt; do [ -f "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }; done
  exit 1
}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || { echo "nvcc not found: skipped"; exit 77; }
# Keep the response and build caches out of the user's cache folder.
export REGRAPHT_CACHE_DIR="$tmp/cache"

# start_fake_server REPLIES_DIR [DOWN_FILE]: requests are logged to $tmp/requests.log.
start_fake_server() {
  start_named_fake_server requests "$@"
}

# start_named_fake_server NAME REPLIES_DIR [DOWN_FILE]: another server (the
# FAKE_* variables of the moment apply to it), logging to $tmp/NAME.log.
start_named_fake_server() {
  python3 "$src/src/cli/fake_openai_server.py" "$2" "$tmp/$1.port" "$tmp/$1.log" ${3:+"$3"} &
  server_pids="$server_pids $!"
  i=0
  while [ ! -s "$tmp/$1.port" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "the fake server $1 did not start"
    sleep 0.1
  done
  endpoint="http://127.0.0.1:$(cat "$tmp/$1.port")/v1"
}
