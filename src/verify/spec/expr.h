// Integer expressions over size variables, for array lengths in problem specs
// ("n", "n*m", "(n+1)*2", "n/2", "1<<k", "max(n,1)").
//
// The same text is evaluated here (validation, memory estimates) and pasted
// into the generated driver as C++ (over int64_t variables), so the grammar is
// the common subset: integer literals, identifiers, + - * / % << >>, unary -,
// parentheses, min(a,b), max(a,b).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "regrapht/status.h"

namespace regrapht::verify {

class Expr {
 public:
  // Parses `text`. Errors say what was expected and at which character.
  static Result<Expr> Parse(const std::string& text);

  // Evaluates with 64-bit integer arithmetic. Fails on an unknown variable,
  // division by zero or overflow.
  Result<int64_t> Eval(const std::map<std::string, int64_t>& vars) const;

  // The identifiers it mentions.
  const std::set<std::string>& variables() const { return vars_; }

  // C++ text for the driver: variables become `prefix + name`, min/max
  // become std::min/std::max over int64_t.
  std::string ToCpp(const std::string& prefix) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::set<std::string> vars_;
};

}  // namespace regrapht::verify
