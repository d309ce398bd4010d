#!/bin/sh
# Every subcommand builds its options and prints --help; bad usage exits 2.
set -e
bin="$1"
"$bin" --help > /dev/null
for c in optimize verify problem bench report suite graph tree chat bench-llm model version; do
  "$bin" "$c" --help > /dev/null || { echo "regrapht $c --help failed"; exit 1; }
done
set +e
"$bin" no-such-command > /dev/null 2>&1
[ $? -eq 2 ] || { echo "an unknown command must exit 2"; exit 1; }
"$bin" verify > /dev/null 2>&1
[ $? -eq 2 ] || { echo "verify without --problem must exit 2"; exit 1; }
"$bin" bench > /dev/null 2>&1
[ $? -eq 2 ] || { echo "bench without --suite must exit 2"; exit 1; }
"$bin" bench merge --help > /dev/null || { echo "regrapht bench merge --help failed"; exit 1; }
echo ok
