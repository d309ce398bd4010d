// Timing sizes as numbers to scale and as text to rewrite: shared by
// `suite calibrate` (which scales them up until the reference takes long
// enough, docs/bench.md) and the CUDA emulator's full-size case (which scales
// them down to what the emulator can run, docs/emulator.md).
//
// Scaling: one factor multiplies every size above `param_max` (the extents:
// n, rows, cols, ...), keeping the ratios between them; sizes at most
// `param_max` are parameters (a radius, iterations, channels, k) and stay. A
// power of two stays a power of two; a size that was not a multiple of 32
// stays one that is not (partial blocks).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "regrapht/problem.h"
#include "regrapht/status.h"

namespace regrapht::verify {

// "n=1024 m=512" (name order).
std::string FormatSizes(const std::map<std::string, int64_t>& sizes);

// `sizes` with every size above `param_max` scaled by `factor`, never below
// `param_max` + 1, keeping powers of two and non-multiples of 32 as such.
std::map<std::string, int64_t> ScaleSizes(const std::map<std::string, int64_t>& sizes, double factor,
                                          int64_t param_max);

// The spec text with the top-level "timing" entry's "sizes" replaced by
// `sizes` and nothing else changed (other keys of "timing", their order, and
// every other byte of the file stay). Fails naming `file` when the text has
// no top-level "timing" object.
Result<std::string> RewriteTimingSizes(const std::string& spec_text, const std::map<std::string, int64_t>& sizes,
                                       const std::string& file);

// A problem whose timing input was fitted under a memory cap: the emulator's
// full-size case (Verifier with `emulate`), and the unit tests' bundled
// problems (verify/test_util.h), which test the harness, not the sizes.
// One size of the emulator's timing-size input (TimingRungs below).
struct TimingRung {
  TestCase test;
  std::string note;  // when not the spec's own sizes: "n=32768 of n=131072"
};

struct FittedTiming {
  Problem problem;      // `p`, or `p` with its timing sizes scaled down
  bool scaled = false;
  std::string note;     // when scaled: "n=16777216 of n=134217728"
  std::vector<TimingRung> rungs;  // set by the emulating Verifier (TimingRungs)
};

// When one copy of `p`'s timing input (EstimateBytes) needs more than
// `max_bytes` (> 0), the largest scaling of its timing sizes (ScaleSizes,
// factor < 1) that needs at most `max_bytes` and that the spec parser
// accepts (types, size expressions, ranges); its spec_text is the rewritten
// text, so caches keyed by it tell the two apart. Otherwise, or when no
// scaling fits, `p` unchanged (scaled false). Fails only on a spec whose
// timing input cannot be sized at all.
Result<FittedTiming> FitTimingInput(const Problem& p, int64_t max_bytes, int64_t param_max = 64);

// The emulator's timing-size input at several sizes, its "rungs"
// (docs/emulator.md): the fitted input `fit` (FitTimingInput of `original`)
// and below it its sizes scaled by 1/2, 1/4, ... (ScaleSizes), while they
// parse and need more bytes than every test case, at most `max_rungs` in
// all; ascending. An emulated run checks the smallest and then the next ones
// while their work, predicted from what it measured, fits its budget
// (VerifyOptions::emulate_max_work); the reference computes them all.
Result<std::vector<TimingRung>> TimingRungs(const Problem& original, const FittedTiming& fit, int max_rungs = 6,
                                            int64_t param_max = 64);

}  // namespace regrapht::verify
