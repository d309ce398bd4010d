// The rules' analysis: which loops of a sequential function can run as CUDA
// threads, and how (docs/search.md, "The rules' first step").
//
// The function body is read as a sequence of top-level statements. Each
// counted `for` loop (or range-for over an array) must be one of:
//
//   map        independent iterations: every array element an iteration
//              writes is indexed by the loop variables (an affine index that
//              mentions each of them), written arrays are read only at the
//              element the iteration writes, no scalar declared outside the
//              loop is written, no break or return leaves it. Up to three
//              perfectly nested rectangular loops become a 2-D or 3-D grid
//              (the innermost on x); when the deeper nest is not independent
//              the outer loops alone are tried.
//   reduction  a 1-D loop whose only writes outside its own locals are
//              updates of scalars declared before it, each in a recognised
//              form and never read otherwise: sums and counts (+=, -=, ++,
//              s = s + e), products (*=, /=), min and max (if (e < s) s = e;
//              s = std::min(s, e); the conditional form), argmin/argmax
//              pairs (if (e < s) { s = e; k = i; }) and argmin by index
//              (if (a[i] < a[k]) k = i;).
//
// Other statements run on the host as written, when they only compute
// scalars (an early return, a mean from a sum). Anything else refuses the
// whole function, with the reason and its class (Refusal).
//
// The analysis is syntactic and conservative but not a proof: what it
// accepts is still judged by the harness like any candidate.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "seed/ast.h"

namespace regrapht::seed {

// Why a function gets no seed. `category` is one of the classes of the
// table in docs/search.md: unavailable, parse, no-loop, not-counted,
// dependence, call, type, host-code, length.
struct Refusal {
  std::string category;
  std::string message;  // one line, naming the statement and its line
};

// A replacement of source text inside a kernel body.
struct Edit {
  size_t begin = 0, end = 0;
  std::string text;
};

// A loop-invariant host value a kernel receives as a parameter
// (std::numeric_limits<T>::max(), which device code may not call).
struct Hoisted {
  std::string name;  // the kernel parameter, e.g. "rs_h0"
  std::string expr;  // host text
  std::string type;
};

// One loop the grid takes over.
struct ParallelLoop {
  int var = -1;        // the loop variable's Decl (range-for: the element's)
  std::string type;    // the loop variable's type (range-for: "size_t")
  std::string name;    // its name (range-for: an index the seed declares)
  std::string lo, hi;  // host expressions: var runs over [lo, hi), or [lo, hi] when inclusive
  bool inclusive = false;
  int range_array = -1;  // range-for: the array it walks
  std::string element;   // range-for: the element's declaration ("Particle& p")
  int line = 0;
};

struct Reduction {
  enum class Kind { kSum, kProduct, kMin, kMax, kArgPair, kArgIndex };
  Kind kind = Kind::kSum;
  int var = -1;    // the scalar reduced
  int index = -1;  // kArgPair: the index variable that goes with it
  // kMin/kMax/kArgPair/kArgIndex: the comparison as `candidate cmp current`
  // ("<" keeps the first minimum, "<=" the last, ...).
  std::string cmp;
  size_t key_begin = 0, key_end = 0;  // kArgIndex: the key expression of `var` (a[k])
};

struct Phase {
  enum class Kind { kHost, kMap, kReduce };
  Kind kind = Kind::kHost;
  const Node* stmt = nullptr;         // the top-level statement
  std::vector<ParallelLoop> loops;    // kMap: 1-3, outermost first; kReduce: 1
  const Node* body = nullptr;         // the innermost parallel loop's body
  std::vector<Reduction> reductions;  // kReduce
  std::vector<int> captured;          // Decls a kernel receives (params, host locals), in order
  std::set<int> sized;                // arrays whose size() the kernel uses
  std::set<int> arrays_read, arrays_written;
  std::vector<Edit> edits;  // inside `body` (and reduction keys)
  std::vector<Hoisted> hoisted;
  std::string note;  // "map over (y, x)", "sum reduction of `s`", ...
};

struct Plan {
  std::vector<Phase> phases;       // the body's statements, in order
  std::set<int> device_functions;  // FunctionDef indices the kernels call
  std::set<int> tables;            // constant arrays (Decls) copied to the device
  std::set<int> temps;             // local std::vector Decls that become device arrays
  std::string pattern;             // "map", "map-2d", "reduction", ... joined by "+"
};

struct Analysis {
  std::optional<Plan> plan;
  Refusal refusal;  // when there is no plan
};

// Analyses `f`, a function of `ast`.
Analysis Analyze(const FileAst& ast, const FunctionDef& f);

}  // namespace regrapht::seed
