# Shared by the CLI tests that talk to fake_openai_server.py (sourced, POSIX sh).
# Sets up $tmp (removed on exit), fail(), and start_fake_server, which starts
# the server and sets $endpoint. The caller sets $src (the source tree) first.
tmp=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
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
  python3 "$src/src/cli/fake_openai_server.py" "$1" "$tmp/port" "$tmp/requests.log" ${2:+"$2"} &
  server_pid=$!
  i=0
  while [ ! -s "$tmp/port" ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && fail "the fake server did not start"
    sleep 0.1
  done
  endpoint="http://127.0.0.1:$(cat "$tmp/port")/v1"
}
