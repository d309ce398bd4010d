#!/bin/sh
# A real browser renders the report page and the optimize page: headless
# chromium loads each file with logging on; the test fails on any console
# message (the pages have no scripts and load nothing, so any message is an
# error), checks that the DOM chromium built holds the tables, and that the
# screenshot is not blank (png_nonblank.py), and that in a 1366 px wide
# window (a laptop) no table or figure makes the page scroll sideways: wide
# ones scroll inside their own box. Skipped (77) where chromium is absent:
# scripts/install-deps.sh installs Debian's chromium.
# Usage: report_browser_test.sh REGRAPHT_BINARY REPORT_FIXTURE_DB SOURCE_DIR
set -u
bin=$1
fixture=$2
src=$3
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || {
  echo "chromium not found: skipped (scripts/install-deps.sh installs it)"
  exit 77
}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
"$fixture" "$tmp/r.db" || fail "report_fixture_db"
"$bin" report --db "$tmp/r.db" --format html --k 1,2 -o "$tmp/report.html" 2>/dev/null || fail "report html"
"$bin" tree show "$src/src/cli/testdata/tree/report.json" -o "$tmp/tree.html" 2>/dev/null || fail "tree show"

# render PAGE MUST_CONTAIN: screenshot, console, DOM.
render() {
  page=$1
  name=$(basename "$page" .html)
  set -- --headless --disable-gpu --no-sandbox --no-first-run --disable-extensions --hide-scrollbars \
    --user-data-dir="$tmp/profile-$name" --enable-logging=stderr --v=0 --window-size=1280,1600
  timeout 120 "$chromium" "$@" --screenshot="$tmp/$name.png" "file://$page" >"$tmp/$name.out" 2>"$tmp/$name.log" ||
    fail "chromium could not render $page: $(tail -5 "$tmp/$name.log")"
  [ -s "$tmp/$name.png" ] || fail "no screenshot of $page: $(tail -5 "$tmp/$name.log")"
  if grep -i "CONSOLE" "$tmp/$name.log" >&2; then fail "console messages while rendering $page"; fi
  python3 "$src/src/cli/png_nonblank.py" "$tmp/$name.png" 0.02 || fail "the screenshot of $page is blank"
  timeout 120 "$chromium" "$@" --dump-dom "file://$page" >"$tmp/$name.dom" 2>"$tmp/$name.dom.log" ||
    fail "chromium --dump-dom $page: $(tail -5 "$tmp/$name.dom.log")"
  if grep -i "CONSOLE" "$tmp/$name.dom.log" >&2; then fail "console messages while loading $page"; fi
}
# fits PAGE: in a 1366 px wide window (a laptop screen) nothing makes the page scroll sideways: a
# table or figure wider than the window scrolls inside its own box. A copy of the page with a script
# appended measures the layout chromium made and writes the verdict into the DOM it dumps.
fits() {
  page=$1
  name=$(basename "$page" .html)-1366
  { cat "$page"; cat <<'JS'; } >"$tmp/$name.html"
<script>
(function () {
  var vw = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > vw + 1)
    bad.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + vw + " px window");
  var boxes = document.querySelectorAll("table, figure, pre, svg");
  for (var i = 0; i < boxes.length; i++) {
    var b = boxes[i], r = b.getBoundingClientRect();
    if (r.right > vw + 1) bad.push(b.tagName + (b.id ? "#" + b.id : "") + " ends at " + Math.round(r.right) + " px");
  }
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = bad.length ? "OVERFLOW " + bad.join("; ") : "FITS " + vw;
  document.body.appendChild(out);
})();
</script>
JS
  timeout 120 "$chromium" --headless --disable-gpu --no-sandbox --no-first-run --disable-extensions \
    --user-data-dir="$tmp/profile-$name" --window-size=1366,900 --virtual-time-budget=5000 \
    --dump-dom "file://$tmp/$name.html" >"$tmp/$name.dom" 2>"$tmp/$name.log" ||
    fail "chromium --dump-dom $name: $(tail -5 "$tmp/$name.log")"
  verdict=$(sed -n 's/.*<pre id="layout-check">\([^<]*\)<.*/\1/p' "$tmp/$name.dom")
  case $verdict in
    FITS*) echo "$(basename "$page") at 1366 px: $verdict" ;;
    *) fail "$(basename "$page") at 1366 px: ${verdict:-no layout verdict in the DOM}" ;;
  esac
}
render "$tmp/report.html"
for id in metrics-cudaeval tiers-cudaeval problems-cudaeval speedups-cudaeval environments; do
  grep -q "id=\"$id\"" "$tmp/report.dom" || fail "chromium's DOM of the report lacks #$id"
done
fits "$tmp/report.html"
render "$tmp/tree.html"
for id in summary path tree attempt-0; do
  grep -q "id=\"$id\"" "$tmp/tree.dom" || fail "chromium's DOM of the optimize page lacks #$id"
done
fits "$tmp/tree.html"
echo ok
