#!/bin/sh
# CTest content_overlap_meaning_leaks: the meaning check over the real benchmark and corpus plus
# the kernels removed as twins (src/bench/testdata/overlap_leaks) and a planted behavioural twin
# (src/bench/testdata/overlap_meaning) must flag each of them.
#   overlap_meaning_leaks.sh REGRAPHT_BIN SOURCE_ROOT
RG=$1
ROOT=$2
out=$("$RG" suite overlap --benchmark "$ROOT/suites/cudaeval" "$ROOT/suites/pareval" "$ROOT/problems" \
  --corpus "$ROOT/data/trajectories" "$ROOT/src/bench/testdata/overlap_leaks" "$ROOT/src/bench/testdata/overlap_meaning" \
  --meaning --show 0 2>&1)
status=$?
printf '%s\n' "$out" | grep -v '^below threshold'
[ $status -ne 0 ] || { echo "FAIL: suite overlap --meaning passed with the leaks in the corpus"; exit 1; }
fail=0
for pair in 'pareval/47_sparse_la_spmv ~ [^ ]*overlap_leaks/spmv_coo_f64: loop-nest similarity' \
            'cudaeval/sum_float_array ~ [^ ]*overlap_leaks/sum_i64: loop-nest similarity' \
            'cudaeval/gemv_colmajor_f64 ~ [^ ]*overlap_leaks/gemv_transposed_f32: loop-nest similarity' \
            'problems/saxpy ~ [^ ]*overlap_meaning/accumulate_scaled: equal outputs'; do
  if ! printf '%s\n' "$out" | grep -q "^MEANING [^ ]*$pair"; then
    echo "FAIL: not flagged: $pair"
    fail=1
  fi
done
exit $fail
