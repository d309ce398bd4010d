// Comparing a candidate's outputs with the reference's, element by element.
//
// Floating values match when |got - expected| <= abs + rel * |expected|; a
// NaN matches only a NaN, an infinity only the same infinity. Integers, bools
// and chars match exactly. Structs match field by field. Outputs whose order
// does not matter are sorted before comparing.
#pragma once

#include <optional>
#include <string>

#include "regrapht/problem.h"
#include "verify/judge/records.h"

namespace regrapht::verify {

struct Mismatch {
  std::string arg;
  int64_t index = -1;      // first differing element; -1 for a length mismatch
  std::string expected;
  std::string got;
  std::string reason;      // "value", "length", "constant"

  std::string ToString() const;
};

// Returns nullopt when `got` matches `expected`.
std::optional<Mismatch> CompareOutput(const ProblemSpec& spec, const ElementType& type,
                                      const Tolerance& tol, bool order_matters,
                                      const ArrayRecord& expected, const ArrayRecord& got);

// True if every element has the same bytes (and there are at least 2).
bool IsConstant(const ArrayRecord& a);

// True if the elements differ by more than rounding: some integer field
// differs, or some floating field spreads over more than 16 machine epsilons
// of its largest magnitude (or mixes NaN with numbers). The constant-output
// check applies only to references that vary in this sense: two energies
// that are equal up to the order of a product are not "varying".
bool VariesBeyondRounding(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a);

// Formats element `i` of `a` for messages ("1.2345678", "(x=1, y=2)").
std::string FormatElement(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a,
                          size_t i);

// Finds the first element that still holds the driver's poison (NaN, the
// integer byte patterns); -1 if none. Used on the reference's outputs.
int64_t FindPoison(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a);

// Index of the first element with a floating field that is NaN or
// infinite, or -1.
int64_t FindNonFinite(const ProblemSpec& spec, const ElementType& type, const ArrayRecord& a);

}  // namespace regrapht::verify
