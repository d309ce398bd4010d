// Inferring a problem spec from a plain C++ function, for `regrapht optimize`.
//
// The rules (docs/inference.md states them for users; keep the two in step):
//   - integer parameters by value (int, long, unsigned, size_t, int32_t, ...)
//     are sizes; floating, bool, char and 8/16-bit integer ones are scalars;
//   - `const T*`, `const T x[]` and `const std::vector<T>&` are inputs;
//     non-const pointers and vector references are in-outs when the body
//     writes them (or passes them on), inputs with "const": false when it
//     only reads them, and a vector the body resizes (push_back, resize, ...)
//     is a resizable output; `T&` of a scalar is an in-out;
//     `std::array<T, K>&` is an array of the constant length K;
//   - element types are scalars or structs the source defines with scalar
//     fields (fixed-size scalar arrays become one field per element);
//   - with one size parameter n every pointer and vector has length n (n*n
//     when the body subscripts it with n as a factor); with none and only
//     vectors (and std::arrays), a hidden size `n` is theirs; with several,
//     loop bounds and subscripts (`x[i * cols + j]`, i < rows, j < cols)
//     give the lengths;
//   - tests: every size 1, 7, 300, 1000, 4099 and 4099 again (seeds 1-6);
//     timing at 2^20; with several sizes (or an n x n array) the element
//     count follows those targets instead (each size about target^(1/d)).
// When a spec cannot be completed (a pointer without a size, several sizes
// whose lengths the subscripts do not give, an unsupported type, a struct
// the source does not define, no output, a function template) the result
// is a template:
// `complete` is false, `problem` says why, and every value the user must
// write starts with kFillIn and is named in `to_fill`.
#pragma once

#include <string>
#include <optional>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::verify {

// Prefix of every template value the user must replace.
inline constexpr char kFillIn[] = "FILL IN: ";

struct InferredSpec {
  std::string spec_json;             // problem.json text (a template when !complete)
  std::vector<std::string> notes;    // what was inferred, one line each
  bool complete = false;             // false: a template that needs editing
  std::string problem;               // why it is incomplete ("; "-joined reasons)
  std::vector<std::string> to_fill;  // field paths to edit: "args[2].length", ...
};

// Finds the definition of `function` in `source` and infers a spec, or a
// template. InvalidArgument only if the function is not defined there.
Result<InferredSpec> InferSpec(const std::string& source, const std::string& function);

// Size values for test cases and timing with `dims` size variables (the
// last rule above): six test cases, then the timing case. dims == 1: the
// 1-D sizes; dims >= 2: per-dimension values whose product follows them,
// distinct per dimension in the small cases so swapped sizes show.
// `square` (one size n of an n x n array): n about the square roots of the
// 1-D targets (1, 7, 31, 65, 300, 300; timing 1024).
std::vector<std::vector<int64_t>> InferredSizeCases(size_t dims, bool square = false);

// Checks that `source` can stand for the sequential function `function`
// before anything is built from it: well-formed as far as the scanner sees
// (an unclosed brace, comment, string or raw string is refused by line, not
// left to a crash later), `function` a usable name (an identifier, not a
// C++ keyword, not `main`, which the harness's driver defines), exactly one
// definition of it (an overload set would make the choice silent), and no
// parameter named after a C++ keyword. With `returns_void` set (a spec is
// given), the definition's return type must agree: void exactly when the
// spec has no "returns", and, for a plain scalar type, the same type as
// `returns_type` (the spec's spelling, "float", "int32"). Errors name `file`
// and the line.
Status CheckReferenceSource(const std::string& source, const std::string& file, const std::string& function,
                            std::optional<bool> returns_void = std::nullopt,
                            const std::string& returns_type = "");

}  // namespace regrapht::verify
