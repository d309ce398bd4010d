// The rules' first step: a verified-able CUDA drop-in of a problem's
// sequential reference, written without a model (docs/search.md, "The
// rules' first step").
//
//   seed::Seed s = seed::Parallelize(problem);
//   if (s.written) { ... s.code is a drop-in: the function's own signature,
//                    allocate, copy, launch, copy back ... }
//   else           { ... s.category, s.reason say why not ... }
//
// The reference is parsed by a real C++ front end (libclang, ast.h); its
// loops are analysed (analyze.h) and, when every top-level loop is an
// independent map or a recognised reduction, written as kernels
// (codegen.h). Nothing here runs the code: the harness judges a seed like
// any candidate, and a seed it rejects is not a success.
//
// Thread safety: Parallelize may be called concurrently (each call parses
// with its own libclang index).
#pragma once

#include <string>
#include <vector>

#include "regrapht/problem.h"

namespace regrapht::seed {

// The graph technique a seed applies (data/taxonomy.json).
inline constexpr const char* kSeedTechnique = "thread_mapping";

struct Seed {
  bool written = false;
  std::string code;                // the drop-in (.cu), when written
  std::string pattern;             // "map", "map-2d", "reduction", "map+reduction", ...
  std::vector<std::string> notes;  // one line per parallelized loop
  // When not written: the class (a refusal category of analyze.h:
  // unavailable, parse, no-loop, not-counted, dependence, call, type,
  // host-code, length, form) and the reason, one line.
  std::string category;
  std::string reason;
};

// Whether this build has the front end; without it every seed is refused
// with category "unavailable" and the package to install.
bool Available();

// The seed of `problem`'s drop-in form (its spec's function in
// reference_source; pointer lengths from the spec).
Seed Parallelize(const Problem& problem);

}  // namespace regrapht::seed
