#include "verify/build/kernel_form.h"

#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

#include "core/scanner.h"
#include "core/strings.h"
#include "verify/build/driver_gen.h"
#include "verify/spec/expr.h"
#include "verify/build/static_check.h"

namespace regrapht::verify {
namespace {

bool IsBoolVector(const ArgSpec& a) {
  return a.pass == ArgPass::kVector && a.type.scalar && *a.type.scalar == ScalarType::kBool;
}

// The element as the kernel sees it.
std::string KernelElem(const ProblemSpec& spec, const ElementType& t) {
  if (t.is_struct()) return spec.structs[t.struct_index].name;
  switch (*t.scalar) {
    case ScalarType::kComplexFloat: return "cuFloatComplex";
    case ScalarType::kComplexDouble: return "cuDoubleComplex";
    case ScalarType::kString: return "const char*";
    default: return std::string(ScalarTypeCpp(*t.scalar));
  }
}

// The element as the driver stores it (structs live in namespace rgs here:
// the global names belong to the kernel's view of them).
std::string HostElem(const ProblemSpec& spec, const ElementType& t) {
  if (t.is_struct()) return "rgs::" + spec.structs[t.struct_index].name;
  return std::string(ScalarTypeCpp(*t.scalar));
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// C++ for one element of kernel type `k` holding `v`.
std::string ScalarValue(ScalarType t, const std::string& k, double v) {
  if (t == ScalarType::kComplexDouble) return "make_cuDoubleComplex(" + Number(v) + ", 0)";
  if (t == ScalarType::kComplexFloat) return "make_cuFloatComplex(" + Number(v) + "f, 0)";
  if (t == ScalarType::kBool) return v != 0 ? "true" : "false";
  if (IsFloating(t)) return "static_cast<" + k + ">(" + Number(v) + ")";
  // Integers: the extremes of the type by name (JSON numbers are doubles).
  double hi = 0, lo = 0;
  switch (t) {
    case ScalarType::kInt8: case ScalarType::kChar: hi = 127; lo = -128; break;
    case ScalarType::kInt16: hi = 32767; lo = -32768; break;
    case ScalarType::kInt32: hi = 2147483647.0; lo = -2147483648.0; break;
    case ScalarType::kUInt8: hi = 255; break;
    case ScalarType::kUInt32: hi = 4294967295.0; break;
    case ScalarType::kInt64: hi = 9223372036854775807.0; lo = -hi; break;
    default: hi = 18446744073709551615.0; break;  // uint64, size_t
  }
  if (v >= hi) return "std::numeric_limits<" + k + ">::max()";
  if (v <= lo) return "std::numeric_limits<" + k + ">::lowest()";
  char buf[64];
  std::snprintf(buf, sizeof buf, "static_cast<%s>(%lldLL)", k.c_str(), static_cast<long long>(std::llround(v)));
  return buf;
}

// Statements declaring `K name` set to the spec's init value.
std::string InitDecl(const ProblemSpec& spec, const ElementType& t, const std::map<std::string, double>& init,
                     const std::string& name) {
  std::string k = KernelElem(spec, t);
  if (!t.is_struct()) return k + " " + name + " = " + ScalarValue(*t.scalar, k, init.at("")) + ";";
  std::string s = k + " " + name + "{};";
  for (const auto& f : spec.structs[t.struct_index].fields) {
    s += " " + name + "." + f.name + " = " +
         ScalarValue(f.type, std::string(ScalarTypeCpp(f.type)), init.count(f.name) ? init.at(f.name) : 0) + ";";
  }
  return s;
}

std::string SizeCpp(const std::string& text) {
  auto e = Expr::Parse(text);
  return "static_cast<int64_t>(" + (e.ok() ? e->ToCpp("v_") : "0") + ")";
}

// The C++ type of one kernel parameter.
std::string ParamType(const ProblemSpec& spec, const KernelParam& q) {
  switch (q.kind) {
    case KernelParam::Kind::kSize:
    case KernelParam::Kind::kLength: return std::string(ScalarTypeCpp(q.type.value_or(ScalarType::kSizeT)));
    case KernelParam::Kind::kReturn: return KernelElem(spec, *spec.returns) + "*";
    case KernelParam::Kind::kBind: break;
  }
  const ArgSpec& a = *spec.FindArg(q.bind);
  if (a.pass == ArgPass::kReference) return KernelElem(spec, a.type) + "*";
  if (!a.is_array()) {
    if (q.type) return std::string(ScalarTypeCpp(*q.type));
    return KernelElem(spec, a.type);
  }
  if (a.type.scalar && *a.type.scalar == ScalarType::kString) return "const char**";
  bool in = a.role == ArgRole::kInput;
  return (in ? "const " : "") + KernelElem(spec, a.type) + "*";
}

struct Out {
  std::ostringstream os;
  template <class T>
  Out& operator<<(const T& x) {
    os << x;
    return *this;
  }
};

// Copies an input or in-out array to the device as `d_NAME`.
void EmitCopyIn(const ProblemSpec& spec, const ArgSpec& a, Out& o) {
  std::string k = KernelElem(spec, a.type), n = a.name;
  if (IsBoolVector(a)) {
    o << "  std::vector<uint8_t> t_" << n << "(h_" << n << ".begin(), h_" << n << ".end());\n"
      << "  bool* d_" << n << " = rg::DevCopy(reinterpret_cast<const bool*>(t_" << n << ".data()), t_" << n
      << ".size());\n";
    return;
  }
  if (!spec.HoldsStrings(a.type)) {
    o << "  " << k << "* d_" << n << " = rg::DevCopy(reinterpret_cast<const " << k << "*>(h_" << n << ".data()), h_"
      << n << ".size());\n";
    return;
  }
  // Strings: one device buffer of all characters (each NUL-terminated); the
  // kernel gets device pointers into it.
  std::vector<std::string> fields;
  if (a.type.is_struct()) {
    for (const auto& f : spec.structs[a.type.struct_index].fields) {
      if (f.type == ScalarType::kString) fields.push_back("." + f.name);
    }
  } else {
    fields.push_back("");
  }
  o << "  rg::Chars c_" << n << ";\n  for (const auto& e : h_" << n << ") {";
  for (const auto& f : fields) o << " c_" << n << ".Add(e" << f << ");";
  o << " }\n  c_" << n << ".Upload();\n";
  o << "  std::vector<" << k << "> k_" << n << "(h_" << n << ".size());\n  for (size_t i = 0, s = 0; i < h_" << n
    << ".size(); ++i) {";
  if (a.type.is_struct()) {
    for (const auto& f : spec.structs[a.type.struct_index].fields) {
      if (f.type == ScalarType::kString) {
        o << " k_" << n << "[i]." << f.name << " = c_" << n << ".At(s++);";
      } else {
        o << " k_" << n << "[i]." << f.name << " = h_" << n << "[i]." << f.name << ";";
      }
    }
  } else {
    o << " k_" << n << "[i] = c_" << n << ".At(s++);";
  }
  o << " }\n  " << k << "* d_" << n << " = rg::DevCopy(k_" << n << ".data(), k_" << n << ".size());\n";
}

// Allocates the device buffer of an output array (or a compacted one).
void EmitOutputBuffer(const ProblemSpec& spec, const ArgSpec& a, const KernelParam& q, Out& o) {
  std::string k = KernelElem(spec, a.type), n = a.name;
  std::string count = q.compact ? SizeCpp(q.capacity) : "h_" + n + ".size()";
  o << "  size_t n_" << n << " = static_cast<size_t>(" << count << ");\n";
  if (q.init) {
    o << "  " << InitDecl(spec, a.type, *q.init, "i_" + n) << "\n"
      << "  " << k << "* d_" << n << " = rg::DevAlloc<" << k << ">(n_" << n << ");\n"
      << "  if (n_" << n << ") rg_fill_" << n << "<<<rg::FillBlocks(n_" << n << "), 256>>>(d_" << n << ", n_" << n
      << ", i_" << n << ");\n";
  } else {
    o << "  " << k << "* d_" << n << " = rg::DevZero<" << k << ">(n_" << n << ");\n";
  }
}

// Copies an output or in-out array back into the driver's storage.
void EmitCopyBack(const ProblemSpec& spec, const ArgSpec& a, const KernelParam& q, Out& o) {
  std::string k = KernelElem(spec, a.type), n = a.name;
  if (q.compact) {
    o << "  { std::vector<" << k << "> t(n_" << n << "); rg::DevGet(t.data(), d_" << n << ", t.size()); h_" << n
      << ".clear();\n    for (const auto& e : t) if (std::memcmp(&e, &i_" << n << ", sizeof e) != 0) h_" << n
      << ".push_back(reinterpret_cast<const " << HostElem(spec, a.type) << "&>(e)); }\n";
  } else if (IsBoolVector(a)) {
    o << "  { std::vector<uint8_t> t(h_" << n << ".size()); rg::DevGet(reinterpret_cast<bool*>(t.data()), "
      << "d_" << n << ", t.size());\n    for (size_t i = 0; i < t.size(); ++i) h_"
      << n << "[i] = t[i] != 0; }\n";
  } else {
    o << "  rg::DevGet(reinterpret_cast<" << k << "*>(h_" << n << ".data()), d_" << n << ", h_" << n << ".size());\n";
  }
}

// Initial values are written by the device (a fill kernel per buffer, run
// before the timed launch), so that an answer equal to its initial value is
// still device-produced for the emulator's provenance check.
std::string FillKernels(const ProblemSpec& spec) {
  std::ostringstream os;
  os << "namespace {\n";
  for (const auto& q : spec.kernel->params) {
    if (!q.init) continue;
    const ElementType& t = q.kind == KernelParam::Kind::kReturn ? *spec.returns : spec.FindArg(q.bind)->type;
    std::string k = KernelElem(spec, t), n = q.kind == KernelParam::Kind::kReturn ? "return" : q.bind;
    os << "__global__ void rg_fill_" << n << "(" << k << "* p, size_t n, " << k << " v) {\n"
       << "  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) "
          "p[i] = v;\n}\n";
  }
  os << "}  // namespace\n\n";
  return os.str();
}

const char kRuntime[] = R"(namespace rg {
template <class T>
T* DevAlloc(size_t n) {
  void* d = nullptr;
  cudaMalloc(&d, n ? n * sizeof(T) : 1);
  return static_cast<T*>(d);
}
template <class T>
T* DevCopy(const T* host, size_t n) {
  T* d = DevAlloc<T>(n);
  if (n) cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <class T>
T* DevZero(size_t n) {
  T* d = DevAlloc<T>(n);
  if (n) cudaMemset(d, 0, n * sizeof(T));
  return d;
}
inline unsigned FillBlocks(size_t n) { return static_cast<unsigned>(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096); }
template <class T>
void DevGet(T* host, const T* dev, size_t n) {
  if (n) cudaMemcpy(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost);
}
// Strings gathered into one device buffer.
struct Chars {
  std::vector<char> host;
  std::vector<size_t> offsets;
  char* dev = nullptr;
  void Add(const std::string& s) {
    offsets.push_back(host.size());
    host.insert(host.end(), s.begin(), s.end());
    host.push_back('\0');
  }
  void Upload() { dev = DevCopy(host.data(), host.size()); }
  const char* At(size_t i) const { return dev + offsets[i]; }
  ~Chars() { cudaFree(dev); }
};
}  // namespace rg
)";

// The adapter's references to the driver's storage of every bound argument
// (h_<name>) and the element counts (v_<name>) launch and size expressions
// may name.
void EmitAdapterHostViews(const ProblemSpec& spec, Out& o) {
  const KernelSpec& k = *spec.kernel;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const auto& a = spec.args[i];
    if (a.is_array()) {
      o << "  auto& h_" << a.name << " = *static_cast<" << SlotStorageType(spec, a, "rgs::") << "*>(args[" << i << "]);\n";
    } else if (a.pass == ArgPass::kReference || a.role == ArgRole::kScalar) {
      o << "  auto& h_" << a.name << " = *static_cast<" << HostElem(spec, a.type) << "*>(args[" << i << "]);\n";
    }
  }
  for (const auto& q : k.params) {
    if (q.kind == KernelParam::Kind::kLength) {
      o << "  const int64_t v_" << q.name << " = static_cast<int64_t>(h_" << q.length_of << ".size());\n";
    }
  }
}

// Device buffers and the kernel's arguments, in its parameter order: the
// argument expressions go to `call`, the buffers to free after to `frees`.
void EmitAdapterArgs(const ProblemSpec& spec, Out& o, std::vector<std::string>* call,
                     std::vector<std::string>* frees) {
  const KernelSpec& k = *spec.kernel;
  for (const auto& q : k.params) {
    std::string pt = ParamType(spec, q);
    if (q.kind == KernelParam::Kind::kSize) {
      call->push_back("static_cast<" + pt + ">(" + SizeCpp(q.size) + ")");
      continue;
    }
    if (q.kind == KernelParam::Kind::kLength) {
      call->push_back("static_cast<" + pt + ">(v_" + q.name + ")");
      continue;
    }
    if (q.kind == KernelParam::Kind::kReturn) {
      std::string ke = KernelElem(spec, *spec.returns);
      o << "  " << InitDecl(spec, *spec.returns, *q.init, "i_return") << "\n"
        << "  " << ke << "* d_return = rg::DevAlloc<" << ke << ">(1);\n"
        << "  rg_fill_return<<<1, 1>>>(d_return, 1, i_return);\n";
      call->push_back("d_return");
      frees->push_back("d_return");
      continue;
    }
    const ArgSpec& a = *spec.FindArg(q.bind);
    if (a.role == ArgRole::kSize) {
      call->push_back("static_cast<" + pt + ">(v_" + a.name + ")");
    } else if (a.role == ArgRole::kScalar) {
      ScalarType t = *a.type.scalar;
      if (t == ScalarType::kComplexDouble) call->push_back("make_cuDoubleComplex(h_" + a.name + ".real(), h_" + a.name + ".imag())");
      else if (t == ScalarType::kComplexFloat) call->push_back("make_cuFloatComplex(h_" + a.name + ".real(), h_" + a.name + ".imag())");
      else call->push_back("static_cast<" + pt + ">(h_" + a.name + ")");
    } else if (a.pass == ArgPass::kReference) {
      std::string ke = KernelElem(spec, a.type);
      if (a.role == ArgRole::kInOut) {
        o << "  " << ke << "* d_" << a.name << " = rg::DevCopy(reinterpret_cast<const " << ke << "*>(&h_" << a.name << "), 1);\n";
      } else if (q.init) {
        o << "  " << InitDecl(spec, a.type, *q.init, "i_" + a.name) << "\n  " << ke << "* d_" << a.name
          << " = rg::DevAlloc<" << ke << ">(1);\n  rg_fill_" << a.name << "<<<1, 1>>>(d_" << a.name << ", 1, i_"
          << a.name << ");\n";
      } else {
        o << "  " << ke << "* d_" << a.name << " = rg::DevZero<" << ke << ">(1);\n";
      }
      call->push_back("d_" + a.name);
      frees->push_back("d_" + a.name);
    } else if (a.role == ArgRole::kOutput) {
      EmitOutputBuffer(spec, a, q, o);
      call->push_back("d_" + a.name);
      frees->push_back("d_" + a.name);
    } else {
      EmitCopyIn(spec, a, o);
      call->push_back("d_" + a.name);
      frees->push_back("d_" + a.name);
    }
  }
}

// The launch with the launch contract's grid, timed with CUDA events.
void EmitAdapterLaunch(const ProblemSpec& spec, const std::vector<std::string>& call, Out& o) {
  const KernelSpec& k = *spec.kernel;
  if (k.two_d()) {
    o << "  const int64_t gx = " << SizeCpp(k.grid_x) << ", gy = " << SizeCpp(k.grid_y) << ";\n"
      << "  dim3 block(32, 32);\n"
      << "  dim3 grid(static_cast<unsigned>(gx > 0 ? (gx + 31) / 32 : 1), static_cast<unsigned>(gy > 0 ? (gy + 31) / 32 : 1));\n";
  } else {
    o << "  const int64_t threads = " << SizeCpp(k.threads) << ";\n"
      << "  dim3 block(1024);\n"
      << "  dim3 grid(static_cast<unsigned>(threads > 0 ? (threads + 1023) / 1024 : 1));\n";
  }
  o << "  cudaEvent_t e0, e1;\n  cudaEventCreate(&e0);\n  cudaEventCreate(&e1);\n  cudaEventRecord(e0);\n"
    << "  " << k.function << "<<<grid, block>>>(" << Join(call, ", ") << ");\n"
    << "  cudaEventRecord(e1);\n  cudaEventSynchronize(e1);\n  float ms = 0;\n"
    << "  if (cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess && regrapht_driver_kernel_ms) regrapht_driver_kernel_ms(ms);\n"
    << "  cudaEventDestroy(e0);\n  cudaEventDestroy(e1);\n";
}

// Copies the checked outputs and the return value back to the driver's storage.
void EmitAdapterCopyBack(const ProblemSpec& spec, Out& o) {
  const KernelSpec& k = *spec.kernel;
  for (const auto& q : k.params) {
    if (q.kind == KernelParam::Kind::kReturn) {
      o << "  rg::DevGet(reinterpret_cast<" << KernelElem(spec, *spec.returns) << "*>(ret), d_return, 1);\n";
      continue;
    }
    if (q.kind != KernelParam::Kind::kBind) continue;
    const ArgSpec& a = *spec.FindArg(q.bind);
    if (a.pass == ArgPass::kReference && a.is_checked()) {
      o << "  rg::DevGet(reinterpret_cast<" << KernelElem(spec, a.type) << "*>(&h_" << a.name << "), d_" << a.name << ", 1);\n";
    } else if (a.is_array() && a.is_checked()) {
      EmitCopyBack(spec, a, q, o);
    }
  }
}

}  // namespace

std::string KernelSignature(const ProblemSpec& spec) {
  const KernelSpec& k = *spec.kernel;
  std::string s = "__global__ void " + k.function + "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (i) s += ", ";
    s += ParamType(spec, k.params[i]) + " " + k.params[i].name;
  }
  return s + ")";
}

Result<std::string> GenerateKernelAdapter(const ProblemSpec& spec) {
  if (!spec.kernel) return Status::InvalidArgument(spec.name + ": the problem has no kernel form");
  Out o;
  o << "// Generated by regrapht: the kernel form's host adapter for problem " << spec.name << ". Do not edit.\n"
    << "#include <cuda_runtime.h>\n#include <cuComplex.h>\n#include <array>\n#include <complex>\n"
    << "#include <cstdint>\n#include <cstring>\n#include <limits>\n#include <string>\n#include <vector>\n\n"
    << "namespace rgs {\n" << StructsCpp(spec, false) << "}  // namespace rgs\n\n"
    << StructsCpp(spec, true) << "\n" << KernelSignature(spec) << ";\n\n"
    << "extern \"C\" void regrapht_driver_kernel_ms(double ms) __attribute__((weak));\n\n" << kRuntime << "\n"
    << FillKernels(spec) << "extern \"C\" void regrapht_kernel_form_call(void* const* args, const int64_t* sizes, void* ret) {\n"
    << "  (void)args; (void)sizes; (void)ret;\n";
  auto vars = SizeVarNames(spec);
  for (size_t i = 0; i < vars.size(); ++i) o << "  const int64_t v_" << vars[i] << " = sizes[" << i << "]; (void)v_" << vars[i] << ";\n";
  EmitAdapterHostViews(spec, o);
  std::vector<std::string> call, frees;
  EmitAdapterArgs(spec, o, &call, &frees);
  EmitAdapterLaunch(spec, call, o);
  EmitAdapterCopyBack(spec, o);
  for (const auto& f : frees) o << "  cudaFree(" << f << ");\n";
  o << "}\n";
  return o.os.str();
}

std::string LaunchContract(const ProblemSpec& spec) {
  const KernelSpec& k = *spec.kernel;
  std::string s = k.two_d() ? "The kernel is launched once on a 2-D grid of 32x32-thread blocks covering at least " +
                                  k.grid_x + " threads in x by " + k.grid_y + " in y."
                            : "The kernel is launched once with 1-D blocks of 1024 threads, at least " + k.threads +
                                  " threads in all.";
  for (const auto& q : k.params) {
    if (!q.init) continue;
    std::string v;
    for (const auto& [field, x] : *q.init) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", x);
      v += (v.empty() ? "" : ", ") + (field.empty() ? "" : field + " = ") + buf;
    }
    const bool scalar = q.kind == KernelParam::Kind::kReturn;
    s += scalar ? " On entry *" + q.name + " holds " + v + "."
                : " On entry every element of " + q.name + " holds " + v + ".";
    if (q.compact) s += " Entries left at that value are not part of the result.";
  }
  bool zero_outputs = false;
  for (const auto& q : k.params) {
    if (q.kind != KernelParam::Kind::kBind || q.init) continue;
    const ArgSpec* a = spec.FindArg(q.bind);
    zero_outputs = zero_outputs || (a && a->is_array() && a->role == ArgRole::kOutput);
  }
  if (zero_outputs) s += " Other output arrays are zero on entry.";
  return s;
}

std::string KernelFormCandidateSource(const ProblemSpec& spec, const std::string& source) {
  std::string code = scan::BlankCommentsAndLiterals(source);
  std::string prelude = "#include <cuda_runtime.h>\n#include <cuComplex.h>\n";
  for (const auto& st : spec.structs) {
    std::regex defined("\\bstruct\\s+" + st.name + "\\s*\\{");
    if (std::regex_search(code, defined)) continue;
    ProblemSpec one;
    one.structs = {st};
    prelude += StructsCpp(one, true);
  }
  return prelude + "#line 1 \"candidate.cu\"\n" + source;
}

}  // namespace regrapht::verify
