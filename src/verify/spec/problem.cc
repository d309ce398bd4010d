#include "regrapht/problem.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"
#include "verify/spec/expr.h"
#include "verify/spec/infer.h"

namespace regrapht {
namespace {

struct TypeInfo {
  ScalarType type;
  const char* name;
  const char* cpp;
  size_t size;
};

constexpr TypeInfo kTypes[] = {
    {ScalarType::kFloat, "float", "float", 4},
    {ScalarType::kDouble, "double", "double", 8},
    {ScalarType::kInt8, "int8", "int8_t", 1},
    {ScalarType::kInt16, "int16", "int16_t", 2},
    {ScalarType::kInt32, "int32", "int", 4},
    {ScalarType::kInt64, "int64", "int64_t", 8},
    {ScalarType::kUInt8, "uint8", "uint8_t", 1},
    {ScalarType::kUInt32, "uint32", "uint32_t", 4},
    {ScalarType::kUInt64, "uint64", "uint64_t", 8},
    {ScalarType::kSizeT, "size_t", "size_t", 8},
    {ScalarType::kBool, "bool", "bool", 1},
    {ScalarType::kChar, "char", "char", 1},
    {ScalarType::kComplexFloat, "complex_float", "std::complex<float>", 8},
    {ScalarType::kComplexDouble, "complex_double", "std::complex<double>", 16},
    {ScalarType::kString, "string", "std::string", 32},
};

const TypeInfo& Info(ScalarType t) {
  for (const auto& i : kTypes) {
    if (i.type == t) return i;
  }
  return kTypes[0];
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool IsInteger(ScalarType t) {
  return !IsFloating(t) && t != ScalarType::kBool && t != ScalarType::kString;
}

// The values an integer (or bool) type holds, as doubles; sizes and seeds
// are int64, so the unsigned 64-bit types stop at 2^63 - 1 there.
struct IntRange {
  double lo, hi;
  const char* hi_text;
};
std::optional<IntRange> IntegerRange(ScalarType t) {
  switch (t) {
    case ScalarType::kInt8:
    case ScalarType::kChar:
      return IntRange{-128, 127, "127"};
    case ScalarType::kInt16:
      return IntRange{-32768, 32767, "32767"};
    case ScalarType::kInt32:
      return IntRange{-2147483648.0, 2147483647.0, "2147483647"};
    case ScalarType::kInt64:
      return IntRange{-9223372036854775808.0, 9223372036854775807.0, "9223372036854775807"};
    case ScalarType::kUInt8:
      return IntRange{0, 255, "255"};
    case ScalarType::kUInt32:
      return IntRange{0, 4294967295.0, "4294967295"};
    case ScalarType::kUInt64:
    case ScalarType::kSizeT:
      return IntRange{0, 18446744073709551615.0, "18446744073709551615"};
    case ScalarType::kBool:
      return IntRange{0, 1, "1"};
    default:
      return std::nullopt;
  }
}

// The shortest text that reads back as `v` ("1e+39", "3000000299").
std::string NumText(double v) {
  char buf[64];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// Fails (naming `key` of `p`) unless `v` is a value of scalar type `t`:
// integral and in range for integer types, finite and in range for float.
Status CheckValueFits(const JsonPath& p, std::string_view key, double v, ScalarType t,
                      std::string_view what) {
  std::string type(ScalarTypeName(t));
  if (auto r = IntegerRange(t)) {
    if (std::floor(v) != v)
      return p.FieldError(
          key, NumText(v) + " is not an integer, but " + std::string(what) + " is " + type);
    if (v < r->lo || v > r->hi) {
      return p.FieldError(key, NumText(v) + " does not fit " + std::string(what) + "'s type " +
                                   type + " (" + NumText(r->lo) + " to " + r->hi_text + ")");
    }
  } else if ((t == ScalarType::kFloat || t == ScalarType::kComplexFloat) &&
             std::fabs(v) > 3.4028234663852886e38) {
    return p.FieldError(key, NumText(v) + " does not fit " + std::string(what) + "'s type " + type);
  }
  return Status::Ok();
}

const char* const kLibraries[] = {"cublas", "cusparse", "cufft", "curand", "thrust", "cub"};

// ---- JSON -> spec ----------------------------------------------------------

Result<std::string> NumberOrExpr(const JsonPath& p, std::string_view key, std::string fallback) {
  if (!p.Has(key)) return fallback;
  const Json& v = p.json()[std::string(key)];
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return std::string(buf);
  }
  if (v.is_string()) {
    if (ParseDouble(v.get<std::string>())) return v.get<std::string>();
    auto e = verify::Expr::Parse(v.get<std::string>());
    if (!e.ok()) return p.FieldError(key, e.status().message());
    return v.get<std::string>();
  }
  return p.FieldError(key, "expected a number or a size expression");
}

Result<Distribution> ParseDistribution(const JsonPath& p, const ElementType& type,
                                       const ProblemSpec& spec);

// "uniform" or "sorted" (`kind`): min and max, numbers or size expressions;
// constant bounds must be ordered and fit the element type.
Status ParseRangeDistribution(const JsonPath& p, const ElementType& type, const std::string& kind,
                              Distribution* d) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "min", "max", "special"}));
  d->kind = kind == "uniform" ? Distribution::Kind::kUniform : Distribution::Kind::kSorted;
  RG_ASSIGN_OR_RETURN(d->min, NumberOrExpr(p, "min", "0"));
  RG_ASSIGN_OR_RETURN(d->max, NumberOrExpr(p, "max", "1"));
  auto lo = ParseDouble(d->min), hi = ParseDouble(d->max);
  if (lo && hi && *lo > *hi) {
    return p.FieldError("min", d->min + " is greater than max " + d->max + " (need min <= max)");
  }
  if (type.scalar) {
    if (lo) RG_RETURN_IF_ERROR(CheckValueFits(p, "min", *lo, *type.scalar, "the element"));
    if (hi) RG_RETURN_IF_ERROR(CheckValueFits(p, "max", *hi, *type.scalar, "the element"));
  }
  return Status::Ok();
}

// "string": lengths in [0, 4096] and a printable alphabet of 1 to 256 characters.
Status ParseStringDistribution(const JsonPath& p, Distribution* d) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "min_len", "max_len", "alphabet"}));
  d->kind = Distribution::Kind::kString;
  RG_ASSIGN_OR_RETURN(d->min_len, p.GetInt("min_len", 0));
  RG_ASSIGN_OR_RETURN(d->max_len, p.GetInt("max_len", 8));
  if (d->min_len < 0 || d->max_len < d->min_len || d->max_len > 4096) {
    return p.FieldError("max_len", "need 0 <= min_len <= max_len <= 4096");
  }
  RG_ASSIGN_OR_RETURN(d->alphabet, p.GetString("alphabet", d->alphabet));
  if (d->alphabet.empty() || d->alphabet.size() > 256) return p.FieldError("alphabet", "need 1 to 256 characters");
  for (char c : d->alphabet) {
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) {
      return p.FieldError("alphabet", "printable ASCII characters only");
    }
  }
  return Status::Ok();
}

// "struct": one scalar distribution per field of the element's struct, and
// no other names.
Status ParseStructDistribution(const JsonPath& p, const ElementType& type, const ProblemSpec& spec,
                               Distribution* d) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "fields"}));
  if (!type.is_struct()) return p.FieldError("dist", "\"struct\" needs an element of struct type");
  d->kind = Distribution::Kind::kStruct;
  if (!p.Has("fields")) return p.FieldError("fields", "required field is missing");
  JsonPath f = p["fields"];
  RG_RETURN_IF_ERROR(f.ExpectObject());
  const StructType& st = spec.structs[type.struct_index];
  for (const auto& field : st.fields) {
    ElementType ft;
    ft.scalar = field.type;
    if (!f.Has(field.name)) {
      return f.FieldError(field.name, "missing distribution for struct field");
    }
    RG_ASSIGN_OR_RETURN(Distribution fd, ParseDistribution(f[field.name], ft, spec));
    if (fd.kind != Distribution::Kind::kUniform && fd.kind != Distribution::Kind::kNormal &&
        fd.kind != Distribution::Kind::kConstant && fd.kind != Distribution::Kind::kBernoulli &&
        fd.kind != Distribution::Kind::kString) {
      return f[field.name].FieldError("dist", "struct fields take uniform, normal, constant, bernoulli or string");
    }
    d->fields.emplace_back(field.name, std::move(fd));
  }
  for (auto it = f.json().begin(); it != f.json().end(); ++it) {
    bool known = false;
    for (const auto& field : st.fields) known = known || field.name == it.key();
    if (!known) return f.FieldError(it.key(), "not a field of struct " + st.name);
  }
  return Status::Ok();
}

// The optional "special" section: probability p in (0, 1] and 1 to 8 numbers.
Status ParseSpecialValues(const JsonPath& p, Distribution* d) {
  if (!p.Has("special")) return Status::Ok();
  JsonPath sp = p["special"];
  RG_RETURN_IF_ERROR(sp.CheckKeys({"p", "values"}));
  RG_ASSIGN_OR_RETURN(d->special_p, sp.GetNumber("p"));
  if (d->special_p <= 0 || d->special_p > 1) return sp.FieldError("p", "must be in (0, 1]");
  if (!sp.Has("values") || !sp.json()["values"].is_array() || sp.json()["values"].empty() ||
      sp.json()["values"].size() > 8) {
    return sp.FieldError("values", "expected a list of 1 to 8 numbers");
  }
  for (const auto& v : sp.json()["values"]) {
    if (!v.is_number()) return sp.FieldError("values", "expected numbers");
    d->special_values.push_back(v.get<double>());
  }
  return Status::Ok();
}

Result<Distribution> ParseDistribution(const JsonPath& p, const ElementType& type,
                                       const ProblemSpec& spec) {
  RG_RETURN_IF_ERROR(p.ExpectObject());
  Distribution d;
  RG_ASSIGN_OR_RETURN(std::string kind, p.GetString("dist"));
  if (type.is_struct() && kind != "struct") {
    return p.FieldError("dist", "elements of struct type need \"dist\": \"struct\" with \"fields\"");
  }
  bool is_string = type.scalar && *type.scalar == ScalarType::kString;
  if (is_string != (kind == "string")) {
    return p.FieldError("dist", is_string ? "string elements need \"dist\": \"string\""
                                          : "\"string\" needs an element of type string");
  }
  if (kind == "uniform" || kind == "sorted") {
    RG_RETURN_IF_ERROR(ParseRangeDistribution(p, type, kind, &d));
  } else if (kind == "normal") {
    RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "mean", "std", "special"}));
    d.kind = Distribution::Kind::kNormal;
    RG_ASSIGN_OR_RETURN(d.mean, p.GetNumber("mean", 0));
    RG_ASSIGN_OR_RETURN(d.stddev, p.GetNumber("std", 1));
    if (d.stddev < 0) return p.FieldError("std", "must be >= 0");
  } else if (kind == "constant") {
    RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "value"}));
    d.kind = Distribution::Kind::kConstant;
    RG_ASSIGN_OR_RETURN(d.value, p.GetNumber("value"));
    if (type.scalar)
      RG_RETURN_IF_ERROR(CheckValueFits(p, "value", d.value, *type.scalar, "the element"));
  } else if (kind == "bernoulli") {
    RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "p"}));
    d.kind = Distribution::Kind::kBernoulli;
    RG_ASSIGN_OR_RETURN(d.p, p.GetNumber("p", 0.5));
    if (d.p < 0 || d.p > 1) return p.FieldError("p", "must be in [0, 1]");
  } else if (kind == "permutation") {
    RG_RETURN_IF_ERROR(p.CheckKeys({"dist"}));
    d.kind = Distribution::Kind::kPermutation;
  } else if (kind == "adjacency") {
    RG_RETURN_IF_ERROR(p.CheckKeys({"dist", "n", "p", "symmetric"}));
    d.kind = Distribution::Kind::kAdjacency;
    RG_ASSIGN_OR_RETURN(d.n, NumberOrExpr(p, "n", ""));
    if (d.n.empty()) return p.FieldError("n", "required field is missing");
    RG_ASSIGN_OR_RETURN(d.p, p.GetNumber("p", 0.1));
    if (d.p < 0 || d.p > 1) return p.FieldError("p", "must be in [0, 1]");
    RG_ASSIGN_OR_RETURN(d.symmetric, p.GetBool("symmetric", true));
  } else if (kind == "string") {
    RG_RETURN_IF_ERROR(ParseStringDistribution(p, &d));
  } else if (kind == "struct") {
    RG_RETURN_IF_ERROR(ParseStructDistribution(p, type, spec, &d));
  } else {
    return p.FieldError("dist", "unknown distribution \"" + kind +
                                    "\" (uniform, normal, constant, bernoulli, permutation, "
                                    "sorted, adjacency, struct, string)");
  }
  if (type.scalar && (d.kind == Distribution::Kind::kPermutation) && !IsInteger(*type.scalar)) {
    return p.FieldError("dist", "permutation needs an integer element type");
  }
  RG_RETURN_IF_ERROR(ParseSpecialValues(p, &d));
  return d;
}

Result<ElementType> ParseElementType(const JsonPath& p, std::string_view key,
                                     const ProblemSpec& spec) {
  RG_ASSIGN_OR_RETURN(std::string name, p.GetString(key));
  ElementType t;
  if (auto s = ParseScalarType(name)) {
    t.scalar = *s;
    return t;
  }
  for (size_t i = 0; i < spec.structs.size(); ++i) {
    if (spec.structs[i].name == name) {
      t.struct_index = static_cast<int>(i);
      return t;
    }
  }
  return p.FieldError(key, "unknown type \"" + name +
                               "\" (float, double, int8, int16, int32, int64, uint8, uint32, "
                               "uint64, size_t, bool, char, complex_float, complex_double, string, "
                               "or a struct declared in \"structs\")");
}

Result<std::optional<Tolerance>> ParseTolerance(const JsonPath& p) {
  if (!p.Has("tolerance")) return std::optional<Tolerance>();
  JsonPath t = p["tolerance"];
  RG_RETURN_IF_ERROR(t.CheckKeys({"abs", "rel"}));
  Tolerance tol;
  RG_ASSIGN_OR_RETURN(tol.abs, t.GetNumber("abs", 0));
  RG_ASSIGN_OR_RETURN(tol.rel, t.GetNumber("rel", 0));
  if (tol.abs < 0) return t.FieldError("abs", "must be >= 0");
  if (tol.rel < 0) return t.FieldError("rel", "must be >= 0");
  return std::optional<Tolerance>(tol);
}

Result<TestCase> ParseTestCase(const JsonPath& p, const ProblemSpec& spec) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"sizes", "scalars", "seed"}));
  TestCase tc;
  RG_ASSIGN_OR_RETURN(int64_t seed, p.GetInt("seed"));
  if (seed < 0) return p.FieldError("seed", "must be >= 0");
  tc.seed = static_cast<uint64_t>(seed);
  if (p.Has("sizes")) {
    JsonPath s = p["sizes"];
    RG_RETURN_IF_ERROR(s.ExpectObject());
    for (auto it = s.json().begin(); it != s.json().end(); ++it) {
      if (!spec.IsSizeVariable(it.key())) {
        return s.FieldError(it.key(), "not a size argument of the function nor declared in \"sizes\"");
      }
      RG_ASSIGN_OR_RETURN(int64_t v, s.GetInt(it.key()));
      if (v < 0) return s.FieldError(it.key(), "must be >= 0");
      const ArgSpec* size_arg = spec.FindArg(it.key());
      if (size_arg && size_arg->type.scalar) {
        RG_RETURN_IF_ERROR(CheckValueFits(s, it.key(), static_cast<double>(v),
                                          *size_arg->type.scalar, "the size argument"));
      }
      tc.sizes[it.key()] = v;
    }
  }
  for (const auto& arg : spec.args) {
    if (arg.role == ArgRole::kSize && arg.from.empty() && !tc.sizes.count(arg.name)) {
      return p.FieldError("sizes", "missing a value for size argument '" + arg.name + "'");
    }
  }
  for (const auto& extra : spec.extra_sizes) {
    if (!tc.sizes.count(extra)) return p.FieldError("sizes", "missing a value for size '" + extra + "'");
  }
  if (p.Has("scalars")) {
    JsonPath s = p["scalars"];
    RG_RETURN_IF_ERROR(s.ExpectObject());
    for (auto it = s.json().begin(); it != s.json().end(); ++it) {
      const ArgSpec* arg = spec.FindArg(it.key());
      if (!arg || arg->role != ArgRole::kScalar) {
        return s.FieldError(it.key(), "not a scalar argument of the function");
      }
      RG_ASSIGN_OR_RETURN(double v, s.GetNumber(it.key()));
      if (arg->type.scalar)
        RG_RETURN_IF_ERROR(CheckValueFits(s, it.key(), v, *arg->type.scalar, "the argument"));
      tc.scalars[it.key()] = v;
    }
  }
  return tc;
}

// An argument's name, role, type, pass and flags, as written (not yet
// checked against each other).
Status ParseArgDeclaration(const JsonPath& p, const ProblemSpec& spec, ArgSpec* a) {
  RG_ASSIGN_OR_RETURN(a->name, p.GetString("name"));
  if (!IsIdentifier(a->name)) return p.FieldError("name", "not a C++ identifier: " + a->name);
  if (scan::IsKeyword(a->name)) return p.FieldError("name", "\"" + a->name + "\" is a C++ keyword, not a usable name");
  RG_ASSIGN_OR_RETURN(std::string role, p.GetString("role"));
  if (role == "input") a->role = ArgRole::kInput;
  else if (role == "output") a->role = ArgRole::kOutput;
  else if (role == "inout") a->role = ArgRole::kInOut;
  else if (role == "scalar") a->role = ArgRole::kScalar;
  else if (role == "size") a->role = ArgRole::kSize;
  else return p.FieldError("role", "unknown role \"" + role + "\" (input, output, inout, scalar, size)");
  RG_ASSIGN_OR_RETURN(a->type, ParseElementType(p, "type", spec));
  std::string default_pass =
      (a->role == ArgRole::kScalar || a->role == ArgRole::kSize) ? "value" : "";
  RG_ASSIGN_OR_RETURN(std::string pass, p.GetString("pass", default_pass));
  if (pass == "value") a->pass = ArgPass::kValue;
  else if (pass == "pointer") a->pass = ArgPass::kPointer;
  else if (pass == "vector") a->pass = ArgPass::kVector;
  else if (pass == "reference") a->pass = ArgPass::kReference;
  else if (pass == "array") a->pass = ArgPass::kArray;
  else if (pass.empty()) return p.FieldError("pass", "required for arrays (pointer, vector or array)");
  else return p.FieldError("pass", "unknown pass \"" + pass + "\" (value, pointer, vector, reference, array)");
  RG_ASSIGN_OR_RETURN(a->is_const, p.GetBool("const", a->role == ArgRole::kInput));
  RG_ASSIGN_OR_RETURN(a->resizable, p.GetBool("resizable", false));
  RG_ASSIGN_OR_RETURN(a->from, p.GetString("from", ""));
  RG_ASSIGN_OR_RETURN(a->order_matters, p.GetBool("order_matters", true));
  RG_ASSIGN_OR_RETURN(a->tolerance, ParseTolerance(p));
  return Status::Ok();
}

// The role's rules: which passes and types each role takes; strings only in
// vector inputs; only vector outputs resizable.
Status CheckArgRole(const JsonPath& p, const ProblemSpec& spec, const ArgSpec& a) {
  switch (a.role) {
    case ArgRole::kSize:
      if (a.pass != ArgPass::kValue) return p.FieldError("pass", "size arguments are passed by value");
      if (a.type.is_struct() || !IsInteger(*a.type.scalar)) {
        return p.FieldError("type", "size arguments need an integer type");
      }
      break;
    case ArgRole::kScalar:
      if (a.pass != ArgPass::kValue) return p.FieldError("pass", "scalar arguments are passed by value");
      if (a.type.is_struct()) return p.FieldError("type", "scalar arguments need a scalar type");
      break;
    case ArgRole::kInput:
      if (!a.is_array()) return p.FieldError("pass", "inputs are arrays (pointer or vector); use role scalar for single values");
      break;
    case ArgRole::kOutput:
    case ArgRole::kInOut:
      if (a.pass == ArgPass::kValue) return p.FieldError("pass", "outputs need pointer, vector or reference");
      if (a.is_const) return p.FieldError("const", "an output cannot be const");
      break;
  }
  if (spec.HoldsStrings(a.type) && !(a.role == ArgRole::kInput && a.pass == ArgPass::kVector)) {
    return p.FieldError("type", "strings (and structs holding them) are only supported in vector inputs");
  }
  if (a.resizable && !(a.role == ArgRole::kOutput && a.pass == ArgPass::kVector)) {
    return p.FieldError("resizable", "only vector outputs can be resizable");
  }
  return Status::Ok();
}

// An array's length (exactly one of length, from, resizable), where "from"
// may be used, and which arguments take a tolerance.
Status ParseArgShape(const JsonPath& p, ArgSpec* a) {
  if (a->is_array()) {
    RG_ASSIGN_OR_RETURN(a->length, NumberOrExpr(p, "length", ""));
    int ways = !a->length.empty() + !a->from.empty() + a->resizable;
    if (ways != 1) {
      return p.Error("array '" + a->name + "' needs exactly one of \"length\", \"from\" or \"resizable\"");
    }
    if (a->pass == ArgPass::kArray) {
      auto k = ParseInt(a->length);
      if (!k || *k <= 0 || *k > (int64_t{1} << 20)) {
        return p.FieldError("length", "a std::array needs a constant length between 1 and 2^20");
      }
    }
  } else if (p.Has("length")) {
    return p.FieldError("length", "only arrays have a length");
  }
  if (!a->from.empty() && !(a->role == ArgRole::kInput || a->role == ArgRole::kSize)) {
    return p.FieldError("from", "only inputs and sizes can come from a sparse generator");
  }
  if (a->tolerance && !a->is_checked()) {
    return p.FieldError("tolerance", "only outputs and in-outs are compared");
  }
  if (a->tolerance && a->type.scalar && !IsFloating(*a->type.scalar) &&
      (a->tolerance->abs != 0 || a->tolerance->rel != 0)) {
    return p.FieldError("tolerance", "integer and bool outputs are compared exactly");
  }
  return Status::Ok();
}

// The optional "diagonal" section of a generated floating-point n x n array
// (`needs_values`: its values are generated).
Status ParseArgDiagonal(const JsonPath& p, const ProblemSpec& spec, bool needs_values, ArgSpec* a) {
  if (!p.Has("diagonal")) return Status::Ok();
  JsonPath dp = p["diagonal"];
  RG_RETURN_IF_ERROR(dp.CheckKeys({"n", "values"}));
  if (!needs_values || !a->is_array() || a->type.is_struct() || !IsFloating(*a->type.scalar) ||
      a->values.kind == Distribution::Kind::kAdjacency) {
    return p.FieldError("diagonal", "only generated floating-point n x n arrays take a diagonal");
  }
  RG_ASSIGN_OR_RETURN(a->diagonal_n, NumberOrExpr(dp, "n", ""));
  if (a->diagonal_n.empty()) return dp.FieldError("n", "required field is missing");
  if (!dp.Has("values")) return dp.FieldError("values", "required field is missing");
  RG_ASSIGN_OR_RETURN(a->diagonal_values, ParseDistribution(dp["values"], a->type, spec));
  auto k = a->diagonal_values.kind;
  if (k != Distribution::Kind::kUniform && k != Distribution::Kind::kNormal && k != Distribution::Kind::kConstant) {
    return dp["values"].FieldError("dist", "a diagonal takes uniform, normal or constant");
  }
  return Status::Ok();
}

Status ParseArg(const JsonPath& p, ProblemSpec& spec, ArgSpec* out) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"name", "role", "type", "pass", "const", "length", "resizable",
                                  "from", "values", "tolerance", "order_matters", "diagonal"}));
  ArgSpec a;
  RG_RETURN_IF_ERROR(ParseArgDeclaration(p, spec, &a));
  RG_RETURN_IF_ERROR(CheckArgRole(p, spec, a));
  RG_RETURN_IF_ERROR(ParseArgShape(p, &a));
  bool needs_values = (a.role == ArgRole::kInput || a.role == ArgRole::kInOut ||
                       a.role == ArgRole::kScalar) && a.from.empty();
  if (p.Has("values")) {
    if (!needs_values) return p.FieldError("values", "this argument's values are not generated");
    RG_ASSIGN_OR_RETURN(a.values, ParseDistribution(p["values"], a.type, spec));
  } else if (needs_values) {
    if (a.type.is_struct()) return p.FieldError("values", "struct elements need a distribution");
    if (spec.HoldsStrings(a.type)) return p.FieldError("values", "string elements need a distribution");
    // Documented default: uniform [-1, 1] for floating types, [0, 100] for integers.
    bool fp = IsFloating(*a.type.scalar);
    a.values.kind = Distribution::Kind::kUniform;
    a.values.min = fp ? "-1" : "0";
    a.values.max = fp ? "1" : (*a.type.scalar == ScalarType::kBool ? "1" : "100");
  }
  if (a.values.kind == Distribution::Kind::kPermutation && !a.is_array()) {
    return p.FieldError("values", "a permutation needs an array");
  }
  RG_RETURN_IF_ERROR(ParseArgDiagonal(p, spec, needs_values, &a));
  *out = std::move(a);
  return Status::Ok();
}

// `text` (field `key` of `where`) is a number (an integer when
// `integer_only`) or a size expression over `vars`.
Status CheckSizeExpr(const JsonPath& where, std::string_view key, const std::string& text,
                     const std::set<std::string>& vars, bool integer_only = false) {
  if (text.empty() || (integer_only ? ParseInt(text).has_value() : ParseDouble(text).has_value())) {
    return Status::Ok();
  }
  auto e = verify::Expr::Parse(text);
  if (!e.ok()) return where.FieldError(key, e.status().message());
  for (const auto& v : e->variables()) {
    if (!vars.count(v)) {
      return where.FieldError(key, "unknown variable '" + v + "' (size arguments: " +
                                       Join(std::vector<std::string>(vars.begin(), vars.end()), ", ") + ")");
    }
  }
  return Status::Ok();
}

Status ValidateExpressions(const JsonPath& root, const ProblemSpec& spec) {
  std::set<std::string> size_vars(spec.extra_sizes.begin(), spec.extra_sizes.end());
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kSize) size_vars.insert(a.name);
  }
  auto check = [&](const JsonPath& where, std::string_view key, const std::string& text) {
    return CheckSizeExpr(where, key, text, size_vars);
  };
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const auto& a = spec.args[i];
    JsonPath ap = root["args"][i];
    RG_RETURN_IF_ERROR(check(ap, "length", a.length));
    if (a.values.kind == Distribution::Kind::kUniform || a.values.kind == Distribution::Kind::kSorted) {
      if (ap.Has("values")) {
        RG_RETURN_IF_ERROR(check(ap["values"], "min", a.values.min));
        RG_RETURN_IF_ERROR(check(ap["values"], "max", a.values.max));
      }
    }
    if (a.values.kind == Distribution::Kind::kAdjacency) {
      RG_RETURN_IF_ERROR(check(ap["values"], "n", a.values.n));
    }
    if (!a.diagonal_n.empty()) {
      RG_RETURN_IF_ERROR(check(ap["diagonal"], "n", a.diagonal_n));
      if (a.diagonal_values.kind == Distribution::Kind::kUniform) {
        RG_RETURN_IF_ERROR(check(ap["diagonal"]["values"], "min", a.diagonal_values.min));
        RG_RETURN_IF_ERROR(check(ap["diagonal"]["values"], "max", a.diagonal_values.max));
      }
    }
    if (!a.from.empty()) {
      auto parts = Split(a.from, '.');
      const SparseSpec* sp = nullptr;
      for (const auto& s : spec.sparse) {
        if (parts.size() == 2 && s.name == parts[0]) sp = &s;
      }
      if (!sp) return ap.FieldError("from", "no sparse generator named in \"" + a.from + "\"");
      std::set<std::string> allowed =
          sp->format == SparseSpec::Format::kCsr
              ? std::set<std::string>{"row_ptr", "col_idx", "values", "nnz", "rows", "cols"}
              : std::set<std::string>{"row", "col", "values", "entries", "nnz", "rows", "cols"};
      if (!allowed.count(parts[1])) {
        return ap.FieldError("from", "\"" + parts[1] + "\" is not a part of sparse matrix " + sp->name +
                                         " (" + Join(std::vector<std::string>(allowed.begin(), allowed.end()), ", ") + ")");
      }
      bool size_part = parts[1] == "nnz" || parts[1] == "rows" || parts[1] == "cols";
      if (size_part != (a.role == ArgRole::kSize)) {
        return ap.FieldError("from", size_part ? "\"" + parts[1] + "\" is a size: use role size"
                                               : "\"" + parts[1] + "\" is an array: use role input");
      }
      if (parts[1] == "entries") {
        if (!a.type.is_struct()) return ap.FieldError("type", "COO entries need a struct type {row, col, value}");
        const auto& st = spec.structs[a.type.struct_index];
        if (st.fields.size() != 3 || IsFloating(st.fields[0].type) || IsFloating(st.fields[1].type) ||
            !IsFloating(st.fields[2].type)) {
          return ap.FieldError("type", "COO entries need a struct of (integer row, integer col, floating value)");
        }
      } else if (!size_part && a.type.is_struct()) {
        return ap.FieldError("type", "sparse parts are scalar arrays");
      }
    }
  }
  for (size_t i = 0; i < spec.sparse.size(); ++i) {
    JsonPath sp = root["sparse"][i];
    RG_RETURN_IF_ERROR(check(sp, "rows", spec.sparse[i].rows));
    RG_RETURN_IF_ERROR(check(sp, "cols", spec.sparse[i].cols));
  }
  return Status::Ok();
}

// "init": a number or bool (scalars), or an object field -> number (structs).
Result<std::map<std::string, double>> ParseInit(const JsonPath& p, const ElementType& t, const ProblemSpec& spec) {
  const Json& v = p.json()["init"];
  std::map<std::string, double> out;
  if (!t.is_struct()) {
    if (v.is_boolean()) out[""] = v.get<bool>() ? 1 : 0;
    else if (v.is_number()) out[""] = v.get<double>();
    else return p.FieldError("init", "expected a number or true/false");
    return out;
  }
  if (!v.is_object()) return p.FieldError("init", "a struct's init is an object: field -> number");
  JsonPath ip = p["init"];
  for (const auto& f : spec.structs[t.struct_index].fields) {
    if (!ip.Has(f.name)) return ip.FieldError(f.name, "missing (every field needs a value)");
    RG_ASSIGN_OR_RETURN(out[f.name], ip.GetNumber(f.name));
  }
  if (out.size() != ip.json().size()) return p.FieldError("init", "names a field the struct does not have");
  return out;
}

// A kernel parameter's kind: "length_of" an array (a new size variable,
// added to `size_vars`), a "size" expression, or a "bind" to an argument
// (`*a`; nullptr for the return value) or the return value, each bound once.
Status ParseKernelParamKind(const JsonPath& pp, const ProblemSpec& spec, std::set<std::string>* size_vars,
                            std::set<std::string>* bound, KernelParam* q, const ArgSpec** a) {
  if (pp.Has("length_of")) {
    q->kind = KernelParam::Kind::kLength;
    RG_ASSIGN_OR_RETURN(q->length_of, pp.GetString("length_of"));
    const ArgSpec* of = spec.FindArg(q->length_of);
    if (!of || !of->is_array()) return pp.FieldError("length_of", "no array argument named '" + q->length_of + "'");
    if (size_vars->count(q->name)) return pp.FieldError("name", "'" + q->name + "' is already a size variable");
    // Launch and capacity expressions may use it.
    size_vars->insert(q->name);
  } else if (pp.Has("size")) {
    q->kind = KernelParam::Kind::kSize;
    RG_ASSIGN_OR_RETURN(q->size, NumberOrExpr(pp, "size", ""));
    RG_RETURN_IF_ERROR(CheckSizeExpr(pp, "size", q->size, *size_vars, /*integer_only=*/true));
  } else {
    RG_ASSIGN_OR_RETURN(q->bind, pp.GetString("bind"));
    if (q->bind == "return") {
      if (!spec.returns) return pp.FieldError("bind", "the function returns nothing");
      q->kind = KernelParam::Kind::kReturn;
      if (!pp.Has("init")) return pp.FieldError("init", "a return value's buffer needs an initial value");
    } else {
      *a = spec.FindArg(q->bind);
      if (!*a) return pp.FieldError("bind", "no argument named '" + q->bind + "'");
      if (q->type && (*a)->is_array()) return pp.FieldError("type", "only scalar and size binds take a type");
    }
    if (!bound->insert(q->bind).second) return pp.FieldError("bind", "'" + q->bind + "' is bound twice");
  }
  return Status::Ok();
}

// One entry of the kernel's "params" (`names`, `bound`, `size_vars`: what
// the entries before it declared).
Result<KernelParam> ParseKernelParam(const JsonPath& pp, const ProblemSpec& spec, std::set<std::string>* size_vars,
                                     std::set<std::string>* names, std::set<std::string>* bound) {
  RG_RETURN_IF_ERROR(pp.CheckKeys({"name", "bind", "size", "length_of", "type", "init", "compact", "capacity"}));
  KernelParam q;
  RG_ASSIGN_OR_RETURN(q.name, pp.GetString("name"));
  if (!IsIdentifier(q.name)) return pp.FieldError("name", "not a C++ identifier");
  if (!names->insert(q.name).second) return pp.FieldError("name", "duplicate parameter name '" + q.name + "'");
  if (pp.Has("bind") + pp.Has("size") + pp.Has("length_of") != 1) {
    return pp.Error("a kernel parameter needs exactly one of \"bind\", \"size\" or \"length_of\"");
  }
  if (pp.Has("type")) {
    RG_ASSIGN_OR_RETURN(std::string tn, pp.GetString("type"));
    auto t = ParseScalarType(tn);
    if (!t || !IsInteger(*t)) return pp.FieldError("type", "an integer type, got \"" + tn + "\"");
    q.type = t;
  }
  const ArgSpec* a = nullptr;
  RG_RETURN_IF_ERROR(ParseKernelParamKind(pp, spec, size_vars, bound, &q, &a));
  if (pp.Has("init")) {
    const ElementType* t = q.kind == KernelParam::Kind::kReturn ? &*spec.returns : nullptr;
    if (a && a->is_array() && a->role == ArgRole::kOutput) t = &a->type;
    if (!t) return pp.FieldError("init", "only outputs and return values take an initial value");
    RG_ASSIGN_OR_RETURN(auto init, ParseInit(pp, *t, spec));
    q.init = std::move(init);
  }
  RG_ASSIGN_OR_RETURN(q.compact, pp.GetBool("compact", false));
  if (q.compact) {
    if (!a || !a->resizable) return pp.FieldError("compact", "only a resizable vector output can be compacted");
    if (!q.init) return pp.FieldError("init", "a compacted output needs the value that marks an unused entry");
    RG_ASSIGN_OR_RETURN(q.capacity, NumberOrExpr(pp, "capacity", ""));
    if (q.capacity.empty()) return pp.FieldError("capacity", "a compacted output needs a capacity");
    RG_RETURN_IF_ERROR(CheckSizeExpr(pp, "capacity", q.capacity, *size_vars, /*integer_only=*/true));
  } else if (pp.Has("capacity")) {
    return pp.FieldError("capacity", "only with \"compact\": true");
  } else if (a && a->resizable) {
    return pp.FieldError("bind", "a resizable output needs \"compact\": true and a capacity in the kernel form");
  }
  return q;
}

// The kernel's "launch": exactly one of "threads" or a 2-D "grid", integer
// size expressions over `size_vars`.
Status ParseKernelLaunch(const JsonPath& kp, const std::set<std::string>& size_vars, KernelSpec* k) {
  auto check_expr = [&](const JsonPath& where, std::string_view key, const std::string& text) {
    return CheckSizeExpr(where, key, text, size_vars, /*integer_only=*/true);
  };
  if (!kp.Has("launch")) return kp.FieldError("launch", "required field is missing");
  JsonPath lp = kp["launch"];
  RG_RETURN_IF_ERROR(lp.CheckKeys({"threads", "grid"}));
  if (lp.Has("threads") == lp.Has("grid")) return lp.Error("a launch needs exactly one of \"threads\" or \"grid\"");
  if (lp.Has("threads")) {
    RG_ASSIGN_OR_RETURN(k->threads, NumberOrExpr(lp, "threads", ""));
    RG_RETURN_IF_ERROR(check_expr(lp, "threads", k->threads));
  } else {
    const Json& g = lp.json()["grid"];
    if (!g.is_array() || g.size() != 2) return lp.FieldError("grid", "expected [x extent, y extent]");
    auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : JsonLine(v); };
    k->grid_x = text(g[0]);
    k->grid_y = text(g[1]);
    RG_RETURN_IF_ERROR(check_expr(lp, "grid", k->grid_x));
    RG_RETURN_IF_ERROR(check_expr(lp, "grid", k->grid_y));
  }
  return Status::Ok();
}

Result<KernelSpec> ParseKernel(const JsonPath& kp, const ProblemSpec& spec) {
  RG_RETURN_IF_ERROR(kp.CheckKeys({"function", "params", "launch"}));
  KernelSpec k;
  RG_ASSIGN_OR_RETURN(k.function, kp.GetString("function", spec.function));
  if (!IsIdentifier(k.function)) return kp.FieldError("function", "not a C++ identifier");
  std::set<std::string> size_vars(spec.extra_sizes.begin(), spec.extra_sizes.end());
  for (const auto& a : spec.args) {
    if (a.role == ArgRole::kSize && a.from.empty()) size_vars.insert(a.name);
  }
  if (!kp.Has("params")) return kp.FieldError("params", "required field is missing");
  JsonPath ps = kp["params"];
  RG_RETURN_IF_ERROR(ps.ExpectArray());
  std::set<std::string> names, bound;
  for (size_t i = 0; i < ps.json().size(); ++i) {
    RG_ASSIGN_OR_RETURN(KernelParam q, ParseKernelParam(ps[i], spec, &size_vars, &names, &bound));
    k.params.push_back(std::move(q));
  }
  for (const auto& a : spec.args) {
    if (a.is_checked() && !bound.count(a.name)) {
      return ps.Error("the output '" + a.name + "' is not bound to a kernel parameter");
    }
  }
  if (spec.returns && !bound.count("return")) return ps.Error("the return value is not bound to a kernel parameter");
  RG_RETURN_IF_ERROR(ParseKernelLaunch(kp, size_vars, &k));
  return k;
}

// Distributions whose min or max is a size expression: min <= max once the
// test case's sizes are known.
Status CheckRangesOf(const JsonPath& root, const ProblemSpec& spec, const TestCase& t,
                     const std::string& where) {
  auto vars = SizeVars(spec, t);
  auto check = [&](const JsonPath& p, const Distribution& d) -> Status {
    if (d.kind != Distribution::Kind::kUniform && d.kind != Distribution::Kind::kSorted)
      return Status::Ok();
    if (ParseDouble(d.min) && ParseDouble(d.max)) return Status::Ok();  // checked when parsed
    auto value = [&](const std::string& text) -> std::optional<double> {
      if (auto v = ParseDouble(text)) return v;
      auto e = verify::Expr::Parse(text);
      if (!e.ok()) return std::nullopt;
      auto v = e->Eval(vars);
      return v.ok() ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    auto lo = value(d.min), hi = value(d.max);
    if (lo && hi && *lo > *hi) {
      return p.FieldError("min", d.min + " (" + NumText(*lo) + ") is greater than max " + d.max +
                                     " (" + NumText(*hi) + ") in " + where);
    }
    return Status::Ok();
  };
  for (size_t i = 0; i < spec.args.size(); ++i) {
    JsonPath ap = root["args"][i];
    if (ap.Has("values")) RG_RETURN_IF_ERROR(check(ap["values"], spec.args[i].values));
  }
  return Status::Ok();
}

Status ValidateTests(const JsonPath& root, const ProblemSpec& spec) {
  if (spec.tests.size() < 3) {
    return root.FieldError("tests", "need at least 3 test cases (a tiny one, one not a multiple of 32, one larger)");
  }
  bool has_size_arg = !spec.extra_sizes.empty();
  for (const auto& a : spec.args) has_size_arg = has_size_arg || (a.role == ArgRole::kSize && a.from.empty());
  bool tiny = false, ragged = false;
  for (size_t i = 0; i < spec.tests.size(); ++i) {
    const auto& t = spec.tests[i];
    bool all_small = true;
    for (const auto& [k, v] : t.sizes) {
      all_small = all_small && v <= 16;
      ragged = ragged || (v > 256 && v % 32 != 0);
    }
    tiny = tiny || all_small;
    auto lens = ArrayLengths(spec, t);
    if (!lens.ok()) return root["tests"][i].Error(lens.status().message());
    RG_RETURN_IF_ERROR(CheckRangesOf(root, spec, t, "tests[" + std::to_string(i) + "]"));
  }
  if (has_size_arg && !tiny) {
    return root.FieldError("tests", "need a tiny test case (every size <= 16)");
  }
  if (has_size_arg && !ragged) {
    return root.FieldError("tests", "need a test case with a size > 256 that is not a multiple of 32");
  }
  auto lens = ArrayLengths(spec, spec.timing);
  if (!lens.ok()) return root["timing"].Error(lens.status().message());
  RG_RETURN_IF_ERROR(CheckRangesOf(root, spec, spec.timing, "timing"));
  auto bytes = EstimateBytes(spec, spec.timing);
  if (bytes.ok() && *bytes > (int64_t{6} << 30)) {
    return root["timing"].Error("timing size needs about " + std::to_string(*bytes >> 20) +
                                " MiB per copy; keep it under 6 GiB");
  }
  return Status::Ok();
}

}  // namespace

// ---- types -----------------------------------------------------------------

std::string_view ScalarTypeName(ScalarType t) { return Info(t).name; }
std::string_view ScalarTypeCpp(ScalarType t) { return Info(t).cpp; }
size_t ScalarTypeSize(ScalarType t) { return Info(t).size; }
bool IsFloating(ScalarType t) {
  return t == ScalarType::kFloat || t == ScalarType::kDouble || t == ScalarType::kComplexFloat ||
         t == ScalarType::kComplexDouble;
}

std::optional<ScalarType> ParseScalarType(std::string_view name) {
  if (name == "int") return ScalarType::kInt32;  // accepted alias
  for (const auto& i : kTypes) {
    if (name == i.name) return i.type;
  }
  return std::nullopt;
}

std::string_view ArgRoleName(ArgRole r) {
  switch (r) {
    case ArgRole::kInput: return "input";
    case ArgRole::kOutput: return "output";
    case ArgRole::kInOut: return "inout";
    case ArgRole::kScalar: return "scalar";
    case ArgRole::kSize: return "size";
  }
  return "?";
}

std::string_view ArgPassName(ArgPass p) {
  switch (p) {
    case ArgPass::kValue: return "value";
    case ArgPass::kPointer: return "pointer";
    case ArgPass::kVector: return "vector";
    case ArgPass::kReference: return "reference";
    case ArgPass::kArray: return "array";
  }
  return "?";
}

bool ProblemSpec::IsSizeVariable(std::string_view n) const {
  for (const auto& e : extra_sizes) {
    if (e == n) return true;
  }
  const ArgSpec* a = FindArg(n);
  return a && a->role == ArgRole::kSize && a->from.empty();
}

const ArgSpec* ProblemSpec::FindArg(std::string_view arg_name) const {
  for (const auto& a : args) {
    if (a.name == arg_name) return &a;
  }
  return nullptr;
}

std::string ProblemSpec::ElementCpp(const ElementType& t) const {
  if (t.is_struct()) return structs[t.struct_index].name;
  return std::string(ScalarTypeCpp(*t.scalar));
}

bool ProblemSpec::HoldsStrings(const ElementType& t) const {
  if (!t.is_struct()) return *t.scalar == ScalarType::kString;
  for (const auto& f : structs[t.struct_index].fields) {
    if (f.type == ScalarType::kString) return true;
  }
  return false;
}

size_t ProblemSpec::ElementSize(const ElementType& t) const {
  if (!t.is_struct()) return ScalarTypeSize(*t.scalar);
  // Natural layout of the C++ struct: each field aligned to its size.
  size_t off = 0, align = 1;
  for (const auto& f : structs[t.struct_index].fields) {
    size_t s = ScalarTypeSize(f.type);
    size_t a = (f.type == ScalarType::kComplexFloat) ? 4
               : (f.type == ScalarType::kComplexDouble || f.type == ScalarType::kString) ? 8 : s;
    off = (off + a - 1) / a * a + s;
    align = std::max(align, a);
  }
  return (off + align - 1) / align * align;
}

std::string ProblemSpec::ArgCppType(const ArgSpec& a) const {
  std::string el = ElementCpp(a.type);
  switch (a.pass) {
    case ArgPass::kValue: return el;
    case ArgPass::kPointer: return (a.is_const ? "const " : "") + el + "*";
    case ArgPass::kVector: return (a.is_const ? "const std::vector<" : "std::vector<") + el + ">&";
    case ArgPass::kReference: return el + "&";
    case ArgPass::kArray: return (a.is_const ? "const std::array<" : "std::array<") + el + ", " + a.length + ">&";
  }
  return el;
}

std::string ProblemSpec::Signature() const {
  std::string s = returns ? ElementCpp(*returns) : "void";
  s += " " + function + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    s += ArgCppType(args[i]) + " " + args[i].name;
  }
  return s + ")";
}

Tolerance ProblemSpec::ToleranceFor(const ElementType& t,
                                    const std::optional<Tolerance>& given) const {
  if (given) return *given;
  auto def = [](ScalarType s) {
    switch (s) {
      case ScalarType::kFloat:
      case ScalarType::kComplexFloat: return Tolerance{1e-5, 1e-4};
      case ScalarType::kDouble:
      case ScalarType::kComplexDouble: return Tolerance{1e-10, 1e-8};
      default: return Tolerance{0, 0};
    }
  };
  if (!t.is_struct()) return def(*t.scalar);
  Tolerance out;  // loosest field default
  for (const auto& f : structs[t.struct_index].fields) {
    Tolerance d = def(f.type);
    out.abs = std::max(out.abs, d.abs);
    out.rel = std::max(out.rel, d.rel);
  }
  return out;
}

std::map<std::string, int64_t> SizeVars(const ProblemSpec& spec, const TestCase& test) {
  (void)spec;
  return test.sizes;
}

Result<std::map<std::string, std::optional<int64_t>>> ArrayLengths(const ProblemSpec& spec,
                                                                  const TestCase& test) {
  std::map<std::string, std::optional<int64_t>> out;
  auto vars = SizeVars(spec, test);
  for (const auto& a : spec.args) {
    if (!a.is_array()) continue;
    if (a.length.empty()) {
      out[a.name] = std::nullopt;
      continue;
    }
    RG_ASSIGN_OR_RETURN(auto e, verify::Expr::Parse(a.length));
    auto v = e.Eval(vars);
    if (!v.ok()) return Status::InvalidArgument("length of '" + a.name + "': " + v.status().message());
    if (*v < 0) {
      return Status::InvalidArgument("length of '" + a.name + "' is negative (" + std::to_string(*v) + ")");
    }
    out[a.name] = *v;
  }
  for (const auto& s : spec.sparse) {
    for (const auto* text : {&s.rows, &s.cols}) {
      RG_ASSIGN_OR_RETURN(auto e, verify::Expr::Parse(*text));
      auto v = e.Eval(vars);
      if (!v.ok()) return Status::InvalidArgument("sparse " + s.name + ": " + v.status().message());
      if (*v < 0) return Status::InvalidArgument("sparse " + s.name + ": negative dimension");
    }
  }
  return out;
}

Result<int64_t> EstimateBytes(const ProblemSpec& spec, const TestCase& test) {
  RG_ASSIGN_OR_RETURN(auto lens, ArrayLengths(spec, test));
  int64_t total = 0;
  auto vars = SizeVars(spec, test);
  for (const auto& a : spec.args) {
    if (!a.is_array()) continue;
    int64_t n = 0;
    if (lens[a.name]) {
      n = *lens[a.name];
    } else if (!a.from.empty()) {
      for (const auto& s : spec.sparse) {
        if (StartsWith(a.from, s.name + ".")) {
          auto rows = verify::Expr::Parse(s.rows)->Eval(vars);
          n = (rows.ok() ? *rows : 0) * std::max<int64_t>(1, s.nnz_per_row_max) + 1;
        }
      }
    }
    total += n * static_cast<int64_t>(spec.ElementSize(a.type));
  }
  return total;
}

Result<int64_t> EstimateOutputBytes(const ProblemSpec& spec, const TestCase& test) {
  RG_ASSIGN_OR_RETURN(auto lens, ArrayLengths(spec, test));
  int64_t total = spec.returns ? static_cast<int64_t>(spec.ElementSize(*spec.returns)) : 0;
  for (const auto& a : spec.args) {
    if (a.role != ArgRole::kOutput) continue;
    int64_t n = a.is_array() ? (lens[a.name] ? *lens[a.name] : 0) : 1;
    total += n * static_cast<int64_t>(spec.ElementSize(a.type));
  }
  return total;
}

// A value `regrapht optimize` marked in a template (verify/infer.h's
// kFillIn) and nobody replaced: named by its path, before any other check.
Status CheckFilledIn(const JsonPath& p) {
  const Json& j = p.json();
  if (j.is_string() && j.get<std::string>().rfind("FILL IN: ", 0) == 0) {
    return p.Error("still a template value, to be written (docs/inference.md): \"" +
                   j.get<std::string>() + "\"");
  }
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) RG_RETURN_IF_ERROR(CheckFilledIn(p[i]));
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (p.path().empty() && it.key() == "notes") continue;
      if (it.key().rfind("FILL IN: ", 0) == 0)
        return p.Error("still a template key: \"" + it.key() + "\"");
      RG_RETURN_IF_ERROR(CheckFilledIn(p[it.key()]));
    }
  }
  return Status::Ok();
}

namespace {

// The spec's header: format, version, name, notes, function and category.
Status ParseSpecHeader(const JsonPath& root, ProblemSpec* spec) {
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != "regrapht-problem") {
    return root.FieldError("format", "expected \"regrapht-problem\", got \"" + format + "\"");
  }
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != 1) return root.FieldError("version", "unsupported version " + std::to_string(version) + " (this regrapht reads 1)");
  RG_ASSIGN_OR_RETURN(spec->name, root.GetName("name"));
  if (root.Has("notes") && !root.json()["notes"].is_string()) {
    return root.FieldError("notes",
                           std::string("free text is a string, got ") + root.json()["notes"].type_name());
  }
  RG_ASSIGN_OR_RETURN(spec->function, root.GetString("function"));
  if (!IsIdentifier(spec->function)) return root.FieldError("function", "not a C++ identifier");
  if (scan::IsKeyword(spec->function) || spec->function == "main") {
    return root.FieldError("function", "\"" + spec->function +
                                           "\" cannot be the function to optimize (a C++ keyword, or main, which "
                                           "the harness's driver defines)");
  }
  RG_ASSIGN_OR_RETURN(spec->category, root.GetString("category", ""));
  if (!spec->category.empty() && !IsIdentifier(spec->category)) {
    return root.FieldError("category", "a problem type is an identifier (e.g. \"dense_la\")");
  }
  return Status::Ok();
}

// The optional "structs": named structs of scalar fields.
Status ParseSpecStructs(const JsonPath& root, ProblemSpec* spec) {
  if (!root.Has("structs")) return Status::Ok();
  JsonPath ss = root["structs"];
  RG_RETURN_IF_ERROR(ss.ExpectArray());
  for (size_t i = 0; i < ss.json().size(); ++i) {
    JsonPath sp = ss[i];
    RG_RETURN_IF_ERROR(sp.CheckKeys({"name", "fields"}));
    StructType st;
    RG_ASSIGN_OR_RETURN(st.name, sp.GetString("name"));
    if (!IsIdentifier(st.name) || ParseScalarType(st.name) || scan::IsKeyword(st.name)) {
      return sp.FieldError("name", "not a usable struct name: " + st.name);
    }
    if (!sp.Has("fields")) return sp.FieldError("fields", "required field is missing");
    JsonPath fs = sp["fields"];
    RG_RETURN_IF_ERROR(fs.ExpectArray());
    if (fs.json().empty()) return fs.Error("a struct needs at least one field");
    for (size_t k = 0; k < fs.json().size(); ++k) {
      JsonPath fp = fs[k];
      RG_RETURN_IF_ERROR(fp.CheckKeys({"name", "type"}));
      StructField f;
      RG_ASSIGN_OR_RETURN(f.name, fp.GetString("name"));
      if (!IsIdentifier(f.name) || scan::IsKeyword(f.name)) {
        return fp.FieldError("name", "not a usable C++ name (an identifier, not a keyword)");
      }
      RG_ASSIGN_OR_RETURN(std::string tn, fp.GetString("type"));
      auto t = ParseScalarType(tn);
      if (!t) return fp.FieldError("type", "struct fields need a scalar type, got \"" + tn + "\"");
      f.type = *t;
      st.fields.push_back(f);
    }
    spec->structs.push_back(std::move(st));
  }
  return Status::Ok();
}

// The optional "returns": "void", a type, or {type, tolerance}.
Status ParseSpecReturns(const JsonPath& root, ProblemSpec* spec) {
  if (root.Has("returns")) {
    const Json& r = root.json()["returns"];
    if (r.is_string()) {
      if (r.get<std::string>() != "void") {
        RG_ASSIGN_OR_RETURN(auto t, ParseElementType(root, "returns", *spec));
        spec->returns = t;
      }
    } else {
      JsonPath rp = root["returns"];
      RG_RETURN_IF_ERROR(rp.CheckKeys({"type", "tolerance"}));
      RG_ASSIGN_OR_RETURN(auto t, ParseElementType(rp, "type", *spec));
      spec->returns = t;
      RG_ASSIGN_OR_RETURN(spec->return_tolerance, ParseTolerance(rp));
    }
  }
  return Status::Ok();
}

// "sizes" (extra size variables) and "args": uniquely named arguments.
Status ParseSpecArgs(const JsonPath& root, ProblemSpec* spec) {
  RG_ASSIGN_OR_RETURN(spec->extra_sizes, root.GetStringList("sizes"));
  for (size_t i = 0; i < spec->extra_sizes.size(); ++i) {
    if (!IsIdentifier(spec->extra_sizes[i])) {
      return root.FieldError("sizes[" + std::to_string(i) + "]", "not an identifier");
    }
  }
  if (!root.Has("args")) return root.FieldError("args", "required field is missing");
  JsonPath args = root["args"];
  RG_RETURN_IF_ERROR(args.ExpectArray());
  std::set<std::string> names;
  for (size_t i = 0; i < args.json().size(); ++i) {
    ArgSpec a;
    RG_RETURN_IF_ERROR(ParseArg(args[i], *spec, &a));
    if (!names.insert(a.name).second) return args[i].FieldError("name", "duplicate argument name '" + a.name + "'");
    for (const auto& e : spec->extra_sizes) {
      if (e == a.name) return args[i].FieldError("name", "'" + a.name + "' is also declared in \"sizes\"");
    }
    spec->args.push_back(std::move(a));
  }
  return Status::Ok();
}

// One entry of "sparse": a CSR or COO matrix generator.
Result<SparseSpec> ParseSparseMatrix(const JsonPath& sp, const ProblemSpec& spec) {
  RG_RETURN_IF_ERROR(sp.CheckKeys({"name", "format", "rows", "cols", "nnz_per_row", "values", "diagonal"}));
  SparseSpec s;
  RG_ASSIGN_OR_RETURN(s.name, sp.GetString("name"));
  RG_ASSIGN_OR_RETURN(std::string fmt, sp.GetString("format", "csr"));
  if (fmt == "csr") s.format = SparseSpec::Format::kCsr;
  else if (fmt == "coo") s.format = SparseSpec::Format::kCoo;
  else return sp.FieldError("format", "unknown sparse format \"" + fmt + "\" (csr, coo)");
  RG_ASSIGN_OR_RETURN(s.rows, NumberOrExpr(sp, "rows", ""));
  RG_ASSIGN_OR_RETURN(s.cols, NumberOrExpr(sp, "cols", ""));
  if (s.rows.empty()) return sp.FieldError("rows", "required field is missing");
  if (s.cols.empty()) return sp.FieldError("cols", "required field is missing");
  if (sp.Has("nnz_per_row")) {
    const Json& r = sp.json()["nnz_per_row"];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() || !r[1].is_number_integer() ||
        r[0].get<int64_t>() < 0 || r[1].get<int64_t>() < r[0].get<int64_t>()) {
      return sp.FieldError("nnz_per_row", "expected [min, max] with 0 <= min <= max");
    }
    s.nnz_per_row_min = r[0].get<int64_t>();
    s.nnz_per_row_max = r[1].get<int64_t>();
  }
  ElementType vt;
  vt.scalar = ScalarType::kDouble;
  if (sp.Has("values")) {
    RG_ASSIGN_OR_RETURN(s.values, ParseDistribution(sp["values"], vt, spec));
  } else {
    s.values.kind = Distribution::Kind::kUniform;
    s.values.min = "-1";
    s.values.max = "1";
  }
  if (sp.Has("diagonal")) {
    RG_ASSIGN_OR_RETURN(Distribution dd, ParseDistribution(sp["diagonal"], vt, spec));
    if (dd.kind != Distribution::Kind::kUniform && dd.kind != Distribution::Kind::kNormal &&
        dd.kind != Distribution::Kind::kConstant) {
      return sp["diagonal"].FieldError("dist", "a diagonal takes uniform, normal or constant");
    }
    s.diagonal = dd;
  }
  return s;
}

// "tests", "timing", "allow_constant_output", "libraries" and "time_limit_s".
Status ParseSpecTests(const JsonPath& root, ProblemSpec* spec) {
  if (!root.Has("tests")) return root.FieldError("tests", "required field is missing");
  JsonPath tests = root["tests"];
  RG_RETURN_IF_ERROR(tests.ExpectArray());
  for (size_t i = 0; i < tests.json().size(); ++i) {
    RG_ASSIGN_OR_RETURN(TestCase tc, ParseTestCase(tests[i], *spec));
    spec->tests.push_back(std::move(tc));
  }
  if (!root.Has("timing")) return root.FieldError("timing", "required field is missing");
  RG_ASSIGN_OR_RETURN(spec->timing, ParseTestCase(root["timing"], *spec));

  RG_ASSIGN_OR_RETURN(spec->allow_constant_output, root.GetBool("allow_constant_output", false));
  RG_ASSIGN_OR_RETURN(spec->libraries, root.GetStringList("libraries"));
  for (size_t i = 0; i < spec->libraries.size(); ++i) {
    bool known = false;
    for (auto l : kLibraries) known = known || spec->libraries[i] == l;
    if (!known) {
      return root.FieldError("libraries[" + std::to_string(i) + "]",
                             "unknown library \"" + spec->libraries[i] +
                                 "\" (cublas, cusparse, cufft, curand, thrust, cub)");
    }
  }
  RG_ASSIGN_OR_RETURN(spec->time_limit_s, root.GetNumber("time_limit_s", 60));
  if (spec->time_limit_s <= 0 || spec->time_limit_s > 3600) {
    return root.FieldError("time_limit_s", "must be in (0, 3600]");
  }
  return Status::Ok();
}

}  // namespace

Result<ProblemSpec> ParseProblemSpec(const std::string& json_text, const std::string& file) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(json_text, file));
  JsonPath root(j, file);
  RG_RETURN_IF_ERROR(CheckFilledIn(root));
  RG_RETURN_IF_ERROR(root.CheckKeys({"format", "version", "name", "function", "returns", "structs",
                                     "sparse", "sizes", "args", "tests", "timing", "allow_constant_output",
                                     "libraries", "time_limit_s", "notes", "category", "kernel"}));
  ProblemSpec spec;
  RG_RETURN_IF_ERROR(ParseSpecHeader(root, &spec));
  RG_RETURN_IF_ERROR(ParseSpecStructs(root, &spec));
  RG_RETURN_IF_ERROR(ParseSpecReturns(root, &spec));
  RG_RETURN_IF_ERROR(ParseSpecArgs(root, &spec));
  if (root.Has("sparse")) {
    JsonPath sps = root["sparse"];
    RG_RETURN_IF_ERROR(sps.ExpectArray());
    for (size_t i = 0; i < sps.json().size(); ++i) {
      RG_ASSIGN_OR_RETURN(SparseSpec s, ParseSparseMatrix(sps[i], spec));
      spec.sparse.push_back(std::move(s));
    }
  }
  RG_RETURN_IF_ERROR(ValidateExpressions(root, spec));
  RG_RETURN_IF_ERROR(ParseSpecTests(root, &spec));
  if (spec.returns && spec.HoldsStrings(*spec.returns)) {
    return root.FieldError("returns", "strings are only supported in vector inputs");
  }
  if (root.Has("kernel")) {
    RG_ASSIGN_OR_RETURN(KernelSpec k, ParseKernel(root["kernel"], spec));
    spec.kernel = std::move(k);
  }
  bool has_output = spec.returns.has_value();
  for (const auto& a : spec.args) has_output = has_output || a.is_checked();
  if (!has_output) return root.FieldError("args", "the function has no output, in-out or return value to check");
  RG_RETURN_IF_ERROR(ValidateTests(root, spec));
  return spec;
}

namespace {

// Reads file `name` of problem folder `dir`: a regular file of at most
// 256 MiB that is in the folder (a link leading out of it, to /etc/passwd
// or a device, is refused with its target, never read).
Result<std::string> ReadProblemFile(const fs::path& dir, const char* name) {
  fs::path path = dir / name;
  std::error_code e1, e2;
  fs::path real = fs::weakly_canonical(path, e1);
  fs::path root = fs::weakly_canonical(dir, e2);
  fs::path rel = real.lexically_relative(root);
  if (!e1 && !e2 && (rel.empty() || *rel.begin() == "..")) {
    return Status::InvalidArgument(path.string() + ": leads outside the problem folder (to " +
                                   real.string() + ")");
  }
  return ReadInputFile(path);
}

}  // namespace

Result<Problem> LoadProblem(const std::filesystem::path& dir) {
  Problem p;
  p.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::NotFound(dir.string() + ": not a problem folder");
  RG_ASSIGN_OR_RETURN(p.spec_text, ReadProblemFile(dir, "problem.json"));
  RG_ASSIGN_OR_RETURN(p.spec, ParseProblemSpec(p.spec_text, (dir / "problem.json").string()));
  auto ref = ReadProblemFile(dir, "reference.cpp");
  if (!ref.ok()) return ref.status().WithContext("problem " + p.spec.name + " needs reference.cpp");
  p.reference_source = std::move(*ref);
  if (p.reference_source.find(p.spec.function) == std::string::npos) {
    return Status::InvalidArgument((dir / "reference.cpp").string() + ": does not mention the function '" +
                                   p.spec.function + "' named in problem.json");
  }
  {
    const auto& r = p.spec.returns;
    const std::string ret = !r ? "" : r->scalar ? std::string(ScalarTypeName(*r->scalar))
                                                : p.spec.structs[r->struct_index].name;
    RG_RETURN_IF_ERROR(verify::CheckReferenceSource(p.reference_source, (dir / "reference.cpp").string(),
                                                    p.spec.function, !r.has_value(), ret));
  }
  auto desc = ReadProblemFile(dir, "description.md");
  if (!desc.ok()) return desc.status().WithContext("problem " + p.spec.name + " needs description.md");
  p.description = std::move(*desc);
  if (Trim(p.description).empty()) {
    return Status::InvalidArgument((dir / "description.md").string() + ": is empty");
  }
  if (fs::exists(dir / "solution.cu", ec)) {
    RG_ASSIGN_OR_RETURN(std::string sol, ReadProblemFile(dir, "solution.cu"));
    p.solution_source = std::move(sol);
  }
  if (fs::exists(dir / "kernel.cu", ec)) {
    if (!p.spec.kernel) {
      return Status::InvalidArgument((dir / "kernel.cu").string() +
                                     ": a kernel-form solution needs a \"kernel\" section in problem.json");
    }
    RG_ASSIGN_OR_RETURN(std::string ks, ReadProblemFile(dir, "kernel.cu"));
    p.kernel_solution_source = std::move(ks);
  }
  return p;
}

}  // namespace regrapht
