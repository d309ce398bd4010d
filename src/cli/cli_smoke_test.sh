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
# Repetition control: numbers checked, and an endpoint needs a known server kind.
"$bin" optimize x.cpp --function f --dry-multiplier abc > /dev/null 2>&1
[ $? -eq 2 ] || { echo "--dry-multiplier abc must exit 2"; exit 1; }
"$bin" optimize x.cpp --function f --repeat-penalty 0 > /dev/null 2>&1
[ $? -eq 2 ] || { echo "--repeat-penalty 0 must exit 2"; exit 1; }
out=$("$bin" bench --suite s --repeat-penalty 1.2 --endpoint http://127.0.0.1:9/v1 --model-name m 2>&1)
[ $? -eq 2 ] || { echo "--repeat-penalty with an endpoint of unknown kind must exit 2"; exit 1; }
echo "$out" | grep -q "guided-decoding" || { echo "the error must name --guided-decoding: $out"; exit 1; }
"$bin" optimize x.cpp --function f --dry-multiplier 1 --guided-decoding vllm --endpoint http://127.0.0.1:9/v1 --model-name m > /dev/null 2>&1
[ $? -eq 2 ] || { echo "--dry-multiplier with vLLM must exit 2"; exit 1; }
# --pipeline: auto or a depth in [0, 64].
for bad in two -1 65 2.5; do
  "$bin" optimize x.cpp --function f --pipeline "$bad" > /dev/null 2>&1
  [ $? -eq 2 ] || { echo "--pipeline $bad must exit 2"; exit 1; }
done
"$bin" bench merge --help > /dev/null || { echo "regrapht bench merge --help failed"; exit 1; }
echo ok
