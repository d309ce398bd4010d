// Analyze (analyze.h): top-level statements -> host code, maps, reductions.
#include "seed/analyze.h"

#include <algorithm>
#include <functional>
#include <map>

namespace regrapht::seed {
namespace {

using K = Node::Kind;
using Shape = TypeInfo::Shape;

// Functions device code may call as they are (CUDA's math library).
const std::set<std::string>& MathFunctions() {
  static const std::set<std::string> names = {
      "sqrt",  "sqrtf",    "cbrt",     "cbrtf",   "exp",    "expf",  "exp2",   "exp2f",
      "expm1", "log",      "logf",     "log2",    "log2f",  "log10", "log10f", "log1p",
      "pow",   "powf",     "sin",      "sinf",    "cos",    "cosf",  "tan",    "tanf",
      "asin",  "acos",     "atan",     "atan2",   "sinh",   "cosh",  "tanh",   "tanhf",
      "fabs",  "fabsf",    "abs",      "labs",    "llabs",  "floor", "floorf", "ceil",
      "ceilf", "round",    "roundf",   "trunc",   "truncf", "fmod",  "fmodf",  "fmin",
      "fminf", "fmax",     "fmaxf",    "hypot",   "hypotf", "erf",   "erff",   "isnan",
      "isinf", "isfinite", "copysign", "signbit", "fma",    "rint",  "lround", "llround"};
  return names;
}

bool IsMinMax(const std::string& name) { return name == "min" || name == "max"; }

const Node& Strip(const Node& n) {
  const Node* p = &n;
  while (p->kind == K::kParen && p->kids.size() == 1) p = &p->kids[0];
  return *p;
}

bool IsRef(const Node& n, int decl) {
  const Node& s = Strip(n);
  return s.kind == K::kDeclRef && s.decl == decl;
}

bool IsAssign(const Node& n) {
  return (n.kind == K::kBinary && n.op == "=") || n.kind == K::kCompoundAssign ||
         (n.kind == K::kUnary && (n.op == "++" || n.op == "--"));
}

bool IsComparison(const std::string& op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=";
}

std::string Flip(const std::string& op) {  // a op b  <=>  b Flip(op) a
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  return "<=";
}

std::string Negate(const std::string& op) {  // !(a op b)  <=>  a Negate(op) b
  if (op == "<") return ">=";
  if (op == "<=") return ">";
  if (op == ">") return "<=";
  return "<";
}

std::string NoSpace(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(),
                         [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
          s.end());
  return s;
}

void Walk(const Node& n, const std::function<bool(const Node&)>& f) {
  if (!f(n)) return;
  for (const auto& k : n.kids) Walk(k, f);
}

// The && terms of a condition.
void Conjuncts(const Node& n, std::vector<const Node*>* out) {
  const Node& s = Strip(n);
  if (s.kind == K::kBinary && s.op == "&&" && s.kids.size() == 2) {
    Conjuncts(s.kids[0], out);
    Conjuncts(s.kids[1], out);
  } else {
    out->push_back(&s);
  }
}

// The statements of a branch: a compound's, or the one statement.
std::vector<const Node*> Statements(const Node& n) {
  std::vector<const Node*> out;
  if (n.kind == K::kCompound) {
    for (const auto& k : n.kids) out.push_back(&k);
  } else {
    out.push_back(&n);
  }
  return out;
}

// An array access inside a loop body.
struct Access {
  const Node* node = nullptr;
  int array = -1;
  const Node* index = nullptr;  // null: the range-for element itself
  bool write = false;
};

class Analyzer {
 public:
  Analyzer(const FileAst& ast, const FunctionDef& f) : ast_(ast), f_(f) {}

  Analysis Run();

 private:
  // ---- refusals ----
  bool Refuse(const std::string& category, const Node& at, const std::string& why) {
    if (!refusal_)
      refusal_ = Refusal{category, "line " + std::to_string(ast_.LineOf(at.begin)) + ": " + why};
    return false;
  }
  std::string Quote(const Node& n) const {
    std::string t = ast_.Text(n);
    for (char& c : t) {
      if (c == '\n' || c == '\t') c = ' ';
    }
    if (t.size() > 60) t = t.substr(0, 57) + "...";
    return "`" + t + "`";
  }
  const Decl& D(int i) const { return ast_.decl(i); }
  std::string Name(int i) const { return "`" + D(i).name + "`"; }

  // ---- what a name is ----
  bool IsArray(int d) const {
    const Decl& x = D(d);
    const Shape s = x.type.shape;
    if (x.kind == Decl::Kind::kParam)
      return s == Shape::kPointer || s == Shape::kVector || s == Shape::kStdArray;
    return x.kind == Decl::Kind::kLocal && s == Shape::kVector && host_locals_.count(d);
  }
  bool IsTable(int d) const {
    const Decl& x = D(d);
    if (x.type.shape != Shape::kCArray) return false;
    return (x.kind == Decl::Kind::kGlobal && x.in_main_file) || host_locals_.count(d) > 0;
  }
  int HelperIndex(int decl) const {
    for (size_t i = 0; i < ast_.functions.size(); ++i) {
      if (ast_.functions[i].decl == decl) return static_cast<int>(i);
    }
    // Another declaration of a function the file defines.
    for (size_t i = 0; i < ast_.functions.size(); ++i) {
      if (D(ast_.functions[i].decl).name == D(decl).name && D(decl).in_main_file)
        return static_cast<int>(i);
    }
    return -1;
  }

  // ---- top level ----
  bool TopLevel(const Node& stmt, bool last);
  bool HostStatement(const Node& stmt, bool last);
  bool HostNode(const Node& n, bool last);
  bool HostVar(const Node& n);
  bool Loop(const Node& stmt);

  // ---- loops ----
  bool CountedLoop(const Node& loop, ParallelLoop* out);
  std::vector<ParallelLoop> Nest(const Node& loop, const Node** body,
                                 std::vector<const Node*>* bodies);
  bool TryMap(const std::vector<ParallelLoop>& loops, const Node& body, Phase* phase);
  bool TryReduce(const ParallelLoop& loop, const Node& body, Phase* phase);

  // ---- body scan ----
  void ResetScan(const std::vector<ParallelLoop>& loops);
  bool Scan(const Node& n, int depth);
  bool ScanVar(const Node& n, int depth);
  void ScanName(const Node& n);
  bool ScanAssign(const Node& n, int depth);
  bool ScanTarget(const Node& target, const Node& stmt);
  bool ScanCall(const Node& n, int depth);
  bool ScanMemberCall(const Node& n, int depth);  // depth: unused (no loops in a call)
  bool CheckHelper(int function, int depth);
  bool Owned(const Node& index, std::set<int>* found, std::set<int>* unscaled, bool scaled,
             int depth) const;
  std::string Norm(const Node& n, int depth = 0) const;
  bool CheckAccesses(const Node& at);
  bool CheckElements();
  void Captures(Phase* phase) const;

  // ---- reductions ----
  bool MatchUpdate(const Node& n, std::vector<Reduction>* out, std::set<const Node*>* used);
  bool MatchIf(const Node& n, std::vector<Reduction>* out, std::set<const Node*>* used);
  bool MatchArgIndex(const Node& n, const Node& test, const Node& set, int p,
                     std::vector<Reduction>* out, std::set<const Node*>* used);
  bool Carried(const Node& n) const {
    const Node& s = Strip(n);
    return s.kind == K::kDeclRef && carried_.count(s.decl);
  }
  bool Mentions(const Node& n, const std::set<int>& decls) const {
    bool found = false;
    Walk(n, [&](const Node& x) {
      if (x.kind == K::kDeclRef && decls.count(x.decl)) found = true;
      return !found;
    });
    return found;
  }
  bool AddReduction(Reduction r, const Node& at, std::vector<Reduction>* out);

  const FileAst& ast_;
  const FunctionDef& f_;
  std::optional<Refusal> refusal_;
  Plan plan_;
  std::set<int> host_locals_;     // declared by top-level statements
  std::set<int> device_written_;  // arrays a kernel phase wrote so far
  bool kernel_seen_ = false;

  // The scan of one loop body.
  std::set<int> pvars_;  // parallel loop variables
  int element_ = -1, range_array_ = -1;
  std::set<int> inside_, local_ptrs_, bare_, carried_;
  std::map<int, int> assigns_;
  std::map<int, const Node*> init_;
  std::vector<Access> accesses_;
  std::vector<const Node*> carried_writes_;
  std::vector<const Node*> refs_;
  std::set<int> sized_, tables_, helpers_;
  std::vector<Edit> edits_;
  std::vector<Hoisted> hoisted_;
};

// ---- top level ------------------------------------------------------------------------

Analysis Analyzer::Run() {
  Analysis out;
  const auto& stmts = f_.body.kids;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (!TopLevel(stmts[i], i + 1 == stmts.size())) break;
  }
  if (!refusal_ && !kernel_seen_) {
    Refuse("no-loop", f_.body,
           "no loop to parallelize (the function's work is not in a top-level for loop)");
  }
  if (refusal_) {
    out.refusal = *refusal_;
    return out;
  }
  std::vector<std::string> kinds;
  for (const Phase& p : plan_.phases) {
    if (p.kind == Phase::Kind::kHost) continue;
    std::string k = p.kind == Phase::Kind::kReduce ? "reduction"
                    : p.loops.size() == 1          ? "map"
                                                   : "map-" + std::to_string(p.loops.size()) + "d";
    if (kinds.empty() || kinds.back() != k) kinds.push_back(k);
  }
  for (const auto& k : kinds) plan_.pattern += (plan_.pattern.empty() ? "" : "+") + k;
  out.plan = std::move(plan_);
  return out;
}

bool Analyzer::TopLevel(const Node& stmt, bool last) {
  if (stmt.kind == K::kFor || stmt.kind == K::kRangeFor) return Loop(stmt);
  if (stmt.kind == K::kWhile || stmt.kind == K::kDo) {
    return Refuse("not-counted", stmt,
                  std::string(stmt.kind == K::kWhile ? "a while" : "a do-while") +
                      " loop: its trip count is not known before it runs");
  }
  return HostStatement(stmt, last);
}

bool Analyzer::HostStatement(const Node& stmt, bool last) {
  bool ok = true;
  Walk(stmt, [&](const Node& n) { return ok = ok && HostNode(n, last); });
  if (!ok) return false;
  Phase phase;
  phase.kind = Phase::Kind::kHost;
  phase.stmt = &stmt;
  plan_.phases.push_back(phase);
  return true;
}

// One node of a statement the host runs as written: refused when it loops,
// does array work (the arrays may be on the device) or declares what the
// kernels could not take.
bool Analyzer::HostNode(const Node& n, bool last) {
  switch (n.kind) {
    case K::kFor:
    case K::kRangeFor:
    case K::kWhile:
    case K::kDo:
      return Refuse("host-code", n,
                    "a loop inside another statement (only top-level loops are parallelized)");
    case K::kLambda:
      return Refuse("call", n, "a lambda (device code cannot call the host's closures)");
    case K::kReturn:
      return !(kernel_seen_ && !last) ||
             Refuse("host-code", n, "a return after a parallelized loop");
    case K::kVar:
      return HostVar(n);
    case K::kCall:
      if (n.decl >= 0 && HelperIndex(n.decl) < 0 && !MathFunctions().count(D(n.decl).name) &&
          !IsMinMax(D(n.decl).name) &&
          D(n.decl).qualified.find("numeric_limits") == std::string::npos) {
        return Refuse("call", n,
                      "calls `" + D(n.decl).qualified +
                          "` (a library call the rules do not move to the device)");
      }
      return true;
    case K::kMemberCall: {
      const Node& obj = Strip(n.kids[0]);
      const bool reader = n.name == "size" || n.name == "empty";
      if (obj.kind == K::kDeclRef && IsArray(obj.decl) && !reader) {
        return Refuse("host-code", n,
                      "calls " + Quote(n) + " on the host (outside a parallelized loop)");
      }
      return true;
    }
    case K::kSubscript: {
      const Node& base = Strip(n.kids[0]);
      if (base.kind == K::kDeclRef && IsArray(base.decl) && device_written_.count(base.decl)) {
        return Refuse("host-code", n,
                      "reads " + Name(base.decl) + " on the host after a kernel wrote it");
      }
      return true;
    }
    default:
      break;
  }
  if (!IsAssign(n)) return true;
  const Node* t = &Strip(n.kids[0]);
  while (t->kind == K::kMember || t->kind == K::kSubscript) {
    if (t->kind == K::kSubscript && Strip(t->kids[0]).kind == K::kDeclRef &&
        IsArray(Strip(t->kids[0]).decl)) {
      return Refuse("host-code", n,
                    "writes " + Quote(*t) + " on the host (outside a parallelized loop)");
    }
    t = &Strip(t->kids[0]);
  }
  if (t->kind == K::kUnary && t->op == "*") {
    return Refuse("host-code", n, "writes through a pointer on the host: " + Quote(n));
  }
  return true;
}

// A variable a top-level statement declares: scalars, structs, vectors of
// them (device arrays when a loop uses them) and constant tables.
bool Analyzer::HostVar(const Node& n) {
  host_locals_.insert(n.decl);
  const TypeInfo& t = D(n.decl).type;
  const Shape s = t.shape;
  if (t.value.find("(lambda") != std::string::npos) {
    return Refuse(
        "call", n,
        "defines the lambda " + Name(n.decl) + " (device code cannot call the host's closures)");
  }
  if (t.is_reference ||
      !(s == Shape::kScalar || s == Shape::kStruct || s == Shape::kVector || s == Shape::kCArray)) {
    return Refuse("type", n,
                  "declares " + Name(n.decl) + " of type `" + t.spelling +
                      "` on the host (the rules pass scalars, structs and arrays only)");
  }
  if (s == Shape::kVector && t.elem_shape != Shape::kScalar && t.elem_shape != Shape::kStruct) {
    return Refuse("type", n, "declares a local `" + t.value + "`");
  }
  return true;
}

bool Analyzer::Loop(const Node& stmt) {
  const Node* body = nullptr;
  std::vector<const Node*> bodies;
  std::vector<ParallelLoop> nest = Nest(stmt, &body, &bodies);
  if (nest.empty()) return false;
  // Scalars declared outside the loop that it writes: a reduction, or a dependence.
  ResetScan({nest[0]});
  if (!Scan(*bodies[0], 0)) return false;
  Phase phase;
  phase.stmt = &stmt;
  if (!carried_writes_.empty()) {
    if (!TryReduce(nest[0], *bodies[0], &phase)) return false;
  } else {
    std::optional<Refusal> first;
    bool done = false;
    for (size_t d = nest.size(); d >= 1 && !done; --d) {
      std::vector<ParallelLoop> loops(nest.begin(), nest.begin() + static_cast<long>(d));
      refusal_.reset();
      done = TryMap(loops, *bodies[d - 1], &phase);
      if (!done && d == 1) first = refusal_;
    }
    if (!done) {
      refusal_ = first;
      return false;
    }
  }
  for (int a : phase.arrays_written) device_written_.insert(a);
  for (int t : tables_) plan_.tables.insert(t);
  for (int h : helpers_) plan_.device_functions.insert(h);
  for (int a : phase.arrays_read) {
    if (D(a).kind == Decl::Kind::kLocal) plan_.temps.insert(a);
  }
  for (int a : phase.arrays_written) {
    if (D(a).kind == Decl::Kind::kLocal) plan_.temps.insert(a);
  }
  kernel_seen_ = true;
  plan_.phases.push_back(std::move(phase));
  return true;
}

// ---- loops --------------------------------------------------------------------------------

bool Analyzer::CountedLoop(const Node& loop, ParallelLoop* out) {
  out->line = ast_.LineOf(loop.begin);
  if (loop.kind == K::kRangeFor) {
    // for (T& e : array): the element of index rs_i.
    const Node& var = loop.kids[0];
    const Node& range = Strip(loop.kids[1]);
    if (range.kind != K::kDeclRef || !IsArray(range.decl) ||
        D(range.decl).type.shape == Shape::kPointer) {
      return Refuse("not-counted", loop,
                    "a range-for over " + Quote(range) + ", which is not an array argument");
    }
    out->var = var.decl;
    out->type = "size_t";
    out->name = "rs_i";
    out->lo = "0";
    out->hi = D(range.decl).name + ".size()";
    out->range_array = range.decl;
    const Decl& e = D(var.decl);
    out->element = ast_.source.substr(var.begin, e.name_offset + e.name.size() - var.begin);
    return true;
  }
  const std::string not_counted =
      "the loop " + Quote(loop) + " is not a counted loop (`for (T i = lo; i < hi; ++i)`)";
  if (!(loop.has_init && loop.has_cond && loop.has_inc) || loop.kids.size() != 4) {
    return Refuse("not-counted", loop, not_counted);
  }
  const Node& init = loop.kids[0];
  if (init.kind != K::kDeclStmt || init.kids.size() != 1 || init.kids[0].kids.empty()) {
    return Refuse("not-counted", loop, not_counted);
  }
  const Node& var = init.kids[0];
  const int v = var.decl;
  if (D(v).type.shape != Shape::kScalar) return Refuse("not-counted", loop, not_counted);
  const Node& cond = Strip(loop.kids[1]);
  const Node& inc = Strip(loop.kids[2]);
  const bool step_one = (inc.kind == K::kUnary && inc.op == "++" && IsRef(inc.kids[0], v)) ||
                        (inc.kind == K::kCompoundAssign && inc.op == "+=" &&
                         IsRef(inc.kids[0], v) && NoSpace(ast_.Text(Strip(inc.kids[1]))) == "1");
  if (!step_one || cond.kind != K::kBinary || cond.kids.size() != 2) {
    return Refuse("not-counted", loop, not_counted);
  }
  std::string op = cond.op;
  const Node* bound = &cond.kids[1];
  if (IsRef(cond.kids[1], v)) {  // hi > i
    op = Flip(op);
    bound = &cond.kids[0];
  } else if (!IsRef(cond.kids[0], v)) {
    return Refuse("not-counted", loop, not_counted);
  }
  if (op != "<" && op != "<=" && op != "!=") return Refuse("not-counted", loop, not_counted);
  if (Mentions(*bound, {v})) return Refuse("not-counted", loop, not_counted);
  out->var = v;
  out->type = D(v).type.canonical;
  out->name = D(v).name;
  out->lo = ast_.Text(var.kids.back());
  out->hi = ast_.Text(*bound);
  out->inclusive = op == "<=";
  return true;
}

// Up to three perfectly nested counted loops whose bounds do not depend on
// the outer ones (rectangular). bodies[k] is the body of loop k.
std::vector<ParallelLoop> Analyzer::Nest(const Node& loop, const Node** body,
                                         std::vector<const Node*>* bodies) {
  std::vector<ParallelLoop> nest;
  ParallelLoop first;
  if (!CountedLoop(loop, &first)) return nest;
  nest.push_back(first);
  const Node* cur = &loop.kids.back();
  bodies->push_back(cur);
  std::set<int> outer = {first.var};
  while (nest.size() < 3 && first.range_array < 0) {
    const Node* inner = cur;
    if (inner->kind == K::kCompound && inner->kids.size() == 1) inner = &inner->kids[0];
    if (inner->kind != K::kFor) break;
    ParallelLoop next;
    std::optional<Refusal> saved = refusal_;
    if (!CountedLoop(*inner, &next)) {
      refusal_ = saved;
      break;
    }
    // Rectangular: the inner bounds do not use the outer variables.
    if (Mentions(inner->kids[0], outer) || Mentions(inner->kids[1], outer)) break;
    nest.push_back(next);
    outer.insert(next.var);
    cur = &inner->kids.back();
    bodies->push_back(cur);
  }
  *body = cur;
  return nest;
}

// ---- body scan ----------------------------------------------------------------------------

void Analyzer::ResetScan(const std::vector<ParallelLoop>& loops) {
  pvars_.clear();
  element_ = range_array_ = -1;
  for (const auto& l : loops) {
    if (l.range_array >= 0) {
      element_ = l.var;
      range_array_ = l.range_array;
    } else {
      pvars_.insert(l.var);
    }
  }
  inside_.clear();
  local_ptrs_.clear();
  bare_.clear();
  carried_.clear();
  assigns_.clear();
  init_.clear();
  accesses_.clear();
  carried_writes_.clear();
  refs_.clear();
  sized_.clear();
  tables_.clear();
  helpers_.clear();
  edits_.clear();
  hoisted_.clear();
  if (element_ >= 0) inside_.insert(element_);
}

// A variable the loop body declares: a local of each iteration.
bool Analyzer::ScanVar(const Node& n, int depth) {
  inside_.insert(n.decl);
  const TypeInfo& t = D(n.decl).type;
  if (t.shape == Shape::kPointer) local_ptrs_.insert(n.decl);
  if (t.is_reference && !t.is_const) {
    return Refuse("dependence", n,
                  "binds the reference " + Name(n.decl) + " (writes through it are not analysed)");
  }
  if (!(t.shape == Shape::kScalar || t.shape == Shape::kStruct || t.shape == Shape::kPointer ||
        t.shape == Shape::kCArray)) {
    return Refuse(
        "type", n,
        "declares " + Name(n.decl) + " of type `" + t.spelling + "`, which device code cannot use");
  }
  if (!n.kids.empty()) init_[n.decl] = &n.kids.back();
  for (const auto& k : n.kids) {
    if (!Scan(k, depth)) return false;
  }
  return true;
}

// A name the body uses: an array used as a pointer, a constant table.
void Analyzer::ScanName(const Node& n) {
  refs_.push_back(&n);
  if (n.decl >= 0 && IsArray(n.decl)) bare_.insert(n.decl);
  if (n.decl >= 0 && IsTable(n.decl)) {
    tables_.insert(n.decl);
    edits_.push_back({n.begin, n.end, "rs_c_" + D(n.decl).name});
  }
}

// Walks a loop body. `depth` counts the loops (and switches) inside it
// around `n`: a break or continue at depth 0 belongs to the parallel loop.
bool Analyzer::Scan(const Node& n, int depth) {
  switch (n.kind) {
    case K::kVar:
      return ScanVar(n, depth);
    case K::kDeclRef:
      ScanName(n);
      return true;
    case K::kSubscript: {
      const Node& base = Strip(n.kids[0]);
      if (base.kind == K::kDeclRef && base.decl >= 0 && IsArray(base.decl)) {
        refs_.push_back(&base);
        accesses_.push_back({&n, base.decl, &n.kids[1], false});
        return Scan(n.kids[1], depth);
      }
      break;
    }
    case K::kMemberCall:
      return ScanMemberCall(n, depth);
    case K::kCall:
      return ScanCall(n, depth);
    case K::kConstruct:
      if (n.type.shape != Shape::kStruct && n.type.shape != Shape::kScalar) {
        return Refuse("type", n,
                      "constructs a `" + n.type.value + "`, which device code cannot use");
      }
      break;
    case K::kLambda:
      return Refuse("call", n, "a lambda inside the loop");
    case K::kReturn:
      return Refuse("dependence", n,
                    "returns from inside the loop (later iterations depend on earlier ones)");
    case K::kGoto:
      return Refuse("dependence", n, "a goto inside the loop");
    case K::kBreak:
      if (depth == 0)
        return Refuse("dependence", n,
                      "breaks out of the loop (later iterations depend on earlier ones)");
      return true;
    case K::kRangeFor:
      return Refuse("not-counted", n,
                    "a range-for inside the loop (device code has no containers to walk)");
    case K::kFor:
    case K::kWhile:
    case K::kDo:
    case K::kSwitch:
      for (const auto& k : n.kids) {
        if (!Scan(k, depth + 1)) return false;
      }
      if (n.kind == K::kFor && n.has_init && n.kids[0].kind == K::kDeclStmt) {
        for (const auto& v : n.kids[0].kids)
          assigns_[v.decl] += 2;  // an inner loop variable: not an alias
      }
      return true;
    case K::kOther:
      if (n.kids.empty() && !ast_.Text(n).empty() &&
          ast_.Text(n).find("sizeof") == std::string::npos) {
        return Refuse("other", n, "uses " + Quote(n) + ", which the rules do not handle");
      }
      break;
    default:
      break;
  }
  if (IsAssign(n)) return ScanAssign(n, depth);
  for (const auto& k : n.kids) {
    if (!Scan(k, depth)) return false;
  }
  return true;
}

bool Analyzer::ScanAssign(const Node& n, int depth) {
  if (!ScanTarget(n.kids[0], n)) return false;
  // The target's own subscripts and the value are read.
  const Node* t = &Strip(n.kids[0]);
  while (t->kind == K::kMember || t->kind == K::kSubscript) {
    if (t->kind == K::kSubscript) {
      if (!Scan(t->kids[1], depth)) return false;
    }
    t = &Strip(t->kids[0]);
  }
  if (t->kind == K::kDeclRef) refs_.push_back(t);
  for (size_t i = 1; i < n.kids.size(); ++i) {
    if (!Scan(n.kids[i], depth)) return false;
  }
  return true;
}

// Classifies what an assignment writes.
bool Analyzer::ScanTarget(const Node& target, const Node& stmt) {
  const Node* t = &Strip(target);
  // Through members to the object written (a[i].x, p.x).
  while (t->kind == K::kMember && !t->arrow && !t->kids.empty()) t = &Strip(t->kids[0]);
  if (t->kind == K::kSubscript) {
    const Node& base = Strip(t->kids[0]);
    if (base.kind != K::kDeclRef)
      return Refuse("dependence", stmt,
                    "writes " + Quote(*t) + " (an element the rules cannot name)");
    const int b = base.decl;
    if (IsArray(b)) {
      accesses_.push_back({t, b, &t->kids[1], true});
      return true;
    }
    if (local_ptrs_.count(b)) {
      return Refuse("dependence", stmt,
                    "writes through the local pointer " + Name(b) +
                        " (which elements it writes is not analysed)");
    }
    if (inside_.count(b)) return true;  // a local array
    if (IsTable(b)) return Refuse("dependence", stmt, "writes the table " + Name(b));
    return Refuse("dependence", stmt, "writes " + Quote(*t));
  }
  if (t->kind == K::kDeclRef) {
    const int d = t->decl;
    if (d == element_) {
      if (!D(d).type.is_reference) return true;  // a copy of the element
      accesses_.push_back({t, range_array_, nullptr, true});
      return true;
    }
    if (pvars_.count(d)) return Refuse("dependence", stmt, "assigns the loop variable " + Name(d));
    if (inside_.count(d)) {
      ++assigns_[d];
      return true;
    }
    if (D(d).kind == Decl::Kind::kGlobal)
      return Refuse("dependence", stmt, "writes the global " + Name(d));
    if (D(d).type.shape != Shape::kScalar) {
      return Refuse(
          "dependence", stmt,
          "writes " + Name(d) + ", declared before the loop (a value carried between iterations)");
    }
    carried_.insert(d);
    carried_writes_.push_back(&stmt);
    return true;
  }
  if (t->kind == K::kUnary && t->op == "*")
    return Refuse("dependence", stmt, "writes through a pointer: " + Quote(stmt));
  return Refuse("dependence", stmt, "writes " + Quote(*t));
}

bool Analyzer::ScanMemberCall(const Node& n, int) {
  const Node& obj = Strip(n.kids[0]);
  if (obj.kind == K::kDeclRef && IsArray(obj.decl)) {
    const int a = obj.decl;
    refs_.push_back(&obj);
    if (n.name == "size" && n.kids.size() == 1) {
      sized_.insert(a);
      edits_.push_back({n.begin, n.end, "rs_size_" + D(a).name});
      return true;
    }
    if (n.name == "empty" && n.kids.size() == 1) {
      sized_.insert(a);
      edits_.push_back({n.begin, n.end, "(rs_size_" + D(a).name + " == 0)"});
      return true;
    }
    if (n.name == "data" && n.kids.size() == 1) {
      bare_.insert(a);
      edits_.push_back({n.begin, n.end, D(a).name});
      return true;
    }
    return Refuse("call", n,
                  "calls " + Quote(n) + " (container methods are not available in device code)");
  }
  if (obj.kind == K::kDeclRef && obj.decl == element_) {
    return Refuse("call", n, "calls the method " + Quote(n) + " (not available in device code)");
  }
  return Refuse("call", n, "calls the method " + Quote(n) + " (not available in device code)");
}

bool Analyzer::ScanCall(const Node& n, int depth) {
  if (n.name == "operator()")
    return Refuse("call", n, "calls a lambda or function object: " + Quote(n));
  if (n.decl < 0) return Refuse("call", n, "calls " + Quote(n));
  const Decl& callee = D(n.decl);
  const int helper = HelperIndex(n.decl);
  if (helper >= 0) {
    if (!CheckHelper(helper, 0)) return false;
  } else if (callee.qualified.find("numeric_limits") != std::string::npos && n.kids.empty()) {
    // A constant of the type: evaluated on the host, passed in.
    const std::string name = "rs_h" + std::to_string(hoisted_.size());
    hoisted_.push_back({name, ast_.Text(n), n.type.canonical});
    edits_.push_back({n.begin, n.end, name});
    return true;
  } else if (IsMinMax(callee.name) && n.kids.size() == 2 && !callee.in_main_file) {
    // std::min/max are host functions in device code: the seed defines its own.
    edits_.push_back({n.begin, n.kids[0].begin, "rs_" + callee.name + "("});
  } else if (!MathFunctions().count(callee.name) || callee.in_main_file) {
    return Refuse("call", n, "calls `" + callee.qualified + "`, which has no device version");
  }
  for (const auto& k : n.kids) {
    if (!Scan(k, depth)) return false;
  }
  return true;
}

// A function of the file called from a kernel: compiled for the device too
// (__host__ __device__); it may only take scalars and structs and call what
// a kernel may.
bool Analyzer::CheckHelper(int function, int depth) {
  if (helpers_.count(function)) return true;
  const FunctionDef& h = ast_.functions[static_cast<size_t>(function)];
  const Node at = h.body;
  if (depth > 8) return Refuse("call", at, "helper functions call each other too deeply");
  if (h.is_template) return Refuse("call", at, "calls the function template " + Name(h.decl));
  for (int p : h.params) {
    const Shape s = D(p).type.shape;
    if (!(s == Shape::kScalar || s == Shape::kStruct || s == Shape::kPointer)) {
      return Refuse("call", at,
                    "calls " + Name(h.decl) + ", whose parameter " + Name(p) + " is a `" +
                        D(p).type.spelling + "`");
    }
  }
  const Shape r = D(h.decl).type.shape;
  if (!(r == Shape::kScalar || r == Shape::kStruct) && D(h.decl).type.value != "void") {
    return Refuse("call", at,
                  "calls " + Name(h.decl) + ", which returns a `" + D(h.decl).type.spelling + "`");
  }
  helpers_.insert(function);
  bool ok = true;
  Walk(h.body, [&](const Node& n) {
    if (!ok) return false;
    if (n.kind == K::kLambda || n.kind == K::kMemberCall || n.kind == K::kRangeFor) {
      ok = Refuse("call", n, Name(h.decl) + " uses " + Quote(n) + ", which device code cannot");
    } else if (n.kind == K::kVar && !(D(n.decl).type.shape == Shape::kScalar ||
                                      D(n.decl).type.shape == Shape::kStruct)) {
      ok = Refuse("type", n,
                  Name(h.decl) + " declares " + Name(n.decl) + " of type `" +
                      D(n.decl).type.spelling + "`");
    } else if (n.kind == K::kConstruct && n.type.shape != Shape::kStruct &&
               n.type.shape != Shape::kScalar) {
      ok = Refuse("type", n, Name(h.decl) + " constructs a `" + n.type.value + "`");
    } else if (n.kind == K::kCall) {
      const int hi = n.decl >= 0 ? HelperIndex(n.decl) : -1;
      if (hi >= 0) {
        ok = CheckHelper(hi, depth + 1);
      } else if (n.decl < 0 ||
                 !(MathFunctions().count(D(n.decl).name) || IsMinMax(D(n.decl).name))) {
        ok = Refuse("call", n,
                    Name(h.decl) + " calls " + Quote(n) + ", which has no device version");
      } else if (IsMinMax(D(n.decl).name)) {
        ok = Refuse("call", n,
                    Name(h.decl) + " calls std::" + D(n.decl).name + " (a host function)");
      }
    }
    return ok;
  });
  return ok;
}

// The text of an index with the body's single-assignment locals replaced
// by their initialisers, without whitespace: two indices that name the same
// element of every iteration compare equal.
std::string Analyzer::Norm(const Node& n, int depth) const {
  std::string out;
  size_t pos = n.begin;
  std::function<void(const Node&)> go = [&](const Node& x) {
    if (x.kind == K::kDeclRef && x.begin >= pos && inside_.count(x.decl) && init_.count(x.decl) &&
        !assigns_.count(x.decl) && depth < 8) {
      out += ast_.source.substr(pos, x.begin - pos);
      out += "(" + Norm(*init_.at(x.decl), depth + 1) + ")";
      pos = x.end;
      return;
    }
    for (const auto& k : x.kids) go(k);
  };
  go(n);
  out += ast_.source.substr(pos, n.end > pos ? n.end - pos : 0);
  return NoSpace(out);
}

// Whether an index is an affine expression of the loop variables,
// invariant names and literals; `found` collects the parallel variables in
// it, `unscaled` the loop variables (parallel or inner) not multiplied by a
// stride: two of them added (x[i + j]) let iterations write one element.
bool Analyzer::Owned(const Node& index, std::set<int>* found, std::set<int>* unscaled, bool scaled,
                     int depth) const {
  const Node& n = Strip(index);
  switch (n.kind) {
    case K::kCast:
      return !n.kids.empty() && Owned(n.kids.back(), found, unscaled, scaled, depth);
    case K::kBinary: {
      if (n.op == "+" || n.op == "-") {
        return Owned(n.kids[0], found, unscaled, scaled, depth) &&
               Owned(n.kids[1], found, unscaled, scaled, depth);
      }
      if (n.op != "*") return false;
      // A product of two loop variables is not affine; one scaled by an
      // invariant is a stride.
      std::set<int> left, right;
      if (!Owned(n.kids[0], &left, unscaled, true, depth) ||
          !Owned(n.kids[1], &right, unscaled, true, depth)) {
        return false;
      }
      if (!left.empty() && !right.empty()) return false;
      found->insert(left.begin(), left.end());
      found->insert(right.begin(), right.end());
      return true;
    }
    case K::kUnary:
      return (n.op == "-" || n.op == "+") && Owned(n.kids[0], found, unscaled, scaled, depth);
    case K::kLiteral:
      return n.type.shape == Shape::kScalar;
    case K::kMemberCall:
      return n.name == "size" && Strip(n.kids[0]).kind == K::kDeclRef &&
             IsArray(Strip(n.kids[0]).decl);
    case K::kDeclRef: {
      const int d = n.decl;
      if (pvars_.count(d)) {
        found->insert(d);
        if (!scaled) unscaled->insert(d);
        return true;
      }
      if (inside_.count(d)) {
        if (init_.count(d) && !assigns_.count(d) && depth < 8)
          return Owned(*init_.at(d), found, unscaled, scaled, depth + 1);
        if (!assigns_.count(d) || assigns_.at(d) < 2) return false;
        if (!scaled) unscaled->insert(d);  // an inner loop's variable
        return true;
      }
      return !carried_.count(d) && D(d).type.shape == Shape::kScalar;
    }
    default:
      return false;
  }
}

// Every written array is written at elements its iteration owns and read
// only there.
bool Analyzer::CheckAccesses(const Node& at) {
  std::map<int, std::set<std::string>> written;  // array -> normalised indices ("" = the element)
  for (const Access& a : accesses_) {
    if (!a.write) continue;
    if (a.index && pvars_.empty()) {
      return Refuse("dependence", *a.node,
                    "writes " + Quote(*a.node) +
                        " in a range-for (no index of the iteration owns the element)");
    }
    if (a.index) {
      std::set<int> found, unscaled;
      const std::string idx = Quote(*a.node);
      if (!Owned(*a.index, &found, &unscaled, false, 0)) {
        return Refuse("dependence", *a.node,
                      "writes " + idx +
                          ": the element is not an affine function of the loop variable"
                          " (another iteration may write it)");
      }
      for (int p : pvars_) {
        if (!found.count(p)) {
          return Refuse("dependence", *a.node,
                        "writes " + idx + ", which does not depend on the loop variable " +
                            Name(p) + " (its iterations would write the same elements)");
        }
      }
      const bool parallel_unscaled =
          std::any_of(unscaled.begin(), unscaled.end(), [&](int v) { return pvars_.count(v) > 0; });
      if (parallel_unscaled && unscaled.size() > 1) {
        return Refuse("dependence", *a.node,
                      "writes " + idx +
                          ": the loop variables are added without a stride (two iterations may "
                          "write one element)");
      }
      written[a.array].insert(Norm(*a.index));
    } else {
      written[a.array].insert("");
    }
  }
  for (const Access& a : accesses_) {
    auto w = written.find(a.array);
    if (w == written.end() || a.write) continue;
    const std::string key = a.index ? Norm(*a.index) : "";
    if (!w->second.count(key)) {
      return Refuse(
          "dependence", *a.node,
          "reads " + Quote(*a.node) + " of " + Name(a.array) +
              ", which the loop writes at other elements (a dependence between iterations)");
    }
  }
  for (const auto& [array, idx] : written) {
    if (bare_.count(array) && array != range_array_) {
      return Refuse("dependence", at,
                    "uses " + Name(array) + " as a pointer while the loop writes it");
    }
    if (array == range_array_ && (idx.size() > 1 || !idx.count(""))) {
      return Refuse("dependence", at,
                    "writes " + Name(array) + " both through the range-for element and by index");
    }
  }
  return true;
}

// The arrays a kernel uses hold numbers or structs of them, in memory a
// copy can move (not std::vector<bool>'s bits).
bool Analyzer::CheckElements() {
  std::set<int> arrays;
  for (const Node* r : refs_) {
    if (r->decl >= 0 && IsArray(r->decl)) arrays.insert(r->decl);
  }
  if (range_array_ >= 0) arrays.insert(range_array_);
  for (int a : arrays) {
    const TypeInfo& t = D(a).type;
    if (t.elem_shape != Shape::kScalar && t.elem_shape != Shape::kStruct) {
      return Refuse(
          "type", f_.body,
          "uses " + Name(a) + ", an array of `" + t.elem + "`, which device code cannot use");
    }
    if (t.shape == Shape::kVector && (t.elem == "bool" || t.elem == "_Bool")) {
      return Refuse("type", f_.body,
                    "uses " + Name(a) + ", a std::vector<bool> (bits, not an array to copy)");
    }
  }
  return true;
}

// What a kernel receives: the names its body uses that are declared outside it.
void Analyzer::Captures(Phase* phase) const {
  std::set<int> seen;
  for (const Node* r : refs_) {
    const int d = r->decl;
    if (d < 0 || seen.count(d) || inside_.count(d) || pvars_.count(d) || IsTable(d)) continue;
    const Decl& x = D(d);
    if (x.kind != Decl::Kind::kParam && x.kind != Decl::Kind::kLocal) continue;
    seen.insert(d);
    phase->captured.push_back(d);
  }
  if (range_array_ >= 0 && !seen.count(range_array_)) phase->captured.push_back(range_array_);
  for (const Access& a : accesses_) {
    (a.write ? phase->arrays_written : phase->arrays_read).insert(a.array);
  }
  for (int d : phase->captured) {
    if (IsArray(d) && !phase->arrays_written.count(d)) phase->arrays_read.insert(d);
  }
}

bool Analyzer::TryMap(const std::vector<ParallelLoop>& loops, const Node& body, Phase* phase) {
  ResetScan(loops);
  if (!Scan(body, 0)) return false;
  if (!carried_writes_.empty()) {
    return Refuse("dependence", *carried_writes_[0],
                  "writes a scalar declared outside the loop: " + Quote(*carried_writes_[0]));
  }
  // Host-side bounds of the inner parallel loops must not change inside.
  if (!CheckAccesses(*phase->stmt)) return false;
  if (!CheckElements()) return false;
  phase->kind = Phase::Kind::kMap;
  phase->loops = loops;
  phase->body = &body;
  Captures(phase);
  phase->sized = sized_;
  phase->edits = edits_;
  phase->hoisted = hoisted_;
  std::string vars;
  for (const auto& l : loops)
    vars += (vars.empty() ? "" : ", ") + (l.range_array >= 0 ? D(l.var).name : l.name);
  phase->note =
      "line " + std::to_string(loops[0].line) + ": map over (" + vars + ")" +
      (loops.size() > 1 ? ", a " + std::to_string(loops.size()) + "-D grid" : ", a 1-D grid");
  return true;
}

// ---- reductions -----------------------------------------------------------------------------

bool Analyzer::AddReduction(Reduction r, const Node& at, std::vector<Reduction>* out) {
  for (Reduction& old : *out) {
    if (old.var != r.var && !(old.index >= 0 && old.index == r.var)) continue;
    const bool sum_like =
        (old.kind == Reduction::Kind::kSum || old.kind == Reduction::Kind::kProduct);
    if (old.kind == r.kind && (sum_like || (old.cmp == r.cmp && old.index == r.index))) return true;
    return Refuse("dependence", at, "updates " + Name(r.var) + " in two different ways");
  }
  out->push_back(r);
  return true;
}

bool Analyzer::MatchUpdate(const Node& n, std::vector<Reduction>* out,
                           std::set<const Node*>* used) {
  Reduction r;
  const Node* value = nullptr;
  if (n.kind == K::kCompoundAssign && Carried(n.kids[0])) {
    r.var = Strip(n.kids[0]).decl;
    if (n.op == "+=" || n.op == "-=")
      r.kind = Reduction::Kind::kSum;
    else if (n.op == "*=" || n.op == "/=")
      r.kind = Reduction::Kind::kProduct;
    else
      return false;
    value = &n.kids[1];
  } else if (n.kind == K::kUnary && (n.op == "++" || n.op == "--") && Carried(n.kids[0])) {
    r.var = Strip(n.kids[0]).decl;
    r.kind = Reduction::Kind::kSum;
  } else if (n.kind == K::kBinary && n.op == "=" && Carried(n.kids[0])) {
    r.var = Strip(n.kids[0]).decl;
    const Node& rhs = Strip(n.kids[1]);
    const bool left = rhs.kids.size() == 2 && IsRef(rhs.kids[0], r.var);
    const bool right = rhs.kids.size() == 2 && IsRef(rhs.kids[1], r.var);
    if (rhs.kind == K::kBinary && (rhs.op == "+" || rhs.op == "*") && (left || right)) {
      r.kind = rhs.op == "+" ? Reduction::Kind::kSum : Reduction::Kind::kProduct;
      value = &rhs.kids[left ? 1 : 0];
    } else if (rhs.kind == K::kBinary && (rhs.op == "-" || rhs.op == "/") && left) {
      r.kind = rhs.op == "-" ? Reduction::Kind::kSum : Reduction::Kind::kProduct;
      value = &rhs.kids[1];
    } else if (rhs.kind == K::kCall && rhs.decl >= 0 && (left || right)) {
      const std::string& f = D(rhs.decl).name;
      if (f == "min" || f == "fmin" || f == "fminf")
        r.kind = Reduction::Kind::kMin;
      else if (f == "max" || f == "fmax" || f == "fmaxf")
        r.kind = Reduction::Kind::kMax;
      else
        return false;
      r.cmp = r.kind == Reduction::Kind::kMin ? "<" : ">";
      value = &rhs.kids[left ? 1 : 0];
      used->insert(&Strip(rhs.kids[left ? 0 : 1]));
    } else if (rhs.kind == K::kConditional && rhs.kids.size() == 3) {
      // c ? a : b with c comparing s and e, {a, b} = {s, e}.
      const Node& c = Strip(rhs.kids[0]);
      if (c.kind != K::kBinary || !IsComparison(c.op)) return false;
      const bool a_is_s = IsRef(rhs.kids[1], r.var), b_is_s = IsRef(rhs.kids[2], r.var);
      if (a_is_s == b_is_s) return false;
      const Node& e = a_is_s ? rhs.kids[2] : rhs.kids[1];
      const bool s_left = IsRef(c.kids[0], r.var);
      if (!s_left && !IsRef(c.kids[1], r.var)) return false;
      const Node& ce = c.kids[s_left ? 1 : 0];
      if (Norm(ce) != Norm(e)) return false;
      std::string cmp = s_left ? Flip(c.op) : c.op;  // e cmp s picks ...
      if (a_is_s) cmp = Negate(cmp);                 // ... e when the condition fails
      r.kind = (cmp == "<" || cmp == "<=") ? Reduction::Kind::kMin : Reduction::Kind::kMax;
      r.cmp = cmp[0] == '<' ? "<" : ">";
      used->insert(&Strip(c.kids[s_left ? 0 : 1]));
      used->insert(&Strip(rhs.kids[a_is_s ? 1 : 2]));
      value = &e;
    } else {
      return false;
    }
  } else {
    return false;
  }
  used->insert(&Strip(n.kids[0]));
  if (value && Mentions(*value, carried_)) {
    return Refuse("dependence", n,
                  "the update " + Quote(n) + " reads a value carried between iterations");
  }
  return AddReduction(r, n, out);
}

// if (cond) s = e;   if (cond) { s = e; k = i; }   if (a[i] < a[k]) k = i;
bool Analyzer::MatchIf(const Node& n, std::vector<Reduction>* out, std::set<const Node*>* used) {
  if (n.kind != K::kIf || n.has_else || n.kids.size() != 2) return false;
  std::vector<const Node*> terms;
  Conjuncts(n.kids[0], &terms);
  const Node* test = nullptr;
  for (const Node* t : terms) {
    if (!Mentions(*t, carried_)) continue;
    if (test || t->kind != K::kBinary || !IsComparison(t->op)) return false;
    test = t;
  }
  if (!test) return false;
  std::vector<const Node*> body = Statements(n.kids[1]);
  std::vector<const Node*> sets;
  for (const Node* s : body) {
    const Node& x = Strip(*s);
    if (x.kind != K::kBinary || x.op != "=" || !Carried(x.kids[0])) return false;
    sets.push_back(&x);
  }
  if (sets.empty() || sets.size() > 2) return false;
  const int p = pvars_.size() == 1 ? *pvars_.begin() : -1;
  if (sets.size() == 1 && p >= 0 && IsRef(sets[0]->kids[1], p)) {
    return MatchArgIndex(n, *test, *sets[0], p, out, used);
  }
  // The value set: s = e where the test compares e with s.
  const Node* value_set = nullptr;
  const Node* index_set = nullptr;
  for (const Node* s : sets) {
    if (p >= 0 && IsRef(s->kids[1], p) && sets.size() == 2) {
      index_set = s;
    } else {
      value_set = s;
    }
  }
  if (!value_set || (sets.size() == 2 && !index_set)) return false;
  Reduction r;
  const int s = Strip(value_set->kids[0]).decl;
  const bool s_left = IsRef(test->kids[0], s), s_right = IsRef(test->kids[1], s);
  if (s_left == s_right) return false;
  const Node& e = test->kids[s_left ? 1 : 0];
  if (Norm(e) != Norm(value_set->kids[1]) || Mentions(e, carried_)) return false;
  r.var = s;
  r.cmp = s_left ? Flip(test->op) : test->op;
  if (index_set) {
    r.kind = Reduction::Kind::kArgPair;
    r.index = Strip(index_set->kids[0]).decl;
    if (r.index == s) return false;
    used->insert(&Strip(index_set->kids[0]));
  } else {
    r.kind = (r.cmp[0] == '<') ? Reduction::Kind::kMin : Reduction::Kind::kMax;
  }
  used->insert(&Strip(test->kids[s_left ? 0 : 1]));
  used->insert(&Strip(value_set->kids[0]));
  if (Mentions(value_set->kids[1], carried_)) return false;
  return AddReduction(r, n, out);
}

// Argmin by index: `if (key(i) cmp key(k)) k = i;`, the two sides one
// expression of i and of k (`set` is `k = i`, p the loop variable i).
bool Analyzer::MatchArgIndex(const Node& n, const Node& test, const Node& set, int p,
                             std::vector<Reduction>* out, std::set<const Node*>* used) {
  const int k = Strip(set.kids[0]).decl;
  const bool k_right = Mentions(test.kids[1], {k}) && !Mentions(test.kids[0], {k});
  const Node& cand = test.kids[k_right ? 0 : 1];
  const Node& cur = test.kids[k_right ? 1 : 0];
  if (Mentions(cand, carried_) || Mentions(cur, {p}) || !Mentions(cand, {p})) return false;
  auto masked = [&](const Node& side, int var) {
    std::string t = ast_.Text(side);
    std::vector<const Node*> names;
    Walk(side, [&](const Node& x) {
      if (x.kind == K::kDeclRef && x.decl == var) names.push_back(&x);
      return true;
    });
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
      t.replace((*it)->begin - side.begin, (*it)->end - (*it)->begin, "@");
    }
    return NoSpace(t);
  };
  if (masked(cand, p) != masked(cur, k)) return false;
  Reduction r;
  r.kind = Reduction::Kind::kArgIndex;
  r.var = k;
  r.cmp = k_right ? test.op : Flip(test.op);
  r.key_begin = cur.begin;
  r.key_end = cur.end;
  Walk(test, [&](const Node& x) {
    if (x.kind == K::kDeclRef && x.decl == k) used->insert(&x);
    return true;
  });
  used->insert(&Strip(set.kids[0]));
  return AddReduction(r, n, out);
}

bool Analyzer::TryReduce(const ParallelLoop& loop, const Node& body, Phase* phase) {
  // The scan (ResetScan + Scan) of this body has run.
  for (const Access& a : accesses_) {
    if (a.write) {
      return Refuse("dependence", *a.node,
                    "writes " + Quote(*a.node) + " and carries " + Name(*carried_.begin()) +
                        " between iterations (a scan, or a reduction mixed with other work)");
    }
  }
  std::vector<Reduction> found;
  std::set<const Node*> used;
  bool ok = true;
  Walk(body, [&](const Node& n) {
    if (!ok) return false;
    if (MatchIf(n, &found, &used) || MatchUpdate(n, &found, &used)) return false;
    if (refusal_) ok = false;
    return ok;
  });
  if (!ok || refusal_) return false;
  for (const Node* r : refs_) {
    if (r->decl >= 0 && carried_.count(r->decl) && !used.count(r)) {
      return Refuse("dependence", *r,
                    "reads " + Name(r->decl) +
                        " inside the loop outside a reduction's update "
                        "(a running value: a scan or a dependence between iterations)");
    }
  }
  for (int c : carried_) {
    bool covered = false;
    for (const Reduction& r : found) covered = covered || r.var == c || r.index == c;
    if (!covered)
      return Refuse("dependence", body,
                    "updates " + Name(c) + " in a form that is not a recognised reduction");
    if (D(c).type.shape != Shape::kScalar)
      return Refuse("type", body, "reduces " + Name(c) + ", which is not a number");
  }
  if (!CheckElements()) return false;
  phase->kind = Phase::Kind::kReduce;
  phase->loops = {loop};
  phase->body = &body;
  phase->reductions = found;
  Captures(phase);
  // The reduced scalars are the kernel's own locals, not parameters.
  std::vector<int> keep;
  for (int d : phase->captured) {
    if (!carried_.count(d)) keep.push_back(d);
  }
  phase->captured = keep;
  phase->sized = sized_;
  phase->edits = edits_;
  phase->hoisted = hoisted_;
  static const char* kNames[] = {"sum", "product",       "min",
                                 "max", "argmin/argmax", "argmin/argmax by index"};
  std::string what;
  for (const Reduction& r : found) {
    what += (what.empty() ? "" : ", ") + std::string(kNames[static_cast<int>(r.kind)]) + " of " +
            Name(r.var);
    if (r.index >= 0) what += " with " + Name(r.index);
  }
  phase->note = "line " + std::to_string(loop.line) + ": reduction over " +
                (loop.range_array >= 0 ? D(loop.var).name : loop.name) + " (" + what +
                "): a block tree per block, then a second one-block pass";
  return true;
}

}  // namespace

Analysis Analyze(const FileAst& ast, const FunctionDef& f) { return Analyzer(ast, f).Run(); }

}  // namespace regrapht::seed
