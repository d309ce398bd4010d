#!/bin/sh
# CTest content_overlap_meaning_leaks: the meaning check flags the kernels removed as twins
# (src/bench/testdata/overlap_leaks) and a planted behavioural twin
# (src/bench/testdata/overlap_meaning). The structure check runs over the real benchmark and corpus
# plus the leaks; the behaviour runs (slow on a cold cache) over the bundled problems against the
# planted twin, whose loop (a pointer walk, renamed and reordered parameters) the structure check
# does not match.
#   overlap_meaning_leaks.sh REGRAPHT_BIN SOURCE_ROOT
RG=$1
ROOT=$2
fail=0
check() {  # check OUTPUT STATUS PAIR...
  out=$1
  status=$2
  shift 2
  printf '%s\n' "$out" | grep -v '^below threshold'
  [ "$status" -ne 0 ] || { echo "FAIL: suite overlap --meaning passed with the leaks in the corpus"; fail=1; }
  for pair in "$@"; do
    if ! printf '%s\n' "$out" | grep -q "^MEANING [^ ]*$pair"; then
      echo "FAIL: not flagged: $pair"
      fail=1
    fi
  done
}
out=$("$RG" suite overlap --benchmark "$ROOT/suites/cudaeval" "$ROOT/suites/pareval" "$ROOT/problems" \
  --corpus "$ROOT/data/trajectories" "$ROOT/src/bench/testdata/overlap_leaks" --meaning --no-behaviour --show 0 2>&1)
check "$out" $? \
  'pareval/47_sparse_la_spmv ~ [^ ]*overlap_leaks/spmv_coo_f64: loop-nest similarity' \
  'cudaeval/sum_float_array ~ [^ ]*overlap_leaks/sum_i64: loop-nest similarity' \
  'cudaeval/gemv_colmajor_f64 ~ [^ ]*overlap_leaks/gemv_transposed_f32: loop-nest similarity'
out=$("$RG" suite overlap --benchmark "$ROOT/problems" --corpus "$ROOT/src/bench/testdata/overlap_meaning" \
  --meaning --show 0 2>&1)
check "$out" $? 'problems/saxpy ~ [^ ]*overlap_meaning/accumulate_scaled: equal outputs'
exit $fail
