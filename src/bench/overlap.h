// The training corpus must not contain benchmark problems. Two checks:
//
// 1. Exact overlap: the same name, function name or normalised reference
//    source (comments, strings and whitespace removed) in both. ParEval's
//    problem and function names are checked too (the corpus must not contain
//    ParEval's 60 problems).
// 2. Near duplicates: token-level similarity of the code with identifiers and
//    literals masked, so a renamed copy, a copy in another precision or a
//    stencil with 5 taps in place of 9 is still found. Every benchmark
//    problem's code (reference.cpp, solution.cu, kernel.cu) is compared with
//    every corpus kernel's code (reference.cpp and every trajectory step).
//    The method, its parameters and the measured score distribution are in
//    docs/bench.md ("The overlap check").
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "regrapht/overlap.h"
#include "regrapht/status.h"

namespace regrapht::bench {

using OverlapItem = regrapht::OverlapItem;  // public: regrapht/overlap.h

// Every folder under `root` (recursively) holding a problem.json. Fails on an
// unreadable problem.json or trajectory.json, or a step file that is missing.
Result<std::vector<OverlapItem>> CollectItems(const fs::path& root, const std::string& set);

struct Overlap {
  OverlapItem a, b;
  std::string reason;  // "name", "function", "source"
};

// Pairs (a in `first`, b in `second`) that overlap.
std::vector<Overlap> FindOverlaps(const std::vector<OverlapItem>& first,
                                  const std::vector<OverlapItem>& second);

// Items whose name (without a "NN_" prefix) or function name is in
// `names` (e.g. ParEval's); reason "pareval".
std::vector<Overlap> FindNamed(const std::vector<OverlapItem>& items,
                               const std::set<std::string>& names);

// Reads a names file: one name per line, '#' comments.
Result<std::set<std::string>> ReadNames(const fs::path& file);

// ---------------------------------------------------------------------------
// Near duplicates

// One token of code after masking. Kept as written: C++ keywords, operators
// and punctuation, CUDA qualifiers and built-in variables, names starting
// with "__", "cuda", "atomic" or "make_" (intrinsics, the runtime API,
// atomics), vector types (float4) and the standard math functions. Scalar
// types become their class: "FLT" (float, double, half) or "INT" (int, long,
// size_t, uint8_t, ...). Numbers become "N". Every other name is an
// identifier (`identifier` true, `text` the name as written): fingerprints
// number identifiers by first occurrence within each k-gram, so renaming
// changes nothing but the data flow (a[i] * a[i] versus a[i] * b[i]) still
// shows. Dropped: comments, string and character literals, preprocessor
// lines, braces, and qualifiers that do not change what code computes
// (const, __restrict__, volatile, inline, __forceinline__, static,
// constexpr).
struct MaskedToken {
  bool identifier = false;
  std::string text;
  bool operator==(const MaskedToken&) const = default;
};

// The masked tokens of `source`. With `device_code_only`, only the device
// code is kept: every top-level declaration that starts with __global__,
// __device__ or __constant__ (or a template of one), so a drop-in's host
// wrapper (allocate, copy, launch, free: the same in every problem) is not
// compared; a file without device code is kept whole.
std::vector<MaskedToken> MaskTokens(std::string_view source, bool device_code_only);

// The fingerprints of a token sequence: a 64-bit hash of every k-gram
// (identifiers numbered as above), winnowed with `window` (the minimum hash of
// every `window` consecutive k-grams; 1 keeps every k-gram). Sorted, unique;
// empty when there are fewer than `k` tokens.
// REQUIRES: k >= 1, window >= 1.
std::vector<uint64_t> Fingerprints(const std::vector<MaskedToken>& tokens, int k, int window);

// The defaults are the measured choice of docs/bench.md ("The overlap check").
struct NearDuplicateOptions {
  int kgram = 9;
  int window = 1;
  double threshold = 0.27;  // a pair at or above it is flagged
};

// The similarity of one benchmark item and one corpus item: the most similar
// pair of their code files.
struct PairScore {
  size_t first = 0;   // index into `first`
  size_t second = 0;  // index into `second`
  std::string file_first,
      file_second;  // the two files (empty if no file pair shares a fingerprint)
  double similarity = 0;
  size_t shared = 0;  // fingerprints the two files share
};

struct NearDuplicateReport {
  // Every (first, second) pair, most similar first (ties: first, then second index).
  std::vector<PairScore> pairs;
  size_t files_first = 0, files_second = 0;  // code files read
};

// Scores every pair of items (a in `first`, b in `second`). The similarity
// of two files is the weighted Jaccard index of their fingerprint sets: the
// summed weight of the shared fingerprints over the summed weight of all of
// theirs, each fingerprint weighted ln(1 + N / df), where N is the number of
// items in `first` and `second` together and df how many of them have it in
// any of their files: code that many kernels share (loop headers, a CSR row
// loop) counts for less than code few do. A renamed copy scores 1, unrelated
// code near 0. Every file of one item is compared with every file of the
// other; .cu files by their device code (MaskTokens' `device_code_only`),
// others whole. Fails if a code file cannot be read.
Result<NearDuplicateReport> ScoreNearDuplicates(const std::vector<OverlapItem>& first,
                                                const std::vector<OverlapItem>& second,
                                                const NearDuplicateOptions& options);

// The similarity at quantile q (0..1, nearest rank) of `report.pairs`.
double ScoreQuantile(const NearDuplicateReport& report, double q);

}  // namespace regrapht::bench
