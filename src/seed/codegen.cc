// Generate (codegen.h): the CUDA text of a Plan.
#include "seed/codegen.h"

#include <algorithm>
#include <set>

namespace regrapht::seed {
namespace {

using Shape = TypeInfo::Shape;
constexpr int kThreads =
    256;  // threads per block of every kernel (the reductions' trees assume it)

// The source text of [begin, end) with the edits inside it applied (an edit
// overlapping an earlier one is dropped: the outer one already replaced it).
std::string ApplyEdits(const std::string& src, size_t begin, size_t end, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::string out;
  size_t pos = begin;
  for (const Edit& e : edits) {
    if (e.begin < pos || e.end > end) continue;
    out += src.substr(pos, e.begin - pos) + e.text;
    pos = e.end;
  }
  out += src.substr(pos, end > pos ? end - pos : 0);
  return out;
}

const char* Axis(size_t loop, size_t count) {
  static const char* const kAxes[3][3] = {{"x", "", ""}, {"y", "x", ""}, {"z", "y", "x"}};
  return kAxes[count - 1][loop];
}

class Writer {
 public:
  Writer(const FileAst& ast, const FunctionDef& f, const Plan& plan, const ArrayLengths& lengths)
      : ast_(ast), f_(f), plan_(plan), lengths_(lengths) {}

  Generated Run();

 private:
  const Decl& D(int i) const { return ast_.decl(i); }
  const std::string& N(int i) const { return ast_.decl(i).name; }
  std::string Fn() const { return N(f_.decl); }
  bool IsArray(int d) const {
    const Shape s = D(d).type.shape;
    return plan_.temps.count(d) ||
           (D(d).kind == Decl::Kind::kParam &&
            (s == Shape::kPointer || s == Shape::kVector || s == Shape::kStdArray));
  }
  std::string Elem(int d) const { return D(d).type.elem; }
  std::string HostPtr(int d) const {
    return D(d).type.shape == Shape::kPointer ? N(d) : N(d) + ".data()";
  }
  bool Refuse(const std::string& category, const std::string& why) {
    if (refusal_.category.empty()) refusal_ = {category, why};
    return false;
  }

  std::string Prefix() const;
  std::string Tables() const;
  bool Allocate(const Phase& p, std::string* out);
  std::string KernelBody(const Phase& p) const;
  // The kernel's parameters and the host's arguments, in order.
  void Params(const Phase& p, std::vector<std::string>* decls,
              std::vector<std::string>* args) const;
  std::string LoopHeads(const Phase& p) const;
  std::string Count(const ParallelLoop& l) const;
  void Map(const Phase& p, int k, std::string* kernels, std::string* host) const;
  void Reduce(const Phase& p, int k, std::string* kernels, std::string* host) const;
  void ReduceHost(const Phase& p, const std::string& name, const std::vector<int>& vars,
                  const std::vector<std::string>& a1, const std::vector<std::string>& a2,
                  std::string* host) const;
  std::string Combine(const Phase& p, const Reduction& r, const std::string& a,
                      const std::string& ai, const std::string& b, const std::string& bi) const;
  std::string Tree(const Phase& p, const std::string& from) const;
  std::string Cleanup() const;

  const FileAst& ast_;
  const FunctionDef& f_;
  const Plan& plan_;
  const ArrayLengths& lengths_;
  Refusal refusal_;
  std::vector<int> allocated_;  // device arrays, in allocation order
  std::set<int> written_;       // arrays a kernel writes
  bool sizes_declared_ = false;
  bool cleaned_ = false;  // the copies back and frees are written
};

std::string Writer::Prefix() const {
  // Helpers the kernels call are compiled for the device too.
  std::vector<Edit> marks;
  for (int h : plan_.device_functions) {
    const FunctionDef& fn = ast_.functions[static_cast<size_t>(h)];
    marks.push_back({fn.begin, fn.begin, "__host__ __device__ "});
  }
  return ApplyEdits(ast_.source, 0, f_.begin, marks);
}

std::string Writer::Tables() const {
  std::string out;
  for (int t : plan_.tables) {
    const Decl& d = D(t);
    // `static const int k[3][3] = {...}` -> `__device__ const int rs_c_k[3][3] = {...};`
    std::string type = ast_.source.substr(d.begin, d.name_offset - d.begin);
    for (const char* word : {"static ", "constexpr ", "const ", "inline "}) {
      for (size_t at; (at = type.find(word)) != std::string::npos;)
        type.erase(at, std::string(word).size());
    }
    const size_t after = d.name_offset + d.name.size();
    out += "__device__ const " + type + "rs_c_" + d.name +
           ast_.source.substr(after, d.end - after) + ";\n";
  }
  return out;
}

// Arrays this phase uses that are not on the device yet: allocated and copied.
bool Writer::Allocate(const Phase& p, std::string* out) {
  for (int d : p.captured) {
    if (!IsArray(d) || std::count(allocated_.begin(), allocated_.end(), d)) continue;
    std::string len;
    if (D(d).type.shape == Shape::kPointer) {
      auto it = lengths_.cpp.find(N(d));
      if (it == lengths_.cpp.end()) {
        return Refuse("length",
                      "the length of the pointer argument `" + N(d) +
                          "` is unknown (the spec gives none in terms of the parameters)");
      }
      if (!sizes_declared_) {
        for (const auto& s : lengths_.setup) *out += "  " + s + "\n";
        sizes_declared_ = true;
      }
      len = it->second;
    } else {
      len = N(d) + ".size()";
    }
    const std::string n = "rs_n_" + N(d), dev = "rs_d_" + N(d), e = Elem(d);
    *out += "  const size_t " + n + " = (size_t)(" + len + ");\n";
    *out += "  " + e + "* " + dev + " = nullptr;\n";
    *out +=
        "  cudaMalloc((void**)&" + dev + ", (" + n + " ? " + n + " : 1) * sizeof(" + e + "));\n";
    *out += "  if (" + n + ") cudaMemcpy(" + dev + ", " + HostPtr(d) + ", " + n + " * sizeof(" + e +
            "), cudaMemcpyHostToDevice);\n";
    allocated_.push_back(d);
  }
  return true;
}

std::string Writer::KernelBody(const Phase& p) const {
  const Node& b = *p.body;
  std::string text = ApplyEdits(ast_.source, b.begin, b.end, p.edits);
  if (b.kind != Node::Kind::kCompound) text = "{ " + text + "; }";
  const ParallelLoop& last = p.loops.back();
  if (last.range_array >= 0) {
    text = "{\n      " + last.element + " = " + N(last.range_array) + "[rs_i];\n      " + text +
           "\n    }";
  }
  return text;
}

void Writer::Params(const Phase& p, std::vector<std::string>* decls,
                    std::vector<std::string>* args) const {
  for (int d : p.captured) {
    if (IsArray(d)) {
      const bool written = p.arrays_written.count(d) > 0;
      decls->push_back(std::string(written ? "" : "const ") + Elem(d) + "* __restrict__ " + N(d));
      args->push_back("rs_d_" + N(d));
      if (p.sized.count(d)) {
        decls->push_back("size_t rs_size_" + N(d));
        args->push_back("rs_n_" + N(d));
      }
    } else {
      decls->push_back(D(d).type.canonical + " " + N(d));
      args->push_back(N(d));
    }
  }
  for (const Hoisted& h : p.hoisted) {
    decls->push_back(h.type + " " + h.name);
    args->push_back("(" + h.type + ")(" + h.expr + ")");
  }
  for (size_t i = 0; i < p.loops.size(); ++i) {
    const ParallelLoop& l = p.loops[i];
    const std::string k = std::to_string(i);
    decls->push_back(l.type + " rs_lo" + k);
    decls->push_back(l.type + " rs_hi" + k);
    args->push_back("(" + l.type + ")(" + l.lo + ")");
    args->push_back("(" + l.type + ")(" + l.hi + ")");
  }
}

// The grid-stride loops of a kernel, outermost first (the last one without
// its line end: the body follows it).
std::string Writer::LoopHeads(const Phase& p) const {
  std::string out;
  for (size_t i = 0; i < p.loops.size(); ++i) {
    const ParallelLoop& l = p.loops[i];
    const std::string a = Axis(i, p.loops.size()), k = std::to_string(i), t = l.type;
    out += std::string(2 + 2 * i, ' ') + "for (" + t + " " + l.name + " = rs_lo" + k + " + (" + t +
           ")(blockIdx." + a + " * blockDim." + a + " + threadIdx." + a + "); " + l.name +
           (l.inclusive ? " <= " : " < ") + "rs_hi" + k + "; " + l.name + " += (" + t +
           ")(gridDim." + a + " * blockDim." + a + "))" + (i + 1 < p.loops.size() ? "\n" : "");
  }
  return out;
}

std::string Writer::Count(const ParallelLoop& l) const {
  return "(long long)(" + l.hi + ") - (long long)(" + l.lo + ")" + (l.inclusive ? " + 1" : "");
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

void Writer::Map(const Phase& p, int k, std::string* kernels, std::string* host) const {
  const std::string name = "rs_" + Fn() + "_k" + std::to_string(k);
  std::vector<std::string> decls, args;
  Params(p, &decls, &args);
  *kernels += "// " + p.note + "\n__global__ void " + name + "(" + Join(decls, ", ") + ") {\n" +
              LoopHeads(p) + " " + KernelBody(p) + "\n}\n\n";
  // Threads per block on each axis (x innermost) and the most blocks.
  static const int kBlock[3][3] = {{kThreads, 1, 1}, {32, 8, 1}, {32, 4, 2}};
  static const int kGridCap[3] = {4096, 256, 64};
  const size_t n = p.loops.size();
  std::string counts, positive, grid;
  for (size_t i = 0; i < n; ++i) {
    const std::string c = "rs_c" + std::to_string(i);
    counts += "    const long long " + c + " = " + Count(p.loops[i]) + ";\n";
    positive += (i ? " && " : "") + c + " > 0";
  }
  std::vector<std::string> g(3, "1"), b(3, "1");
  for (size_t i = 0; i < n; ++i) {
    const size_t axis = n - 1 - i;  // x is the innermost loop
    const std::string c = "rs_c" + std::to_string(i), bs = std::to_string(kBlock[n - 1][axis]);
    const std::string cap = std::to_string(kGridCap[n - 1]);
    g[axis] = "(unsigned)((" + c + " + " + bs + " - 1) / " + bs + " < " + cap + " ? (" + c + " + " +
              bs + " - 1) / " + bs + " : " + cap + ")";
    b[axis] = bs;
  }
  *host += "  {  // " + p.note + "\n" + counts + "    if (" + positive + ") {\n      " + name +
           "<<<dim3(" + Join(g, ", ") + "), dim3(" + Join(b, ", ") + ")>>>(" + Join(args, ", ") +
           ");\n    }\n  }\n";
}

std::string Writer::Combine(const Phase& p, const Reduction& r, const std::string& a,
                            const std::string& ai, const std::string& b,
                            const std::string& bi) const {
  using RK = Reduction::Kind;
  if (r.kind == RK::kSum) return a + " = " + a + " + " + b + ";";
  if (r.kind == RK::kProduct) return a + " = " + a + " * " + b + ";";
  if (r.kind == RK::kMin || r.kind == RK::kMax)
    return "if (" + b + " " + r.cmp + " " + a + ") " + a + " = " + b + ";";
  // Arg reductions: the better key wins; on equal keys, the one the
  // sequential loop meets first ("<", ">") or last ("<=", ">="), the
  // initial value before every element.
  const std::string strict = r.cmp.substr(0, 1), s = N(r.var);
  const bool keep_last = r.cmp.size() == 2;
  std::string ka = a, kb = b, a_init, b_init, out = "{ ";
  if (r.kind == RK::kArgIndex) {
    const std::string key = ApplyEdits(ast_.source, r.key_begin, r.key_end, p.edits);
    const std::string t = D(r.var).type.canonical;
    out +=
        "auto rs_key = [&](" + t + " rs_k) { " + t + " " + s + " = rs_k; return (" + key + "); }; ";
    out += "const auto rs_ka = rs_key(" + a + "); const auto rs_kb = rs_key(" + b + "); ";
    ka = "rs_ka";
    kb = "rs_kb";
    a_init = "(" + a + " == rs_init_" + s + ")";
    b_init = "(" + b + " == rs_init_" + s + ")";
  } else {
    const std::string idx = N(r.index);
    a_init = "(" + a + " == rs_init_" + s + " && " + ai + " == rs_init_" + idx + ")";
    b_init = "(" + b + " == rs_init_" + s + " && " + bi + " == rs_init_" + idx + ")";
  }
  const std::string pa = r.kind == RK::kArgIndex ? a : ai, pb = r.kind == RK::kArgIndex ? b : bi;
  out += "bool rs_take = false; if (" + kb + " " + strict + " " + ka +
         ") rs_take = true; else if (" + ka + " " + strict + " " + kb +
         ") rs_take = false; else rs_take = " + a_init + " ? " + (keep_last ? "true" : "false") +
         " : " + b_init + " ? " + (keep_last ? "false" : "true") + " : (" + pb +
         (keep_last ? " > " : " < ") + pa + "); ";
  out += "if (rs_take) { " + a + " = " + b + ";" +
         (r.kind == RK::kArgPair ? " " + ai + " = " + bi + ";" : "") + " } }";
  return out;
}

// Each thread's values (named `from` + the variable) through a
// shared-memory tree; thread 0 ends with the block's result in rs_sh_*[0].
std::string Writer::Tree(const Phase& p, const std::string& from) const {
  std::string out, load, pair, store;
  for (const Reduction& r : p.reductions) {
    std::vector<int> vars = {r.var};
    if (r.index >= 0) vars.push_back(r.index);
    for (int v : vars) {
      const std::string t = D(v).type.canonical, sh = "rs_sh_" + N(v);
      out += "  __shared__ " + t + " " + sh + "[" + std::to_string(kThreads) + "];\n";
      out += "  " + sh + "[threadIdx.x] = " + from + N(v) + ";\n";
      load += "      " + t + " rs_a_" + N(v) + " = " + sh + "[threadIdx.x], rs_b_" + N(v) + " = " +
              sh + "[threadIdx.x + rs_w];\n";
      store += "      " + sh + "[threadIdx.x] = rs_a_" + N(v) + ";\n";
    }
    const std::string ai = r.index >= 0 ? "rs_a_" + N(r.index) : "",
                      bi = r.index >= 0 ? "rs_b_" + N(r.index) : "";
    pair += "      " + Combine(p, r, "rs_a_" + N(r.var), ai, "rs_b_" + N(r.var), bi) + "\n";
  }
  out += "  __syncthreads();\n  for (int rs_w = " + std::to_string(kThreads / 2) +
         "; rs_w > 0; rs_w >>= 1) {\n    if ((int)threadIdx.x < rs_w) {\n" + load + pair + store +
         "    }\n    __syncthreads();\n  }\n";
  return out;
}

void Writer::Reduce(const Phase& p, int k, std::string* kernels, std::string* host) const {
  using RK = Reduction::Kind;
  const std::string name = "rs_" + Fn() + "_k" + std::to_string(k);
  std::vector<std::string> decls, args;
  Params(p, &decls, &args);
  std::vector<int> vars;  // every reduced scalar, with the index variables
  for (const Reduction& r : p.reductions) {
    vars.push_back(r.var);
    if (r.index >= 0) vars.push_back(r.index);
  }
  auto start = [&](int v) {  // a thread's first value
    for (const Reduction& r : p.reductions) {
      if (r.var == v && r.kind == RK::kSum) return "(" + D(v).type.canonical + ")0";
      if (r.var == v && r.kind == RK::kProduct) return "(" + D(v).type.canonical + ")1";
    }
    return "rs_init_" + N(v);
  };
  std::vector<std::string> d1 = decls, a1 = args, d2 = decls, a2 = args;
  for (int v : vars) {
    const std::string t = D(v).type.canonical;
    for (auto* d : {&d1, &d2}) d->push_back(t + " rs_init_" + N(v));
    for (auto* a : {&a1, &a2}) a->push_back(N(v));
    d1.push_back(t + "* __restrict__ rs_part_" + N(v));
    a1.push_back("rs_part_" + N(v));
    d2.push_back("const " + t + "* __restrict__ rs_part_" + N(v));
    a2.push_back("rs_part_" + N(v));
  }
  d2.push_back("int rs_parts");
  a2.push_back("rs_blocks");
  for (int v : vars) {
    d2.push_back(D(v).type.canonical + "* __restrict__ rs_out_" + N(v));
    a2.push_back("rs_out_" + N(v));
  }
  // Kernel 1: each thread runs the body on its own copies; a tree per block.
  std::string k1 = "// " + p.note + "\n__global__ void " + name + "(" + Join(d1, ", ") + ") {\n";
  for (int v : vars) k1 += "  " + D(v).type.canonical + " " + N(v) + " = " + start(v) + ";\n";
  k1 += LoopHeads(p) + " " + KernelBody(p) + "\n" + Tree(p, "");
  k1 += "  if (threadIdx.x == 0) {\n";
  for (int v : vars) k1 += "    rs_part_" + N(v) + "[blockIdx.x] = rs_sh_" + N(v) + "[0];\n";
  k1 += "  }\n}\n\n";
  // Kernel 2: one block combines the blocks' results in a fixed order.
  std::string k2 = "__global__ void " + name + "_final(" + Join(d2, ", ") + ") {\n";
  for (int v : vars) k2 += "  " + D(v).type.canonical + " rs_t_" + N(v) + " = " + start(v) + ";\n";
  k2 += "  for (int rs_p = threadIdx.x; rs_p < rs_parts; rs_p += blockDim.x) {\n";
  for (int v : vars)
    k2 += "    " + D(v).type.canonical + " rs_q_" + N(v) + " = rs_part_" + N(v) + "[rs_p];\n";
  for (const Reduction& r : p.reductions) {
    const std::string ai = r.index >= 0 ? "rs_t_" + N(r.index) : "",
                      bi = r.index >= 0 ? "rs_q_" + N(r.index) : "";
    k2 += "    " + Combine(p, r, "rs_t_" + N(r.var), ai, "rs_q_" + N(r.var), bi) + "\n";
  }
  k2 += "  }\n" + Tree(p, "rs_t_") + "  if (threadIdx.x == 0) {\n";
  for (const Reduction& r : p.reductions) {
    const std::string v = N(r.var);
    const std::string total = r.kind == RK::kSum       ? "rs_init_" + v + " + rs_sh_" + v + "[0]"
                              : r.kind == RK::kProduct ? "rs_init_" + v + " * rs_sh_" + v + "[0]"
                                                       : "rs_sh_" + v + "[0]";
    k2 += "    *rs_out_" + v + " = " + total + ";\n";
    if (r.index >= 0) k2 += "    *rs_out_" + N(r.index) + " = rs_sh_" + N(r.index) + "[0];\n";
  }
  k2 += "  }\n}\n\n";
  *kernels += k1 + k2;
  ReduceHost(p, name, vars, a1, a2, host);
}

// Host: launch both, read the results back into the function's own variables.
void Writer::ReduceHost(const Phase& p, const std::string& name, const std::vector<int>& vars,
                        const std::vector<std::string>& a1, const std::vector<std::string>& a2,
                        std::string* host) const {
  const ParallelLoop& l = p.loops[0];
  std::string h =
      "  {  // " + p.note + "\n    const long long rs_c = " + Count(l) + ";\n    if (rs_c > 0) {\n";
  h += "      const int rs_blocks = (int)(rs_c > " + std::to_string(kThreads) +
       "LL * 1024 ? 1024 : (rs_c + " + std::to_string(kThreads - 1) + ") / " +
       std::to_string(kThreads) + ");\n";
  for (int v : vars) {
    const std::string t = D(v).type.canonical;
    h += "      " + t + "* rs_part_" + N(v) + " = nullptr;\n      cudaMalloc((void**)&rs_part_" +
         N(v) + ", sizeof(" + t + ") * rs_blocks);\n";
    h += "      " + t + "* rs_out_" + N(v) + " = nullptr;\n      cudaMalloc((void**)&rs_out_" +
         N(v) + ", sizeof(" + t + "));\n";
  }
  h += "      " + name + "<<<rs_blocks, " + std::to_string(kThreads) + ">>>(" + Join(a1, ", ") +
       ");\n";
  h += "      " + name + "_final<<<1, " + std::to_string(kThreads) + ">>>(" + Join(a2, ", ") +
       ");\n";
  for (int v : vars) {
    const std::string t = D(v).type.canonical;
    h += "      " + t + " rs_r_" + N(v) + ";\n      cudaMemcpy(&rs_r_" + N(v) + ", rs_out_" + N(v) +
         ", sizeof(" + t + "), cudaMemcpyDeviceToHost);\n      " + N(v) + " = rs_r_" + N(v) + ";\n";
    h += "      cudaFree(rs_part_" + N(v) + ");\n      cudaFree(rs_out_" + N(v) + ");\n";
  }
  *host += h + "    }\n  }\n";
}

std::string Writer::Cleanup() const {
  std::string out;
  for (int d : allocated_) {
    if (D(d).kind == Decl::Kind::kParam && written_.count(d)) {
      out += "  if (rs_n_" + N(d) + ") cudaMemcpy(" + HostPtr(d) + ", rs_d_" + N(d) + ", rs_n_" +
             N(d) + " * sizeof(" + Elem(d) + "), cudaMemcpyDeviceToHost);\n";
    }
  }
  for (int d : allocated_) out += "  cudaFree(rs_d_" + N(d) + ");\n";
  return out;
}

Generated Writer::Run() {
  Generated g;
  std::string kernels, body;
  const auto& stmts = f_.body.kids;
  body +=
      ast_.source.substr(f_.body_begin + 1, stmts.empty() ? 0 : stmts[0].begin - f_.body_begin - 1);
  const size_t close = f_.end - 1;  // the body's '}'
  for (size_t i = 0; i < plan_.phases.size(); ++i) {
    const Phase& p = plan_.phases[i];
    const size_t end = i + 1 < stmts.size() ? stmts[i + 1].begin : close;
    if (p.kind == Phase::Kind::kHost) {
      const bool last_return = i + 1 == stmts.size() && p.stmt->kind == Node::Kind::kReturn;
      if (last_return) {
        while (!body.empty() && body.back() == ' ') body.pop_back();
        body += Cleanup();
      }
      body += (last_return ? "  " : "") + ast_.source.substr(p.stmt->begin, end - p.stmt->begin);
      if (last_return) cleaned_ = true;
      continue;
    }
    while (!body.empty() && body.back() == ' ')
      body.pop_back();  // the generated lines bring their own
    if (!Allocate(p, &body)) {
      g.refusal = refusal_;
      return g;
    }
    for (int a : p.arrays_written) written_.insert(a);
    if (p.kind == Phase::Kind::kMap) {
      Map(p, static_cast<int>(i), &kernels, &body);
    } else {
      Reduce(p, static_cast<int>(i), &kernels, &body);
    }
    body += "  ";
  }
  if (!cleaned_) body += "\n" + Cleanup();
  std::string helpers;
  if (kernels.find("rs_min(") != std::string::npos ||
      kernels.find("rs_max(") != std::string::npos) {
    helpers =
        "template <class T> __host__ __device__ inline const T& rs_min(const T& a, const T& b) { "
        "return b < a ? b : a; }\n"
        "template <class T> __host__ __device__ inline const T& rs_max(const T& a, const T& b) { "
        "return a < b ? b : a; }\n";
  }
  std::string notes;
  for (const Phase& p : plan_.phases) {
    if (p.kind != Phase::Kind::kHost) notes += "//   " + p.note + "\n";
  }
  g.code = "#include <cuda_runtime.h>\n" + Prefix() + "// The first parallel version of `" + Fn() +
           "`, written by regrapht's rules (no model):\n" + notes + helpers + Tables() + "\n" +
           kernels + ast_.source.substr(f_.begin, f_.body_begin - f_.begin) + "{" + body + "}" +
           ast_.source.substr(f_.end);
  return g;
}

}  // namespace

Generated Generate(const FileAst& ast, const FunctionDef& f, const Plan& plan,
                   const ArrayLengths& lengths) {
  return Writer(ast, f, plan, lengths).Run();
}

}  // namespace regrapht::seed
