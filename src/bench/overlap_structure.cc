#include "bench/overlap_structure.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/strings.h"
#include "seed/ast.h"

namespace regrapht::bench {
namespace {

using seed::Node;
using K = seed::Node::Kind;
using Shape = seed::TypeInfo::Shape;

// A math function's name without its namespace and precision suffix
// ("std::sqrtf" -> "sqrt"), "" for any other function.
std::string MathName(std::string name) {
  if (name.rfind("std::", 0) == 0) name = name.substr(5);
  static const std::set<std::string> kMath = {
      "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin", "cos", "tan",
      "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "erfc", "abs", "fabs", "floor", "ceil",
      "round", "trunc", "lround", "fmod", "hypot", "fma", "max", "min", "fmax", "fmin", "swap", "clamp",
      "isnan", "isinf", "copysign", "rsqrt", "sort", "lgamma", "tgamma", "norm", "conj", "real", "imag"};
  if (!kMath.count(name) && name.size() > 1 && name.back() == 'f') name.pop_back();
  if (!kMath.count(name)) return "";
  if (name == "fabs") return "abs";
  if (name == "fmax") return "max";
  if (name == "fmin") return "min";
  return name;
}

bool Commutative(const std::string& op) {
  return op == "+" || op == "*" || op == "==" || op == "!=" || op == "&&" || op == "||" || op == "&" ||
         op == "|" || op == "^";
}

class Normaliser {
 public:
  explicit Normaliser(const seed::FileAst& ast) : ast_(ast) {}

  void Function(const seed::FunctionDef& f) {
    if (++inlining_ > 3) {
      --inlining_;
      return;
    }
    std::string shape = Stmt(f.body);
    if (inlining_ == 1) {
      out_.shape = shape.empty() ? "-" : shape;
      Add("shape " + out_.shape);
    }
    --inlining_;
  }

  LoopStructure Take() { return std::move(out_); }

 private:
  void Add(const std::string& f) { ++out_.features[f]; }

  bool IsArrayDecl(int d) const {
    if (d < 0) return false;
    Shape s = ast_.decl(d).type.shape;
    return s == Shape::kPointer || s == Shape::kVector || s == Shape::kStdArray || s == Shape::kCArray;
  }

  static const Node& Strip(const Node& n) {
    const Node* p = &n;
    while ((p->kind == K::kParen || p->kind == K::kCast ||
            (p->kind == K::kConstruct && p->kids.size() == 1)) &&
           !p->kids.empty()) {
      p = &p->kids.back();
    }
    return *p;
  }

  // The last child that is code (TypeRef and the like convert to kOther
  // without children).
  static const Node* LastCode(const Node& n) {
    for (auto it = n.kids.rbegin(); it != n.kids.rend(); ++it) {
      if (it->kind != K::kOther || !it->kids.empty()) return &*it;
    }
    return nullptr;
  }

  // The name-erased pattern of an expression.
  std::string Expr(const Node& given) {
    const Node& n = Strip(given);
    switch (n.kind) {
      case K::kDeclRef: {
        if (auto it = loop_var_.find(n.decl); it != loop_var_.end()) return "v" + std::to_string(it->second);
        if (auto it = elem_.find(n.decl); it != elem_.end()) return "A[v" + std::to_string(it->second) + "]";
        return IsArrayDecl(n.decl) ? "A" : "s";
      }
      case K::kLiteral: return "c";
      case K::kSubscript:
        if (n.kids.size() != 2) return "?";
        return Expr(n.kids[0]) + "[" + Expr(n.kids[1]) + "]";
      case K::kMember: return n.kids.empty() ? "s" : Expr(n.kids[0]);
      case K::kMemberCall: {
        if (n.name == "size" || n.name == "length") return "s";
        std::string s = "m(";
        for (size_t i = 1; i < n.kids.size(); ++i) s += (i > 1 ? "," : "") + Expr(n.kids[i]);
        return s + ")";
      }
      case K::kBinary:
      case K::kCompoundAssign: {
        if (n.kids.size() != 2) return "?";
        std::string a = Expr(n.kids[0]), b = Expr(n.kids[1]), op = n.op;
        if (op == ">") std::swap(a, b), op = "<";
        if (op == ">=") std::swap(a, b), op = "<=";
        if (Commutative(op) && b < a) std::swap(a, b);
        return "(" + a + op + b + ")";
      }
      case K::kUnary:
        if (n.kids.empty()) return "?";
        return n.postfix ? Expr(n.kids[0]) + n.op : n.op + Expr(n.kids[0]);
      case K::kConditional:
        if (n.kids.size() != 3) return "?";
        return "(" + Expr(n.kids[0]) + "?" + Expr(n.kids[1]) + ":" + Expr(n.kids[2]) + ")";
      case K::kCall: {
        std::string name = n.decl >= 0 ? MathName(ast_.decl(n.decl).qualified) : "";
        std::string s = (name.empty() ? "f" : name) + "(";
        for (size_t i = 0; i < n.kids.size(); ++i) s += (i ? "," : "") + Expr(n.kids[i]);
        return s + ")";
      }
      default: return "?";
    }
  }

  // The operators and math calls of an expression outside its array
  // indices, sorted, each once: "* + sqrt" (a * b * c reads as "*": an
  // extra scale factor is the same kind of computation).
  void Ops(const Node& n, std::vector<std::string>* out) {
    if (n.kind == K::kBinary || n.kind == K::kCompoundAssign) out->push_back(n.op);
    if (n.kind == K::kUnary && (n.op == "-" || n.op == "!" || n.op == "~")) out->push_back("u" + n.op);
    if (n.kind == K::kConditional) out->push_back("?:");
    if (n.kind == K::kCall && n.decl >= 0) {
      std::string m = MathName(ast_.decl(n.decl).qualified);
      if (!m.empty()) out->push_back(m);
    }
    // An index's arithmetic is addressing: the access patterns hold it.
    if (n.kind == K::kSubscript) return;
    for (const Node& k : n.kids) Ops(k, out);
  }
  std::string OpsText(const Node& n) {
    std::vector<std::string> ops;
    Ops(n, &ops);
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    return Join(ops, " ");
  }

  // Features of an expression used as a value: its array reads, its calls
  // (math functions counted, functions of this file inlined).
  void Reads(const Node& n) {
    const Node& s = Strip(n);
    if (s.kind == K::kSubscript || (s.kind == K::kDeclRef && elem_.count(s.decl)) ||
        (s.kind == K::kMember && !s.kids.empty() && Expr(s).find('[') != std::string::npos)) {
      Add("R " + Expr(s));
      // The index's own reads (an indirect access reads its index array).
      if (s.kind == K::kSubscript && s.kids.size() == 2) {
        Reads(s.kids[0]);
        Reads(s.kids[1]);
      }
      return;
    }
    if (s.kind == K::kCall && s.decl >= 0) {
      std::string m = MathName(ast_.decl(s.decl).qualified);
      if (!m.empty()) Add("call " + m);
      for (const auto& f : ast_.functions) {
        if (f.decl == s.decl) Function(f);
      }
    }
    if (s.kind == K::kBinary && s.op == "=" && s.kids.size() == 2) return Assign(s);
    if ((s.kind == K::kCompoundAssign || (s.kind == K::kUnary && (s.op == "++" || s.op == "--")))) {
      return Assign(s);
    }
    for (const Node& k : s.kids) Reads(k);
  }

  // An assignment, compound assignment or ++/-- used as a statement.
  void Assign(const Node& n) {
    const bool unary = n.kind == K::kUnary;
    const Node& lhs = Strip(n.kids[0]);
    const std::string op = unary ? n.op : n.op;
    const std::string ops = unary ? "" : OpsText(n.kids[1]);
    const std::string target = Expr(lhs);
    if (target.find('[') != std::string::npos) {
      Add("W" + op + " " + target);
      Add("W" + op + " " + target + " <- " + ops);
      // The store's index reads.
      if (lhs.kind == K::kSubscript && lhs.kids.size() == 2) Reads(lhs.kids[1]);
    } else {
      Add("S" + op + " <- " + ops);
    }
    if (!unary) Reads(n.kids[1]);
  }

  // Walks a statement; returns the shape of the loops in it.
  std::string Stmt(const Node& n) {
    switch (n.kind) {
      case K::kFor: return For(n);
      case K::kRangeFor: return RangeFor(n);
      case K::kWhile:
      case K::kDo: {
        ++depth_;
        std::string inner;
        for (const Node& k : n.kids) {
          if (k.kind == K::kCompound || k.kind == K::kFor || k.kind == K::kRangeFor || k.kind == K::kWhile ||
              k.kind == K::kDo || k.kind == K::kIf) {
            inner += Stmt(k);
          } else {
            Add("loop while " + Expr(k));
            Reads(k);
          }
        }
        --depth_;
        return "W" + (inner.empty() ? "" : "(" + inner + ")");
      }
      case K::kIf: {
        if (!n.kids.empty()) {
          Add("if " + Expr(n.kids[0]));
          Reads(n.kids[0]);
        }
        std::string inner;
        for (size_t i = 1; i < n.kids.size(); ++i) inner += Stmt(n.kids[i]);
        return inner;
      }
      case K::kReturn:
        if (!n.kids.empty()) {
          Add("ret " + OpsText(n.kids[0]));
          Reads(n.kids[0]);
        }
        return "";
      case K::kVar: {
        if (const Node* init = LastCode(n)) {
          Add("S= <- " + OpsText(*init));
          Reads(*init);
        }
        return "";
      }
      case K::kCompound:
      case K::kDeclStmt:
      case K::kSwitch: {
        std::string s;
        for (const Node& k : n.kids) s += Stmt(k);
        return s;
      }
      case K::kLambda: {
        std::string s;
        for (const Node& k : n.kids) s += Stmt(k);
        return s;
      }
      default:
        Reads(n);
        return "";
    }
  }

  std::string For(const Node& n) {
    size_t k = 0;
    int var = -1;
    if (n.has_init) {
      const Node& init = n.kids[k++];
      if (init.kind == K::kDeclStmt && !init.kids.empty() && init.kids[0].kind == K::kVar) {
        var = init.kids[0].decl;
      } else if (init.kind == K::kBinary && init.op == "=" && !init.kids.empty() &&
                 Strip(init.kids[0]).kind == K::kDeclRef) {
        var = Strip(init.kids[0]).decl;
      }
      if (var >= 0) loop_var_[var] = depth_;
    }
    std::string cond = n.has_cond ? Expr(n.kids[k++]) : "";
    std::string step;  // "++", "--", "(v0+=c)", "(v0*=c)", ...
    if (n.has_inc) {
      const Node& inc = Strip(n.kids[k++]);
      step = inc.kind == K::kUnary ? inc.op : Expr(inc);
    }
    Add("loop " + cond + " " + step);
    ++depth_;
    std::string inner = k < n.kids.size() ? Stmt(n.kids.back()) : "";
    --depth_;
    if (var >= 0) loop_var_.erase(var);
    return "L" + (inner.empty() ? "" : "(" + inner + ")");
  }

  std::string RangeFor(const Node& n) {
    if (n.kids.size() < 3) return "L";
    const Node& var = n.kids[0];
    Add("loop (v" + std::to_string(depth_) + "<s) ++");  // the element of index v<depth> of [0, size)
    Reads(n.kids[1]);
    elem_[var.decl] = depth_;
    ++depth_;
    std::string inner = Stmt(n.kids.back());
    --depth_;
    elem_.erase(var.decl);
    return "L" + (inner.empty() ? "" : "(" + inner + ")");
  }

  const seed::FileAst& ast_;
  LoopStructure out_;
  std::map<int, int> loop_var_, elem_;  // decl -> loop depth
  int depth_ = 0, inlining_ = 0;
};

}  // namespace

Result<LoopStructure> NormaliseStructure(const seed::FileAst& ast, const std::string& function) {
  const seed::FunctionDef* f = ast.Find(function);
  if (!f) return Status::NotFound("no definition of function '" + function + "'");
  Normaliser n(ast);
  n.Function(*f);
  return n.Take();
}

Result<LoopStructure> StructureOf(const std::string& source, const std::string& function, const std::string& file) {
  RG_ASSIGN_OR_RETURN(seed::FileAst ast, seed::ParseFile(source, file));
  auto s = NormaliseStructure(ast, function);
  if (!s.ok()) return Status::NotFound(file + ": " + s.status().message());
  return s;
}

std::string SerializeStructure(const LoopStructure& s) {
  std::string out;
  for (const auto& [f, c] : s.features) out += std::to_string(c) + "\t" + f + "\n";
  return out;
}

Result<LoopStructure> ParseStructure(const std::string& text) {
  LoopStructure s;
  for (const std::string& line : SplitLines(text)) {
    if (line.empty()) continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos) return Status::InvalidArgument("structure line without a tab: " + line);
    int count = 0;
    try {
      count = std::stoi(line.substr(0, tab));
    } catch (...) {
      return Status::InvalidArgument("structure line without a count: " + line);
    }
    std::string f = line.substr(tab + 1);
    s.features[f] = count;
    if (f.rfind("shape ", 0) == 0) s.shape = f.substr(6);
  }
  return s;
}

double StructureSimilarity(const LoopStructure& a, const LoopStructure& b,
                           const std::map<std::string, double>& weights) {
  double shared = 0, all = 0;
  auto w = [&](const std::string& f) {
    auto it = weights.find(f);
    return it == weights.end() ? 1.0 : it->second;
  };
  for (const auto& [f, ca] : a.features) {
    auto it = b.features.find(f);
    const int cb = it == b.features.end() ? 0 : it->second;
    shared += w(f) * std::min(ca, cb);
    all += w(f) * std::max(ca, cb);
  }
  for (const auto& [f, cb] : b.features) {
    if (!a.features.count(f)) all += w(f) * cb;
  }
  return all > 0 ? shared / all : 0;
}

std::vector<StructurePair> ScoreStructures(const std::vector<LoopStructure>& first,
                                           const std::vector<LoopStructure>& second) {
  std::map<std::string, int> df;
  for (const auto* set : {&first, &second}) {
    for (const auto& s : *set) {
      for (const auto& [f, c] : s.features) ++df[f];
    }
  }
  const double n = static_cast<double>(first.size() + second.size());
  std::map<std::string, double> weights;
  for (const auto& [f, d] : df) weights[f] = std::log(1.0 + n / d);
  std::vector<StructurePair> pairs;
  for (size_t i = 0; i < first.size(); ++i) {
    for (size_t j = 0; j < second.size(); ++j) {
      pairs.push_back({i, j, StructureSimilarity(first[i], second[j], weights)});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const StructurePair& a, const StructurePair& b) { return a.similarity > b.similarity; });
  return pairs;
}

}  // namespace regrapht::bench
