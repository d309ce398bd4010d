// The rules' code generator: a Plan (analyze.h) as a CUDA drop-in with the
// function's own signature. The file is the user's source with the
// function replaced:
//
//   #include <cuda_runtime.h>
//   <the source before the function; helpers the kernels call get __host__ __device__>
//   <constant tables copied to __device__ memory, rs_min/rs_max when used>
//   __global__ kernels, one per parallel loop (two per reduction)
//   <the function: its host statements as written; each array copied to the
//    device before the first loop that uses it; a launch per loop; the
//    written arguments copied back and everything freed before it returns>
//   <the source after the function>
//
// Maps run their loops as grid-stride loops (every iteration runs whatever
// the grid's size; `continue` keeps its meaning), the body as written.
// Reductions run the body as written into per-thread copies of the reduced
// scalars (started from the identity for sums and products, from the
// initial value otherwise), combine them in a shared-memory tree per block,
// then in one block over the blocks' results, in a fixed order: the result
// does not depend on the schedule (docs/search.md discusses float sums).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "seed/analyze.h"

namespace regrapht::seed {

// How many elements each pointer argument has, as C++ over the function's
// parameters (from the problem spec: docs/problem-format.md).
struct ArrayLengths {
  std::map<std::string, std::string> cpp;  // argument name -> expression
  std::vector<std::string> setup;          // declarations the expressions use
};

struct Generated {
  std::string code;  // empty: refused
  Refusal refusal;
};

Generated Generate(const FileAst& ast, const FunctionDef& f, const Plan& plan,
                   const ArrayLengths& lengths);

}  // namespace regrapht::seed
