#include "verify/driver_gen.h"

#include <cstdio>
#include <sstream>

#include "core/strings.h"
#include "verify/expr.h"

namespace regrapht::verify {

extern const char kDriverRuntimeHeader[];  // generated from driver/rg_driver.h

std::string_view DriverRuntimeHeader() { return kDriverRuntimeHeader; }

namespace {

// C++ for a number-or-expression field, as a double.
std::string NumCpp(const std::string& text) {
  if (auto d = ParseDouble(text)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return buf;
  }
  auto e = Expr::Parse(text);
  return "static_cast<double>(" + (e.ok() ? e->ToCpp("d->v_") : "0") + ")";
}

std::string DistCppBase(const Distribution& dist);

// The distribution as an rg::Dist initializer, special values included.
std::string DistCpp(const Distribution& dist) {
  std::string base = DistCppBase(dist);
  if (dist.special_p <= 0 || dist.special_values.empty()) return base;
  std::string s = base.substr(0, base.size() - 1);  // drop the closing brace
  if (dist.kind != Distribution::Kind::kString) s += ", \"\"";
  char buf[64];
  std::snprintf(buf, sizeof buf, ", %.17g, %zu, {", dist.special_p, dist.special_values.size());
  s += buf;
  for (size_t i = 0; i < dist.special_values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.17g", i ? ", " : "", dist.special_values[i]);
    s += buf;
  }
  return s + "}}";
}

std::string DistCppBase(const Distribution& dist) {
  switch (dist.kind) {
    case Distribution::Kind::kNormal: {
      char buf[128];
      std::snprintf(buf, sizeof buf, "rg::Dist{1, %.17g, %.17g}", dist.mean, dist.stddev);
      return buf;
    }
    case Distribution::Kind::kConstant: {
      char buf[96];
      std::snprintf(buf, sizeof buf, "rg::Dist{2, %.17g, 0}", dist.value);
      return buf;
    }
    case Distribution::Kind::kBernoulli: {
      char buf[96];
      std::snprintf(buf, sizeof buf, "rg::Dist{3, %.17g, 0}", dist.p);
      return buf;
    }
    case Distribution::Kind::kString:
      return "rg::Dist{4, " + std::to_string(dist.min_len) + ", " + std::to_string(dist.max_len) + ", " +
             CppStringLiteral(dist.alphabet) + "}";
    default:
      return "rg::Dist{0, " + NumCpp(dist.min) + ", " + NumCpp(dist.max) + "}";
  }
}

bool BoolPointer(const ArgSpec& a) {
  return a.pass == ArgPass::kPointer && a.type.scalar && *a.type.scalar == ScalarType::kBool;
}

// Storage type of an array argument in Data and Slot.
std::string StoreType(const ProblemSpec& spec, const ArgSpec& a) { return SlotStorageType(spec, a, ""); }

// Where the call receives an argument: std::array<T, K>& views the slot's vector.
std::string ArrayRef(const ProblemSpec& spec, const ArgSpec& a, const std::string& slot) {
  return "*reinterpret_cast<" + std::string(a.is_const ? "const " : "") + "std::array<" +
         spec.ElementCpp(a.type) + ", " + a.length + ">*>(" + slot + ".data())";
}

struct Emitter {
  std::ostringstream os;
  template <class T>
  Emitter& operator<<(const T& x) {
    os << x;
    return *this;
  }
};

// The driver's Call(): the function under test on the slot's arguments.
void EmitCall(const ProblemSpec& spec, std::ostream* out) {
  std::ostream& e = *out;
  e << "void Call(const Data& d, Slot* s) {\n  (void)d; (void)s;\n  ";
  if (spec.returns) e << "s->ret = ";
  e << spec.function << "(";
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const auto& a = spec.args[i];
    if (i) e << ", ";
    switch (a.pass) {
      case ArgPass::kValue:
        if (a.role == ArgRole::kSize) e << "static_cast<" << spec.ElementCpp(a.type) << ">(d.v_" << a.name << ")";
        else e << "d.s_" << a.name;
        break;
      case ArgPass::kPointer:
        if (BoolPointer(a)) {
          e << "reinterpret_cast<" << (a.is_const ? "const bool*" : "bool*") << ">(s->a_" << a.name << ".data())";
        } else {
          e << "s->a_" << a.name << ".data()";
        }
        break;
      case ArgPass::kVector: e << "s->a_" << a.name; break;
      case ArgPass::kReference: e << "s->r_" << a.name; break;
      case ArgPass::kArray: e << ArrayRef(spec, a, "s->a_" + a.name); break;
    }
  }
  e << ");\n}\n\n";

}

// The kernel form's Call(): the adapter gets a pointer to every argument's
// storage (arrays: the slot's std::vector; scalars: the value; sizes:
// nullptr, they come in `sizes`), the size variables and the return slot.
void EmitKernelFormCall(const ProblemSpec& spec, std::ostream* out) {
  std::ostream& e = *out;
  e << "void Call(const Data& d, Slot* s) {\n  (void)d; (void)s;\n  const int64_t sizes[] = {";
  auto vars = SizeVarNames(spec);
  for (size_t i = 0; i < vars.size(); ++i) e << (i ? ", " : "") << "d.v_" << vars[i];
  if (vars.empty()) e << "0";
  e << "};\n  void* const args[] = {";
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const auto& a = spec.args[i];
    if (i) e << ", ";
    if (a.is_array()) e << "static_cast<void*>(&s->a_" << a.name << ")";
    else if (a.pass == ArgPass::kReference) e << "static_cast<void*>(&s->r_" << a.name << ")";
    else if (a.role == ArgRole::kScalar) e << "const_cast<void*>(static_cast<const void*>(&d.s_" << a.name << "))";
    else e << "nullptr";
  }
  if (spec.args.empty()) e << "nullptr";
  e << "};\n  regrapht_kernel_form_call(args, sizes, " << (spec.returns ? "&s->ret" : "nullptr") << ");\n}\n\n";
}

}  // namespace

std::string CppStringLiteral(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 32 || u > 126) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string StructsCpp(const ProblemSpec& spec, bool kernel_world) {
  std::ostringstream os;
  for (const auto& st : spec.structs) {
    bool strings = false;
    os << "struct " << st.name << " {\n";
    for (const auto& f : st.fields) {
      bool str = f.type == ScalarType::kString;
      strings = strings || str;
      os << "  " << (str && kernel_world ? "const char*" : std::string(ScalarTypeCpp(f.type))) << " " << f.name
         << ";\n";
    }
    os << "};\n";
    if (strings && !kernel_world) {
      os << "inline bool operator==(const " << st.name << "& a, const " << st.name << "& b) {\n  return true";
      for (const auto& f : st.fields) os << " && a." << f.name << " == b." << f.name;
      os << ";\n}\n";
    }
  }
  return os.str();
}

std::string SlotStorageType(const ProblemSpec& spec, const ArgSpec& a, std::string_view struct_prefix) {
  if (BoolPointer(a)) return "std::vector<uint8_t>";
  std::string el = spec.ElementCpp(a.type);
  if (a.type.is_struct()) el = std::string(struct_prefix) + el;
  return "std::vector<" + el + ">";
}

std::vector<std::string> SizeVarNames(const ProblemSpec& spec) {
  std::vector<std::string> out(spec.extra_sizes.begin(), spec.extra_sizes.end());
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kSize) out.push_back(a.name);
  }
  return out;
}

uint64_t TimingSeedB(const ProblemSpec& spec) {
  return spec.timing.seed * 2654435761ULL + 0x7f4a7c15ULL;
}

Result<std::string> GenerateDriver(const ProblemSpec& spec, bool kernel_form) {
  Emitter e;
  e << "// Generated by regrapht for problem " << spec.name << ". Do not edit.\n"
    << "// Signature under test: " << spec.Signature() << "\n"
    << "#include \"rg_driver.h\"\n\n";
  e << StructsCpp(spec, false);
  if (spec.kernel && kernel_form) {
    e << "extern \"C\" void regrapht_kernel_form_call(void* const* args, const int64_t* sizes, void* ret);\n\n"
      << "namespace {\n\n";
  } else {
    e << spec.Signature() << ";\n\nnamespace {\n\n";
  }

  // Data: one test case's pristine arguments.
  e << "struct Data {\n";
  for (const auto& sp : spec.sparse) e << "  rg::Sparse sp_" << sp.name << ";\n";
  for (const auto& x : spec.extra_sizes) e << "  int64_t v_" << x << " = 0;\n";
  for (const auto& a : spec.args) {
    switch (a.role) {
      case ArgRole::kSize: e << "  int64_t v_" << a.name << " = 0;\n"; break;
      case ArgRole::kScalar: e << "  " << spec.ElementCpp(a.type) << " s_" << a.name << "{};\n"; break;
      default:
        if (a.is_array()) {
          if (a.role == ArgRole::kOutput) {
            e << "  int64_t n_" << a.name << " = 0;\n";
          } else {
            e << "  " << StoreType(spec, a) << " a_" << a.name << ";\n";
          }
        } else {  // reference
          e << "  " << spec.ElementCpp(a.type) << " r_" << a.name << "{};\n";
        }
    }
  }
  e << "};\n\n";

  // Slot: the working copies one call receives.
  e << "struct Slot {\n";
  for (const auto& a : spec.args) {
    if (a.is_array()) e << "  " << StoreType(spec, a) << " a_" << a.name << ";\n";
    if (a.pass == ArgPass::kReference) e << "  " << spec.ElementCpp(a.type) << " r_" << a.name << "{};\n";
  }
  if (spec.returns) e << "  " << spec.ElementCpp(*spec.returns) << " ret{};\n";
  e << "};\n\n";

  // Generate.
  e << "void Generate(const rg::Case& c, Data* d) {\n";
  for (const auto& x : spec.extra_sizes) e << "  d->v_" << x << " = c.Size(\"" << x << "\");\n";
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kSize && a.from.empty()) {
      e << "  d->v_" << a.name << " = c.Size(\"" << a.name << "\");\n";
    }
  }
  for (size_t k = 0; k < spec.sparse.size(); ++k) {
    const auto& sp = spec.sparse[k];
    RG_ASSIGN_OR_RETURN(auto rows, Expr::Parse(sp.rows));
    RG_ASSIGN_OR_RETURN(auto cols, Expr::Parse(sp.cols));
    e << "  { rg::Rng r(rg::ArgSeed(c.seed, " << 1000 + k << ")); d->sp_" << sp.name
      << " = rg::MakeSparse(" << rows.ToCpp("d->v_") << ", " << cols.ToCpp("d->v_") << ", "
      << sp.nnz_per_row_min << ", " << sp.nnz_per_row_max << ", r, " << DistCpp(sp.values);
    if (sp.diagonal) e << ", true, " << DistCpp(*sp.diagonal);
    e << "); }\n";
  }
  auto sparse_part = [&](const ArgSpec& a, std::string* matrix, std::string* part) {
    auto parts = Split(a.from, '.');
    *matrix = "d->sp_" + parts[0];
    *part = parts[1];
  };
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kSize && !a.from.empty()) {
      std::string m, part;
      sparse_part(a, &m, &part);
      std::string v = part == "nnz" ? m + ".nnz()" : (part == "rows" ? m + ".rows" : m + ".cols");
      e << "  d->v_" << a.name << " = " << v << ";\n";
    }
  }
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const auto& a = spec.args[i];
    std::string rng = "rg::Rng r(rg::ArgSeed(c.seed, " + std::to_string(i) + "));";
    if (a.role == ArgRole::kScalar) {
      e << "  if (c.HasScalar(\"" << a.name << "\")) d->s_" << a.name << " = rg::FromDouble<"
        << spec.ElementCpp(a.type) << ">(c.Scalar(\"" << a.name << "\"));\n"
        << "  else { " << rng << " d->s_" << a.name << " = rg::DrawOne<" << spec.ElementCpp(a.type)
        << ">(r, " << DistCpp(a.values) << "); }\n";
      continue;
    }
    if (a.role == ArgRole::kSize) continue;
    if (a.pass == ArgPass::kReference) {
      if (a.role == ArgRole::kInOut) {
        e << "  { " << rng << " d->r_" << a.name << " = rg::DrawOne<" << spec.ElementCpp(a.type)
          << ">(r, " << DistCpp(a.values) << "); }\n";
      }
      continue;
    }
    std::string len;
    if (!a.length.empty()) {
      RG_ASSIGN_OR_RETURN(auto le, Expr::Parse(a.length));
      len = le.ToCpp("d->v_");
    }
    if (a.role == ArgRole::kOutput) {
      e << "  d->n_" << a.name << " = " << (len.empty() ? "0" : len) << ";\n";
      continue;
    }
    std::string dst = "d->a_" + a.name;
    if (!a.from.empty()) {
      std::string m, part;
      sparse_part(a, &m, &part);
      if (part == "row_ptr") e << "  rg::CopyConvert(" << dst << ", " << m << ".row_ptr);\n";
      else if (part == "col_idx" || part == "col") e << "  rg::CopyConvert(" << dst << ", " << m << ".col_idx);\n";
      else if (part == "row") e << "  rg::CopyConvert(" << dst << ", " << m << ".row_of);\n";
      else if (part == "values") e << "  rg::CopyConvert(" << dst << ", " << m << ".values);\n";
      else if (part == "entries") {
        const auto& st = spec.structs[a.type.struct_index];
        e << "  " << dst << ".resize(" << m << ".col_idx.size());\n"
          << "  for (size_t k = 0; k < " << dst << ".size(); ++k) { " << dst << "[k]."
          << st.fields[0].name << " = static_cast<" << ScalarTypeCpp(st.fields[0].type) << ">(" << m
          << ".row_of[k]); " << dst << "[k]." << st.fields[1].name << " = static_cast<"
          << ScalarTypeCpp(st.fields[1].type) << ">(" << m << ".col_idx[k]); " << dst << "[k]."
          << st.fields[2].name << " = static_cast<" << ScalarTypeCpp(st.fields[2].type) << ">(" << m
          << ".values[k]); }\n";
      }
      continue;
    }
    const auto& dist = a.values;
    switch (dist.kind) {
      case Distribution::Kind::kPermutation:
        e << "  { " << rng << " rg::FillPermutation(" << dst << ", " << len << ", r); }\n";
        break;
      case Distribution::Kind::kSorted:
        e << "  { " << rng << " rg::FillSorted(" << dst << ", " << len << ", r, " << DistCpp(dist) << "); }\n";
        break;
      case Distribution::Kind::kAdjacency: {
        RG_ASSIGN_OR_RETURN(auto ne, Expr::Parse(dist.n));
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", dist.p);
        e << "  { " << rng << " rg::FillAdjacency(" << dst << ", " << ne.ToCpp("d->v_") << ", r, " << buf
          << ", " << (dist.symmetric ? "true" : "false") << "); " << dst << ".resize(" << len << "); }\n";
        break;
      }
      case Distribution::Kind::kStruct: {
        e << "  { " << rng << " " << dst << ".resize(" << len << "); for (auto& el : " << dst << ") {";
        const auto& st = spec.structs[a.type.struct_index];
        for (size_t f = 0; f < st.fields.size(); ++f) {
          e << " el." << st.fields[f].name << " = rg::DrawOne<" << ScalarTypeCpp(st.fields[f].type)
            << ">(r, " << DistCpp(dist.fields[f].second) << ");";
        }
        e << " } }\n";
        break;
      }
      default:
        if (BoolPointer(a)) {
          e << "  { " << rng << " std::vector<bool> tmp; rg::Fill(tmp, " << len << ", r, "
            << DistCpp(dist) << "); rg::CopyConvert(" << dst << ", tmp); }\n";
        } else {
          e << "  { " << rng << " rg::Fill(" << dst << ", " << len << ", r, " << DistCpp(dist) << "); }\n";
        }
    }
    if (!a.diagonal_n.empty()) {
      RG_ASSIGN_OR_RETURN(auto dn, Expr::Parse(a.diagonal_n));
      e << "  { rg::Rng r(rg::ArgSeed(c.seed, " << 500 + i << ")); const int64_t dn = " << dn.ToCpp("d->v_")
        << "; for (int64_t k = 0; k < dn && k * dn + k < static_cast<int64_t>(" << dst << ".size()); ++k) " << dst
        << "[k * dn + k] = rg::DrawOne<" << spec.ElementCpp(a.type) << ">(r, " << DistCpp(a.diagonal_values)
        << "); }\n";
    }
  }
  e << "}\n\n";

  // Prepare.
  e << "void Prepare(const Data& d, Slot* s, int call) {\n  (void)d; (void)call;\n";
  for (const auto& a : spec.args) {
    if (a.is_array()) {
      if (a.role == ArgRole::kOutput) {
        if (a.resizable) e << "  s->a_" << a.name << ".clear();\n";
        else e << "  rg::PoisonAll(s->a_" << a.name << ", d.n_" << a.name << ", call);\n";
      } else {
        e << "  s->a_" << a.name << ".assign(d.a_" << a.name << ".begin(), d.a_" << a.name << ".end());\n";
      }
    } else if (a.pass == ArgPass::kReference) {
      if (a.role == ArgRole::kInOut) e << "  s->r_" << a.name << " = d.r_" << a.name << ";\n";
      else e << "  rg::PoisonOne(s->r_" << a.name << ", call);\n";
    }
  }
  if (spec.returns) e << "  rg::PoisonOne(s->ret, call);\n";
  e << "}\n\n";

  // Call.
  if (spec.kernel && kernel_form) {
    EmitKernelFormCall(spec, &e.os);
  } else {
    EmitCall(spec, &e.os);
  }

  // Emit.
  e << "void Emit(rg::Out& o, int c, int call, const Slot& s) {\n  (void)o; (void)c; (void)call; (void)s;\n";
  for (const auto& a : spec.args) {
    if (!a.is_checked()) continue;
    if (a.is_array()) e << "  o.Vec(c, call, \"" << a.name << "\", s.a_" << a.name << ");\n";
    else e << "  o.Scalar(c, call, \"" << a.name << "\", s.r_" << a.name << ");\n";
  }
  if (spec.returns) e << "  o.Scalar(c, call, \"return\", s.ret);\n";
  e << "}\n\n";

  // Mutated.
  e << "const char* Mutated(const Data& d, const Slot& s) {\n  (void)d; (void)s;\n";
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kInput && a.is_array()) {
      e << "  if (!rg::SameContents(d.a_" << a.name << ", s.a_" << a.name << ")) return \"" << a.name << "\";\n";
    }
  }
  e << "  return \"\";\n}\n\n";

  // Untouched: in-outs the call left as they came (the reference check).
  e << "const char* Untouched(const Data& d, const Slot& s) {\n  (void)d; (void)s;\n"
    << "  static std::string names;\n  names.clear();\n";
  for (const auto& a : spec.args) {
    if (a.role != ArgRole::kInOut) continue;
    if (a.is_array()) {
      e << "  if (rg::SameContents(d.a_" << a.name << ", s.a_" << a.name << ")) names += \" "
        << a.name << "\";\n";
    } else if (a.pass == ArgPass::kReference) {
      e << "  if (rg::SameValue(d.r_" << a.name << ", s.r_" << a.name << ")) names += \" " << a.name
        << "\";\n";
    }
  }
  e << "  return names.empty() ? \"\" : names.c_str() + 1;\n}\n\n";

  // HostOutput (emulated runs only: the checker answers FromDevice).
  e << "const char* HostOutput(const Data& d, const Slot& s, int call) {\n"
    << "  (void)d; (void)s; (void)call;\n  static std::string where;\n  size_t inputs = 0;\n";
  for (const auto& a : spec.args) {
    if (a.is_array() && a.role != ArgRole::kOutput) e << "  inputs += d.a_" << a.name << ".size();\n";
  }
  e << "  bool heavy = rg::HostDidTheWork(inputs);\n  (void)heavy;\n";
  for (const auto& a : spec.args) {
    if (!a.is_checked()) continue;
    if (a.is_array()) {
      bool fresh = a.role == ArgRole::kOutput && a.resizable;
      std::string pre = a.role == ArgRole::kInOut ? "&d.a_" + a.name : "static_cast<decltype(&d.a_" + a.name + ")>(nullptr)";
      if (a.role == ArgRole::kOutput) pre = "static_cast<decltype(&s.a_" + a.name + ")>(nullptr)";
      // An input of the same storage type: its words may pass through unchanged.
      std::string same;
      for (const auto& b : spec.args) {
        if (b.role == ArgRole::kInput && b.is_array() && StoreType(spec, b) == StoreType(spec, a)) {
          same += (same.empty() ? "" : ", ") + std::string("&d.a_") + b.name;
        }
      }
      if (!same.empty()) same = ", {" + same + "}";
      e << "  if (rg::HostValueIn(s.a_" << a.name << ", " << pre << ", call, " << (fresh ? "true" : "false")
        << ", heavy, \"" << a.name << "\", &where" << same << ")) return where.c_str();\n";
    } else {
      std::string pre = a.role == ArgRole::kInOut ? "&d.r_" + a.name : "static_cast<decltype(&s.r_" + a.name + ")>(nullptr)";
      e << "  if (rg::HostScalarIn(s.r_" << a.name << ", " << pre << ", call, heavy, \"" << a.name
        << "\", &where)) return where.c_str();\n";
    }
  }
  if (spec.returns) {
    e << "  if (rg::HostScalarIn(s.ret, static_cast<decltype(&s.ret)>(nullptr), call, heavy, \"return value\", &where)) "
         "return where.c_str();\n";
  }
  e << "  return \"\";\n}\n\n}  // namespace\n\n"
    << "int main(int argc, char** argv) {\n"
    << "  rg::Hooks<Data, Slot> h{&Generate, &Prepare, &Call, &Emit, &Mutated, &HostOutput, "
       "&Untouched};\n"
    << "  return rg::Main(argc, argv, h);\n}\n";
  return e.os.str();
}

std::string MakePlan(const ProblemSpec& spec, const PlanOptions& options) {
  std::ostringstream os;
  auto tail = [&](const TestCase& t) {
    os << " " << t.sizes.size();
    for (const auto& [k, v] : t.sizes) os << " " << k << " " << v;
    os << " " << t.scalars.size();
    for (const auto& [k, v] : t.scalars) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      os << " " << k << " " << buf;
    }
  };
  os << "regrapht-plan 1\nruns " << options.runs << "\n";
  for (size_t i = 0; i < spec.tests.size(); ++i) {
    os << "case " << i << " " << spec.tests[i].seed;
    tail(spec.tests[i]);
    os << "\n";
  }
  if (options.timing_size_case) {
    os << "case " << spec.tests.size() << " " << spec.timing.seed;
    tail(spec.timing);
    os << "\nfullsize " << spec.tests.size() << "\n";
  }
  if (options.timing) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.6f", options.max_seconds);
    os << "timing " << spec.timing.seed << " " << TimingSeedB(spec) << " " << options.warmup << " "
       << std::max(2, options.min_reps) << " " << std::max(2, options.max_reps) << " " << secs << " "
       << (options.flush_l2 ? 1 : 0);
    tail(spec.timing);
    os << "\n";
    if (options.kernel_clock) os << "kernel_clock 1\n";
  }
  os << "end\n";
  return os.str();
}

}  // namespace regrapht::verify
