// Parallelize (seed.h): parse, analyse, generate.
#include "seed/seed.h"

#include <optional>
#include <set>

#include "seed/analyze.h"
#include "seed/ast.h"
#include "seed/codegen.h"
#include "verify/spec/expr.h"

namespace regrapht::seed {
namespace {

Seed Refused(const std::string& category, const std::string& reason) {
  Seed s;
  s.category = category;
  s.reason = reason;
  return s;
}

// Pointer arguments' lengths as C++ over the function's parameters: the
// spec's length expressions, whose variables must be parameters.
// A CSR matrix's parts (`"from": "A.row_ptr"`) have rows + 1 and
// row_ptr[rows] elements.
ArrayLengths Lengths(const ProblemSpec& spec) {
  ArrayLengths out;
  std::set<std::string> vars;
  auto over_params = [&](const std::string& text) -> std::optional<verify::Expr> {
    auto e = verify::Expr::Parse(text);
    if (!e.ok()) return std::nullopt;
    for (const std::string& v : e->variables()) {
      const ArgSpec* p = spec.FindArg(v);
      if (!p || p->pass != ArgPass::kValue) return std::nullopt;
    }
    vars.insert(e->variables().begin(), e->variables().end());
    return *e;
  };
  for (const ArgSpec& a : spec.args) {
    if (a.pass != ArgPass::kPointer) continue;
    if (a.from.empty()) {
      if (auto e = over_params(a.length)) out.cpp[a.name] = e->ToCpp("rs_sz_");
      continue;
    }
    const size_t dot = a.from.find('.');
    const std::string matrix = a.from.substr(0, dot),
                      part = dot == std::string::npos ? "" : a.from.substr(dot + 1);
    const SparseSpec* sp = nullptr;
    for (const auto& s : spec.sparse) {
      if (s.name == matrix && s.format == SparseSpec::Format::kCsr) sp = &s;
    }
    const ArgSpec* row_ptr = nullptr;
    for (const ArgSpec& b : spec.args) {
      if (b.from == matrix + ".row_ptr" && b.pass == ArgPass::kPointer) row_ptr = &b;
    }
    auto rows = sp ? over_params(sp->rows) : std::nullopt;
    if (!rows || !row_ptr) continue;
    if (part == "row_ptr") {
      out.cpp[a.name] = "(" + rows->ToCpp("rs_sz_") + ") + 1";
    } else if (part == "col_idx" || part == "values") {
      out.cpp[a.name] = "(int64_t)" + row_ptr->name + "[" + rows->ToCpp("rs_sz_") + "]";
    }
  }
  for (const std::string& v : vars)
    out.setup.push_back("const int64_t rs_sz_" + v + " = (int64_t)(" + v + ");");
  return out;
}

}  // namespace

bool Available() { return FrontEndAvailable(); }

Seed Parallelize(const Problem& problem) {
  const ProblemSpec& spec = problem.spec;
  if (!FrontEndAvailable()) {
    return Refused("unavailable", ParseFile("", "").status().message());
  }
  const std::string file =
      problem.dir.empty() ? "reference.cpp" : (problem.dir / "reference.cpp").string();
  auto ast = ParseFile(problem.reference_source, file);
  if (!ast.ok()) return Refused("parse", ast.status().message());
  const FunctionDef* f = ast->Find(spec.function);
  if (!f) return Refused("parse", "no definition of '" + spec.function + "' in the reference");
  if (f->is_template) return Refused("parse", "'" + spec.function + "' is a function template");
  Analysis a = Analyze(*ast, *f);
  if (!a.plan) return Refused(a.refusal.category, a.refusal.message);
  Generated g = Generate(*ast, *f, *a.plan, Lengths(spec));
  if (g.code.empty()) return Refused(g.refusal.category, g.refusal.message);
  Seed s;
  s.written = true;
  s.code = "#include <cstdint>\n" + g.code;
  s.pattern = a.plan->pattern;
  for (const Phase& p : a.plan->phases) {
    if (p.kind != Phase::Kind::kHost) s.notes.push_back(p.note);
  }
  return s;
}

}  // namespace regrapht::seed
