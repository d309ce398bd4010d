// The structural half of the meaning check (bench/overlap_meaning.h): the
// loop-nest structure of a sequential reference with every name erased,
// compared between benchmark problems and corpus kernels.
//
// A function (and the functions of its file it calls, inlined where called)
// is read from its libclang tree (seed/ast.h) into a bag of features:
//
//   shape <nest>        the loop nesting, e.g. "L(L(L))L" (W: while/do)
//   loop <cond> <inc>   each loop's condition and step: "v0<s ++"
//   W<op> <lhs>         a store into an array: "W+= A[A[v0]]"
//   W<op> <lhs> <- ops  the same with the operators and math calls of its
//                       right side, sorted, each once: "W+= A[A[v0]] <- *"
//   S<op> <- ops        an update of a scalar (reductions): "S+= <- *"
//   R <access>          an array read: "R A[v0*s+v1]"
//   if <cond>           a branch condition: "if A[v0]<s"
//   call <name>         a standard math function (sqrt, exp, max, ...)
//   ret <ops>           a return with a value
//
// Names are erased by role: a loop's variable is v<depth> (0: outermost), an
// array (pointer, std::vector, std::array, C array) A, any other variable s,
// a literal c. A range-for is the counted loop over its array's indices
// ("loop (v0<s) ++") and its element the array's element A[v<depth>], and
// a member of an element is the element (e.row reads as A[v0]), so a COO
// matrix held as a struct array and one held as three arrays read alike.
// Casts, parentheses and constructors of one argument are transparent;
// operands of commutative operators are sorted, a > b reads as b < a.
//
// Two bags are compared by weighted Jaccard (sum of min counts over sum of
// max counts), each feature weighted ln(1 + N / df) over the N structures
// scored together, so that the common (a map's "R A[v0]") counts for less
// than the rare (a scatter "W+= A[A[v0]]").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::seed {
struct FileAst;
}

namespace regrapht::bench {

struct LoopStructure {
  std::map<std::string, int> features;  // feature -> count
  std::string shape;                    // the "shape" feature's nest
};

// The structure of `function` in `ast`. Fails if the file does not define it.
Result<LoopStructure> NormaliseStructure(const seed::FileAst& ast, const std::string& function);

// Parses `source` (libclang; `file` names it in errors) and normalises
// `function`. Fails when the front end is unavailable or the file has errors.
Result<LoopStructure> StructureOf(const std::string& source, const std::string& function, const std::string& file);

// One feature a line: "<count>\t<feature>"; the shape is the "shape" feature.
std::string SerializeStructure(const LoopStructure& s);
Result<LoopStructure> ParseStructure(const std::string& text);

struct StructurePair {
  size_t first = 0, second = 0;
  double similarity = 0;
};

// Every (a in `first`, b in `second`) pair's similarity, most similar first
// (ties: first, then second index). Weights from `first` and `second`
// together.
std::vector<StructurePair> ScoreStructures(const std::vector<LoopStructure>& first,
                                           const std::vector<LoopStructure>& second);

// The weighted Jaccard similarity of two bags under `weights` (a feature
// missing from it weighs 1). 0 when both are empty.
double StructureSimilarity(const LoopStructure& a, const LoopStructure& b,
                           const std::map<std::string, double>& weights);

}  // namespace regrapht::bench
