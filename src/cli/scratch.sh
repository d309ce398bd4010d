# Shared by the CLI tests that need a scratch folder and nothing else (sourced,
# POSIX sh; fake_server.sh is the one for tests with a fake model server):
# $tmp, removed on exit, and fail MESSAGE, which prints the message and every
# $tmp/*.txt (the commands' captured output) and exits 1.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$tmp"/*.txt; do [ -f "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }; done
  exit 1
}
