// Inferring a problem spec from a plain C++ function, for `regrapht optimize`.
//
// Works for simple signatures: raw pointers or std::vector of scalar types,
// integer sizes, scalar parameters and a scalar or void return. Rules:
//   - integer parameters by value are sizes; floating ones are scalars;
//   - `const T*` / `const std::vector<T>&` are inputs; non-const pointers and
//     vector references are in-outs (read and written: always safe to check);
//     `T&` of a scalar is an in-out scalar;
//   - every array has the length of the one size parameter; with no size
//     parameter and only std::vector arrays, a hidden size `n` is used.
// Anything else (two sizes, structs, pointers without a size) is refused with
// a message saying to write a spec; a best-guess spec is still returned so the
// user has a template to edit.
#pragma once

#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::verify {

struct InferredSpec {
  std::string spec_json;            // problem.json text
  std::vector<std::string> notes;   // what was inferred, one line each
  bool complete = false;            // false: a template that needs editing
  std::string problem;              // why it is incomplete
};

// Finds the definition of `function` in `source` and infers a spec.
// InvalidArgument if the function is not defined there or a parameter type is
// not understood.
Result<InferredSpec> InferSpec(const std::string& source, const std::string& function);

}  // namespace regrapht::verify
