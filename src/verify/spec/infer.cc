#include "verify/spec/infer.h"

#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

// One spelling of a type: single spaces between words, none around `*`, `&`,
// `<`, `>`; `, ` between template arguments; a space between `>` and a word
// ("std::vector<double> const&").
std::string Spell(std::string s) {
  s = std::regex_replace(s, std::regex(R"(\s+)"), " ");
  s = std::regex_replace(s, std::regex(R"(\s*([*&<>,\[\]])\s*)"), "$1");
  s = std::regex_replace(s, std::regex(R"(,)"), ", ");
  s = std::regex_replace(s, std::regex(R"(>(\w))"), "> $1");
  s = std::regex_replace(s, std::regex(R"(([*&])(\w))"), "$1 $2");
  return std::string(Trim(s));
}

// A type without restrict qualifiers (they do not change the signature).
std::string Unrestrict(const std::string& t) {
  return Spell(std::regex_replace(t, std::regex(R"(\b(__restrict__|__restrict|restrict)\b)"), " "));
}

// Spec type name of a C++ scalar type; "" if not one.
std::string ScalarName(std::string t) {
  t = std::regex_replace(Spell(t), std::regex(R"(^std::)"), "");
  static const std::map<std::string, std::string> kMap = {
      {"float", "float"},
      {"double", "double"},
      {"int", "int32"},
      {"signed", "int32"},
      {"signed int", "int32"},
      {"int32_t", "int32"},
      {"unsigned", "uint32"},
      {"unsigned int", "uint32"},
      {"uint32_t", "uint32"},
      {"long", "int64"},
      {"long int", "int64"},
      {"long long", "int64"},
      {"int64_t", "int64"},
      {"size_t", "size_t"},
      {"unsigned long", "uint64"},
      {"uint64_t", "uint64"},
      {"uint8_t", "uint8"},
      {"unsigned char", "uint8"},
      {"int8_t", "int8"},
      {"signed char", "int8"},
      {"char", "char"},
      {"bool", "bool"},
      {"short", "int16"},
      {"int16_t", "int16"},
      {"complex<float>", "complex_float"},
      {"complex<double>", "complex_double"},
  };
  auto it = kMap.find(t);
  return it == kMap.end() ? "" : it->second;
}

// Integer types a by-value parameter of is a size (wide enough for the test sizes).
bool IsSizeType(const std::string& spec_type) {
  static const std::set<std::string> kSizes = {"int32", "int64", "uint32", "uint64", "size_t"};
  return kSizes.count(spec_type) > 0;
}

bool IsFloatingName(const std::string& s) {
  return s == "float" || s == "double" || s == "complex_float" || s == "complex_double";
}

// Default distribution of a scalar element, as docs/problem-format.md's
// defaults: uniform [-1, 1] floating, [0, 1] bool, [0, 100] other integers.
OrderedJson DefaultValues(const std::string& t) {
  OrderedJson v;
  v["dist"] = "uniform";
  v["min"] = IsFloatingName(t) ? -1 : 0;
  v["max"] = IsFloatingName(t) ? 1 : (t == "bool" ? 1 : 100);
  return v;
}

std::string Fill(const std::string& what) { return std::string(kFillIn) + what; }

// --- structs the source defines -------------------------------------------

struct SourceStruct {
  bool found = false;
  std::vector<std::pair<std::string, std::string>> fields;  // name, spec type ("" if unsupported)
  std::vector<std::string> unsupported;                     // "name (type)"
};

// One declarator of a data member: `x`, `v[3]`, `*p`; "" name if none.
struct MemberDeclarator {
  std::string name, stars;
  int64_t extent = -1;  // -1: not an array; 0: `[]` or a non-literal extent
};

MemberDeclarator ReadDeclarator(const std::string& d) {
  std::smatch m;
  MemberDeclarator out;
  if (!std::regex_match(d, m, std::regex(R"(([*&]*)\s*([A-Za-z_]\w*)\s*(\[\s*(\w*)\s*\])?)")))
    return out;
  out.stars = m[1].str();
  out.name = m[2].str();
  if (m[3].matched) out.extent = ParseInt(m[4].str()).value_or(0);
  return out;
}

// The data members between the braces `open` and `close`: nested braces
// (inline method bodies, brace initialisers, nested types) are skipped.
void ReadFields(const scan::ScannedSource& s, size_t open, size_t close, SourceStruct* out) {
  std::string body;
  for (size_t i = open + 1; i < close; ++i) {
    if (!s.IsCode(i)) continue;
    if (s.Text(i) == "{" && s.Match(i) != scan::kNone) {
      body += " ; ";
      i = s.Match(i);
      continue;
    }
    body += std::string(s.Text(i)) + " ";
  }
  body = std::regex_replace(body, std::regex(R"(\b(public|private|protected)\s*:)"), ";");
  const std::vector<std::string> pieces = Split(body, ';');
  for (size_t p = 0; p < pieces.size(); ++p) {
    std::string decl = Spell(pieces[p]);
    // A nested type's head (its braces became `;`): a member only if
    // declarators follow, and then not a scalar one.
    if (std::regex_match(decl, std::regex(R"((struct|class|union|enum)( \w+)?)"))) {
      const std::string next = p + 1 < pieces.size() ? Spell(pieces[p + 1]) : "";
      for (const std::string& d :
           next.empty() ? std::vector<std::string>{} : scan::SplitTopLevel(next)) {
        out->unsupported.push_back(Spell(d) + " (" + decl + ")");
        out->fields.push_back({Spell(d), ""});
      }
      ++p;
      continue;
    }
    if (decl.empty() || decl.find('(') != std::string::npos || StartsWith(decl, "static ") ||
        StartsWith(decl, "using ") || StartsWith(decl, "typedef ") || StartsWith(decl, "friend "))
      continue;  // methods, static members, aliases
    std::vector<std::string> parts = scan::SplitTopLevel(decl);
    for (auto& part : parts) part = Spell(std::regex_replace(part, std::regex(R"(=.*$)"), ""));
    // The first part is "TYPE DECLARATOR": the declarator is its last name.
    std::smatch m;
    if (parts.empty() ||
        !std::regex_match(parts[0], m,
                          std::regex(R"((.*?)\s*([*&]*\s*[A-Za-z_]\w*\s*(\[\s*\w*\s*\])?))")) ||
        Trim(m[1].str()).empty())
      continue;
    const std::string cpp_type = Spell(m[1].str());
    const std::string type = ScalarName(cpp_type);
    parts[0] = m[2].str();
    for (const std::string& part : parts) {
      MemberDeclarator d = ReadDeclarator(part);
      if (d.name.empty()) continue;
      if (type.empty() || !d.stars.empty() || d.extent == 0 || d.extent > 64) {
        out->unsupported.push_back(d.name + " (" + cpp_type + d.stars +
                                   (d.extent >= 0 ? "[]" : "") + ")");
        out->fields.push_back({d.name, ""});
      } else if (d.extent > 0) {
        for (int64_t k = 0; k < d.extent; ++k)
          out->fields.push_back({d.name + "_" + std::to_string(k), type});
      } else {
        out->fields.push_back({d.name, type});
      }
    }
  }
}

// Reads `struct|class NAME { ... };` or `typedef struct [TAG] { ... } NAME;`
// from the blanked code: the data members with scalar types; a fixed-size
// scalar array `T v[K]` becomes fields v_0 .. v_{K-1} (the same layout).
SourceStruct FindStruct(const scan::ScannedSource& scanned, const std::string& code,
                        const std::string& name) {
  SourceStruct out;
  const std::vector<std::regex> heads = {
      std::regex("\\b(struct|class)\\s+" + name + "\\s*(final\\s*)?\\{"),
      std::regex("\\btypedef\\s+struct\\s*\\w*\\s*\\{")};
  for (size_t h = 0; h < heads.size() && !out.found; ++h) {
    for (std::sregex_iterator it(code.begin(), code.end(), heads[h]), end; it != end; ++it) {
      size_t open = scanned.TokenAt(it->position(0) + it->length(0) - 1);
      size_t close = open == scan::kNone ? scan::kNone : scanned.Match(open);
      if (close == scan::kNone) continue;
      if (h == 1) {  // typedef struct { ... } NAME;
        std::smatch after;
        std::string rest = code.substr(scanned.tokens()[close].end, 200);
        if (!std::regex_search(rest, after, std::regex(R"(^\s*(\w+)\s*;)")) ||
            after[1].str() != name)
          continue;
      }
      out.found = true;
      ReadFields(scanned, open, close, &out);
      break;
    }
  }
  return out;
}

// --- what the body does with a parameter ------------------------------------

struct Use {
  bool written = false;  // assigned through, incremented, resized
  bool resized = false;  // a vector's push_back, resize, clear, ...
  bool escapes = false;  // passed to a call, aliased, pointer arithmetic: may be written
};

bool IsAssignOp(std::string_view t) {
  static const std::set<std::string_view> kOps = {
      "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
  return kOps.count(t) > 0;
}

// Lexical: enough to tell "only read" from "written or handed on".
Use UseOf(const scan::ScannedSource& s, size_t body_open, size_t body_close,
          const std::string& name) {
  static const std::set<std::string_view> kResize = {
      "push_back", "emplace_back", "resize",   "clear", "insert",
      "erase",     "assign",       "pop_back", "swap",  "emplace"};
  static const std::set<std::string_view> kReadOnly = {"size",     "empty",  "capacity",
                                                       "max_size", "cbegin", "cend"};
  Use u;
  for (size_t i = body_open + 1; i < body_close; ++i) {
    if (!s.IsCode(i) || s.Text(i) != name) continue;
    const size_t prev = s.PrevCode(i);
    const std::string_view p = prev == scan::kNone ? "" : s.Text(prev);
    if (p == "." || p == "->" || p == "::") continue;  // a member of something else
    if (p == "++" || p == "--" || p == "&") u.written = true;
    size_t next = s.NextCode(i);
    // Past subscripts and member accesses: `x[i]`, `x[i].f`, `x[i][j]`.
    bool subscripted = false;
    while (next != scan::kNone && next < body_close) {
      std::string_view t = s.Text(next);
      if (t == "[" && s.Match(next) != scan::kNone) {
        next = s.NextCode(s.Match(next));
        subscripted = true;
      } else if ((t == "." || t == "->") && s.NextCode(next) < body_close) {
        size_t member = s.NextCode(next);
        size_t after = s.NextCode(member);
        if (!subscripted && after != scan::kNone && s.Text(after) == "(") {
          if (kResize.count(s.Text(member)))
            u.resized = u.written = true;
          else if (!kReadOnly.count(s.Text(member)))
            u.escapes = true;  // begin(), data(), ...: handed on
          next = scan::kNone;
          break;
        }
        next = after;
      } else {
        break;
      }
    }
    const std::string_view n = next == scan::kNone ? "" : s.Text(next);
    if (IsAssignOp(n)) u.written = true;
    // Handed on whole: `f(x, n)`, `float* q = x;`, `x + k`, `std::swap(x[i], x[j])`.
    const bool call_arg = (p == "(" || p == ",") && (n == ")" || n == ",");
    if (!subscripted && (call_arg || p == "=" || n == "+" || n == "-")) u.escapes = true;
    if (subscripted && call_arg) u.escapes = true;
    if (p == ":") u.escapes = true;  // `for (T& e : x)` may write through e
    // `T& r = x[i];` (a reference bound to an element) may write through r.
    if (subscripted && p == "=") {
      size_t declared = s.PrevCode(prev);
      size_t amp = s.PrevCode(declared);
      if (amp != scan::kNone && s.Text(amp) == "&") u.escapes = true;
    }
    if (p == "*" && IsAssignOp(n)) u.written = true;
  }
  return u;
}

// Whether the body subscripts `name` with `size` as a factor (`x[i * n + j]`,
// `x[n * i]`): a row-major n x n array.
bool IndexedAsMatrix(const scan::ScannedSource& s, size_t body_open, size_t body_close,
                     const std::string& name, const std::string& size) {
  for (size_t i = body_open + 1; i < body_close; ++i) {
    if (!s.IsCode(i) || s.Text(i) != name) continue;
    size_t open = s.NextCode(i);
    if (open == scan::kNone || s.Text(open) != "[" || s.Match(open) == scan::kNone) continue;
    for (size_t k = s.NextCode(open); k != scan::kNone && k < s.Match(open); k = s.NextCode(k)) {
      if (s.Text(k) != size) continue;
      size_t prev = s.PrevCode(k), next = s.NextCode(k);
      if ((prev != scan::kNone && s.Text(prev) == "*") ||
          (next != scan::kNone && s.Text(next) == "*"))
        return true;
    }
  }
  return false;
}

// Loop variables bounded by one size parameter: `for (int i = 0; i < rows;
// ++i)` gives i -> rows. A variable two loops bound by different sizes is
// left out.
std::map<std::string, std::string> LoopBounds(const scan::ScannedSource& s, size_t body_open,
                                              size_t body_close,
                                              const std::vector<std::string>& sizes) {
  std::map<std::string, std::string> out;
  std::set<std::string> conflicted;
  for (size_t i = body_open + 1; i < body_close; ++i) {
    if (!s.IsCode(i) || s.Text(i) != "for") continue;
    const size_t open = s.NextCode(i);
    if (open == scan::kNone || s.Text(open) != "(" || s.Match(open) == scan::kNone) continue;
    size_t semi = scan::kNone;
    for (size_t k = s.NextCode(open); k != scan::kNone && k < s.Match(open); k = s.NextCode(k)) {
      const std::string_view t = s.Text(k);
      if ((t == "(" || t == "[" || t == "{") && s.Match(k) != scan::kNone) {
        k = s.Match(k);
      } else if (t == ";") {
        semi = k;
        break;
      }
    }
    // The condition: `v < B;` or `v != B;` with B a size parameter.
    const size_t v = s.NextCode(semi), op = s.NextCode(v), b = s.NextCode(op), end = s.NextCode(b);
    if (semi == scan::kNone || end == scan::kNone || s.Text(end) != ";") continue;
    if (s.Text(op) != "<" && s.Text(op) != "!=") continue;
    const std::string var(s.Text(v)), bound(s.Text(b));
    if (std::find(sizes.begin(), sizes.end(), bound) == sizes.end()) continue;
    if (out.count(var) && out[var] != bound) conflicted.insert(var);
    out[var] = bound;
  }
  for (const auto& c : conflicted) out.erase(c);
  return out;
}

// The length every subscript of `name` implies with `bounds`: `x[i]` (i <
// n) -> n; `x[i * cols + j]` or `x[cols * i + j]` (i < rows, j < cols) ->
// rows*cols. "" when a subscript is neither or two disagree.
std::string LengthFromSubscripts(const scan::ScannedSource& s, size_t body_open, size_t body_close,
                                 const std::string& name,
                                 const std::map<std::string, std::string>& bounds) {
  auto bound = [&](const std::string& v) {
    auto it = bounds.find(v);
    return it == bounds.end() ? std::string() : it->second;
  };
  std::string found;
  for (size_t i = body_open + 1; i < body_close; ++i) {
    if (!s.IsCode(i) || s.Text(i) != name) continue;
    const size_t open = s.NextCode(i);
    if (open == scan::kNone || s.Text(open) != "[" || s.Match(open) == scan::kNone) continue;
    std::vector<std::string> t;
    for (size_t k = s.NextCode(open); k != scan::kNone && k < s.Match(open); k = s.NextCode(k))
      t.emplace_back(s.Text(k));
    std::string len;
    if (t.size() == 1) {
      len = bound(t[0]);
    } else if (t.size() == 5 && t[1] == "*" && t[3] == "+") {
      const std::string &a = t[0], &b = t[2], &w = t[4];
      if (!bound(w).empty() && bound(w) == b && !bound(a).empty()) len = bound(a) + "*" + b;
      if (!bound(w).empty() && bound(w) == a && !bound(b).empty()) len = bound(b) + "*" + a;
    }
    if (len.empty() || (!found.empty() && found != len)) return "";
    found = len;
  }
  return found;
}

// --- the spec being built ---------------------------------------------------

struct Param {
  std::string type, name;  // Spell()ed type; name ("argN" when unnamed)
  std::string Text() const { return type + " " + name; }
};

class Builder {
 public:
  Builder(const scan::ScannedSource& s, const std::string& code, const scan::FunctionDef& f,
          InferredSpec* out)
      : s_(s), code_(code), f_(f), out_(out) {}

  void Run(const std::string& function);

 private:
  struct Elem {
    std::string spec_type;  // scalar spec name or struct name; "" unsupported
    bool is_struct = false;
  };
  void Refuse(const std::string& reason) {
    if (std::find(reasons_.begin(), reasons_.end(), reason) == reasons_.end())
      reasons_.push_back(reason);
  }
  void ToFill(const std::string& path) {
    out_->to_fill.push_back(path);
    unknown_ = true;
  }
  Elem Element(const std::string& cpp, const std::string& where);
  OrderedJson ValuesFor(const Elem& e);
  void Parameter(const Param& p);
  void Array(const Param& p, OrderedJson a, const Elem& e, bool is_const, const std::string& pass);
  void Lengths();
  bool SubscriptLengths();
  void Cases();
  std::vector<Param> Params();

  const scan::ScannedSource& s_;
  const std::string& code_;
  const scan::FunctionDef& f_;
  InferredSpec* out_;
  OrderedJson spec_;
  OrderedJson args_ = OrderedJson::array();
  OrderedJson structs_ = OrderedJson::array();
  std::map<std::string, SourceStruct> struct_defs_;
  std::set<std::string> template_params_;
  std::vector<std::string> reasons_, sizes_;
  std::vector<size_t> need_length_;  // pointer and vector args without a length yet
  bool has_output_ = false;
  bool unknown_ = false;  // something is marked: an output may hide there
  bool square_ = false;   // one size n and an n x n array: n follows square roots
};

// A scalar or a struct the source defines. Unsupported: "" (a reason is
// recorded naming `where`).
Builder::Elem Builder::Element(const std::string& cpp, const std::string& where) {
  Elem e;
  e.spec_type = ScalarName(cpp);
  if (!e.spec_type.empty()) return e;
  const std::string name = std::regex_replace(Spell(cpp), std::regex(R"(^(struct|class) )"), "");
  if (template_params_.count(name)) {
    Refuse(where + ": '" + name + "' is a template parameter");
    return Elem{};
  }
  if (!std::regex_match(name, std::regex(R"([A-Za-z_]\w*)")) || scan::IsKeyword(name)) {
    Refuse(where + ": type '" + Spell(cpp) +
           "' is not supported (scalars, and structs of scalars the source defines)");
    return e;
  }
  e.is_struct = true;
  e.spec_type = name;
  if (struct_defs_.count(name)) return e;
  SourceStruct st = FindStruct(s_, code_, name);
  struct_defs_[name] = st;
  const std::string path = "structs[" + std::to_string(structs_.size()) + "]";
  OrderedJson sj;
  sj["name"] = name;
  OrderedJson fields = OrderedJson::array();
  if (!st.found) {
    Refuse("struct " + name + " is not defined in the source (a header?): its fields are unknown");
    fields.push_back(
        {{"name", Fill("first field's name")}, {"type", Fill("its type (float, int32, ...)")}});
    ToFill(path + ".fields");
  } else {
    std::vector<std::string> names;
    for (size_t k = 0; k < st.fields.size(); ++k) {
      const auto& [fname, ftype] = st.fields[k];
      names.push_back(fname);
      if (ftype.empty()) ToFill(path + ".fields[" + std::to_string(k) + "].type");
      fields.push_back(
          {{"name", fname},
           {"type",
            ftype.empty() ? Fill("a scalar type; split arrays, flatten nested structs") : ftype}});
    }
    if (!st.unsupported.empty())
      Refuse("struct " + name + " has fields that are not scalars: " + Join(st.unsupported, ", "));
    out_->notes.push_back("struct " + name + " { " + Join(names, ", ") + " } from the source");
  }
  sj["fields"] = fields;
  structs_.push_back(sj);
  return e;
}

OrderedJson Builder::ValuesFor(const Elem& e) {
  if (!e.is_struct) return DefaultValues(e.spec_type);
  OrderedJson v;
  v["dist"] = "struct";
  OrderedJson fields = OrderedJson::object();
  // A field not understood gets the floating default, to adjust with its type.
  for (const auto& [fname, ftype] : struct_defs_[e.spec_type].fields)
    fields[fname] = DefaultValues(ftype.empty() ? "float" : ftype);
  if (!struct_defs_[e.spec_type].found) fields[Fill("field")] = DefaultValues("float");
  v["fields"] = fields;
  return v;
}

std::vector<Param> Builder::Params() {
  size_t begin = s_.tokens()[f_.params_open].end, end = s_.tokens()[f_.params_close].begin;
  std::string text = code_.substr(begin, end - begin);
  std::vector<Param> params;
  if (Spell(text) == "void" || Trim(text).empty()) return params;
  std::vector<std::string> parts = scan::SplitTopLevel(text);
  if (!parts.empty() && Trim(parts.back()).empty()) parts.pop_back();  // `f(int a, )`
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string t = Spell(parts[i]);
    if (auto eq = t.find('='); eq != std::string::npos) t = Spell(t.substr(0, eq));  // a default
    Param p;
    std::smatch m;
    // `T name[]` / `T name[K]` is a pointer; `T name` / `T* name`; unnamed: argN.
    if (std::regex_match(t, m, std::regex(R"((.*[^\w])?([A-Za-z_]\w*)\[\w*\])"))) {
      p.type = Unrestrict(m[1].str() + "*");
      p.name = m[2].str();
    } else if (std::regex_search(t, m, std::regex(R"(([A-Za-z_]\w*)$)")) && m.position(0) > 0 &&
               !ScalarName(t).size() && !scan::IsKeyword(m[1].str())) {
      p.name = m[1].str();
      p.type = Unrestrict(t.substr(0, t.size() - p.name.size()));
    } else {
      p.type = Unrestrict(t);
      p.name = "arg" + std::to_string(i);
      out_->notes.push_back("parameter " + std::to_string(i + 1) + " has no name: called " +
                            p.name + " in the spec");
    }
    params.push_back(p);
  }
  return params;
}

void Builder::Array(const Param& p, OrderedJson a, const Elem& e, bool is_const,
                    const std::string& pass) {
  const std::string what =
      pass == "vector" ? "std::vector<" + e.spec_type + ">" : "array of " + e.spec_type;
  std::string role = "input";
  if (!is_const) {
    Use u = UseOf(s_, f_.body_open, f_.body_close, p.name);
    if (u.resized && pass == "vector") {
      role = "output";
      a["resizable"] = true;
      out_->notes.push_back(p.name + ": output " + what +
                            " the function fills (it resizes it; starts empty)");
    } else if (u.written || u.escapes) {
      role = "inout";
      out_->notes.push_back(p.name + ": in-out " + what + " (read and written" +
                            (u.written ? "" : ": it is passed on, so it may be") + ")");
    } else {
      a["const"] = false;
      out_->notes.push_back(p.name + ": input " + what +
                            " (not const, but the body only reads it)");
    }
  } else {
    out_->notes.push_back(p.name + ": input " + what);
  }
  a["role"] = role;
  a["type"] = e.spec_type;
  a["pass"] = pass;
  if (role != "input") has_output_ = true;
  if (role != "output") {
    a["values"] = ValuesFor(e);
    if (e.is_struct && !struct_defs_[e.spec_type].found)
      ToFill("args[" + std::to_string(args_.size()) + "].values.fields");
  }
  if (role != "output" || !a.contains("resizable")) need_length_.push_back(args_.size());
  args_.push_back(a);
}

void Builder::Parameter(const Param& p) {
  const std::string where = "args[" + std::to_string(args_.size()) + "] (" + p.Text() + ")";
  OrderedJson a;
  a["name"] = p.name;
  const std::string& t = p.type;
  std::smatch v;
  if (std::regex_match(t, v, std::regex(R"((const )?(?:std::)?vector<(.+)>( const)?&)"))) {
    Elem e = Element(v[2].str(), where);
    if (!e.spec_type.empty()) return Array(p, a, e, v[1].matched || v[3].matched, "vector");
  } else if (std::regex_match(t, v,
                              std::regex(R"((const )?(?:std::)?array<(.+), (\d+)>( const)?&)"))) {
    Elem e = Element(v[2].str(), where);
    if (!e.spec_type.empty()) {
      a["length"] = std::stoll(v[3].str());
      Array(p, a, e, v[1].matched || v[4].matched, "array");
      need_length_.pop_back();  // the constant K
      return;
    }
  } else if (std::regex_match(t, v, std::regex(R"((const )?([\w: <>,]+?)( const)?\*( const)?)"))) {
    Elem e = Element(v[2].str(), where);
    if (!e.spec_type.empty()) return Array(p, a, e, v[1].matched || v[3].matched, "pointer");
  } else if (std::regex_match(t, v, std::regex(R"((const )?([\w: <>,]+?)( const)?&)"))) {
    const std::string el = ScalarName(v[2].str());
    if (!el.empty() && !v[1].matched && !v[3].matched) {
      a["role"] = "inout";
      a["type"] = el;
      a["pass"] = "reference";
      a["values"] = DefaultValues(el);
      has_output_ = true;
      out_->notes.push_back(p.name + ": in-out " + el + " passed by reference");
      args_.push_back(a);
      return;
    }
    Refuse(where + ": " +
           (!el.empty() ? "a const reference to a scalar is not supported (pass it by value)"
                        : "references to structs or other types are not supported"));
  } else {
    const std::string plain = std::regex_replace(t, std::regex(R"(^const |(\s*const)$)"), "");
    const std::string el = ScalarName(plain);
    if (IsSizeType(el)) {
      a["role"] = "size";
      a["type"] = el;
      sizes_.push_back(p.name);
      out_->notes.push_back(p.name + ": size (the test cases choose it)");
      args_.push_back(a);
      return;
    }
    if (!el.empty()) {
      a["role"] = "scalar";
      a["type"] = el;
      a["values"] = DefaultValues(el);
      out_->notes.push_back(p.name + ": scalar " + el + ", uniform in " +
                            (IsFloatingName(el) ? "[-1, 1]"
                             : el == "bool"     ? "{0, 1}"
                                                : "[0, 100]"));
      args_.push_back(a);
      return;
    }
    Refuse(where + ": " +
           (ScalarName(plain).empty() && std::regex_match(plain, std::regex(R"(\w+)")) &&
                    !scan::IsKeyword(plain)
                ? "a struct or class passed by value is not supported (pass it by pointer)"
                : "type '" + t + "' is not supported"));
  }
  // Not understood: the template keeps the slot with every part marked.
  const std::string path = "args[" + std::to_string(args_.size()) + "]";
  if (std::find_if(reasons_.begin(), reasons_.end(),
                   [&](const std::string& r) { return StartsWith(r, where); }) == reasons_.end())
    Refuse(where + ": type '" + t + "' is not supported");
  a["role"] = Fill("input, output, inout, scalar or size");
  a["type"] = Fill("element type (C++ " + t + ")");
  a["pass"] = Fill("value, pointer, vector, reference or array");
  for (const char* k : {"role", "type", "pass"}) ToFill(path + "." + k);
  out_->notes.push_back(p.name + ": " + t + " not understood (template)");
  args_.push_back(a);
}

// Several sizes: the lengths the subscripts and loop bounds give
// (LengthFromSubscripts), set on the arrays they were found for. True when
// every array has one; then a size in no length (an index, say, must not
// take the test sizes blindly) is refused with its role marked.
bool Builder::SubscriptLengths() {
  const auto bounds = LoopBounds(s_, f_.body_open, f_.body_close, sizes_);
  bool all = true;
  std::set<std::string> used;
  for (size_t i : need_length_) {
    const std::string name = args_[i]["name"].get<std::string>();
    const std::string len = LengthFromSubscripts(s_, f_.body_open, f_.body_close, name, bounds);
    if (len.empty()) {
      all = false;
      continue;
    }
    args_[i]["length"] = len;
    for (const std::string& v : Split(len, '*')) used.insert(v);
    out_->notes.push_back(name + ": length " + len + " (from its subscripts and the loop bounds)");
  }
  if (!all) return false;
  // Every array has a length: a size in none of them is marked, not guessed.
  for (size_t k = 0; k < args_.size(); ++k) {
    const std::string name = args_[k]["name"].get<std::string>();
    if (args_[k]["role"] != "size" || used.count(name)) continue;
    Refuse("size parameter " + name +
           " is in no array's length: a size the tests set, or a value (an index, a count)?");
    args_[k]["role"] = Fill("size (give it a use in a length) or scalar (then remove " + name +
                            " from every \"sizes\" of tests and timing)");
    ToFill("args[" + std::to_string(k) + "].role");
  }
  return true;
}

void Builder::Lengths() {
  const bool vectors_only = std::all_of(need_length_.begin(), need_length_.end(),
                                        [&](size_t i) { return args_[i]["pass"] == "vector"; });
  std::string length;
  if (need_length_.empty()) {
    // Nothing to give a length to.
  } else if (sizes_.size() == 1) {
    length = sizes_[0];
  } else if (sizes_.empty() && vectors_only) {
    length = "n";
    spec_["sizes"] = {"n"};
    sizes_.push_back("n");
    out_->notes.push_back("n: hidden size, the length of every vector");
  } else if (sizes_.empty()) {
    spec_["sizes"] = {"n"};
    sizes_.push_back("n");
    Refuse("pointer parameters but no size parameter: their lengths are unknown");
  } else if (!SubscriptLengths()) {
    Refuse("several size parameters (" + Join(sizes_, ", ") +
           "): which length belongs to which array is unknown");
  }
  std::vector<std::string> matrices;
  for (size_t i : need_length_) {
    if (args_[i].contains("length")) continue;  // from its subscripts
    if (!length.empty()) {
      const std::string name = args_[i]["name"].get<std::string>();
      const bool matrix =
          sizes_.size() == 1 && IndexedAsMatrix(s_, f_.body_open, f_.body_close, name, length);
      if (matrix) matrices.push_back(name);
      args_[i]["length"] = matrix ? length + "*" + length : length;
      continue;
    }
    const std::string name = args_[i]["name"].get<std::string>();
    args_[i]["length"] =
        Fill("length of " + name + ": a number or an expression over " + Join(sizes_, ", ") +
             (sizes_.size() > 1 ? " (e.g. " + Join(sizes_, "*") + ")" : ""));
    ToFill("args[" + std::to_string(i) + "].length");
  }
  if (!length.empty() && need_length_.size() > matrices.size()) {
    out_->notes.push_back(
        (matrices.empty() ? "every array has length " : "the other arrays have length ") + length);
  }
  square_ = !matrices.empty();
  if (!matrices.empty()) {
    out_->notes.push_back(Join(matrices, ", ") + ": length " + length + "*" + length +
                          " (indexed as a row-major " + length + " x " + length + " matrix)");
  }
}

void Builder::Cases() {
  const auto cases = InferredSizeCases(sizes_.size(), square_);
  OrderedJson tests = OrderedJson::array();
  auto sizes_of = [&](const std::vector<int64_t>& c) {
    OrderedJson sz = OrderedJson::object();
    for (size_t k = 0; k < sizes_.size(); ++k) sz[sizes_[k]] = c[k];
    return sz;
  };
  for (size_t i = 0; i + 1 < cases.size(); ++i)
    tests.push_back({{"sizes", sizes_of(cases[i])}, {"seed", i + 1}});
  spec_["tests"] = tests;
  spec_["timing"] = {{"sizes", sizes_of(cases.back())}, {"seed", 99}};
  if (square_) {
    out_->notes.push_back("tests at " + sizes_[0] +
                          " = 1, 7, 31, 65, 300 (twice, two seeds); timing at 1024 (" + sizes_[0] +
                          "*" + sizes_[0] + " = 1048576)");
  } else if (sizes_.size() <= 1) {
    out_->notes.push_back(
        "tests at sizes 1, 7, 300, 1000, 4099 (twice, two seeds); timing at 1048576");
  } else {
    std::vector<std::string> t;
    for (int64_t v : cases.back()) t.push_back(std::to_string(v));
    out_->notes.push_back("tests and timing: the product of " + Join(sizes_, ", ") +
                          " follows 1, 7, 300, 1000, 4099; timing at " + Join(t, " x "));
  }
}

void Builder::Run(const std::string& function) {
  spec_["format"] = "regrapht-problem";
  spec_["version"] = 1;
  spec_["name"] = function;
  spec_["function"] = function;
  if (f_.has_qualifier("template")) {
    // `template <typename T, class U, int K>`: T and U are no element types.
    for (size_t i = f_.head_begin; i < f_.name_begin && i != scan::kNone; i = s_.NextCode(i)) {
      const std::string_view w = s_.Text(i);
      size_t next = s_.NextCode(i);
      if ((w == "typename" || w == "class") && next != scan::kNone && next < f_.name_begin)
        template_params_.insert(std::string(s_.Text(next)));
    }
    Refuse("'" + function +
           "' is a function template: the harness calls one concrete function "
           "(write a non-template function that calls it, and name that one)");
    ToFill("reference.cpp");
  }
  const std::string ret = Unrestrict(f_.return_type);
  OrderedJson returns;
  if (ret != "void") {
    Elem e = Element(ret, "the return type");
    if (e.spec_type.empty()) {
      returns = Fill("the return type (C++ " + ret + ")");
      ToFill("returns");
    } else {
      returns = e.spec_type;
      has_output_ = true;
      out_->notes.push_back("returns " + ret + " (compared with the default tolerance for " +
                            e.spec_type + ")");
    }
  }
  for (const Param& p : Params()) Parameter(p);
  Lengths();
  if (!has_output_ && !unknown_) {
    Refuse(
        "no output: it returns void and writes no parameter (no non-const pointer, vector or "
        "reference "
        "that the body writes)");
    ToFill("args[*].role");
  }
  if (sizes_.empty() && need_length_.empty() && !unknown_)
    out_->notes.push_back(
        "no size: the test cases differ by their seeds only (the function's own loops are the "
        "work)");
  Cases();

  OrderedJson spec;
  for (const char* k : {"format", "version", "name", "function"}) spec[k] = spec_[k];
  if (!returns.is_null()) spec["returns"] = returns;
  if (!structs_.empty()) spec["structs"] = structs_;
  if (spec_.contains("sizes")) spec["sizes"] = spec_["sizes"];
  spec["args"] = args_;
  spec["tests"] = spec_["tests"];
  spec["timing"] = spec_["timing"];
  out_->complete = reasons_.empty();
  out_->problem = Join(reasons_, "; ");
  spec["notes"] =
      out_->complete
          ? "inferred by regrapht optimize (docs/inference.md); edit and pass with --spec if it is "
            "not right"
          // The marker is named here, but never right after a quote: a sed
          // over the values that start with it ("FILL IN: ...") must leave
          // this note whole (docs/inference.md).
          : "TEMPLATE written by regrapht optimize (docs/inference.md): " + out_->problem +
                ". Write every value marked " + kFillIn +
                "as it says, check with `regrapht problem check FOLDER`, then pass this file with --spec.";
  out_->spec_json = DumpJson(spec);
}

}  // namespace

std::vector<std::vector<int64_t>> InferredSizeCases(size_t dims, bool square) {
  constexpr int64_t kTarget[] = {1, 7, 300, 1000, 4099, 4099};
  constexpr double kTiming = 1 << 20;
  std::vector<std::vector<int64_t>> out;
  if (dims == 1 && square) {
    // n*n elements: 1, 49, 961, 4225, then 300 x 300 (the partial-block case), twice.
    for (int64_t n : {1, 7, 31, 65, 300, 300}) out.push_back({n});
    out.push_back({1024});
    return out;
  }
  if (dims <= 1) {
    for (int64_t t : kTarget) out.push_back(std::vector<int64_t>(dims, t));
    out.push_back(std::vector<int64_t>(dims, static_cast<int64_t>(kTiming)));
    return out;
  }
  // All 1; small and distinct (7, 5, 3, 2, ...); one long axis (300, not a
  // multiple of 32) first, then last; balanced near 4099 elements, twice.
  out.push_back(std::vector<int64_t>(dims, 1));
  std::vector<int64_t> tiny;
  for (size_t k = 0; k < dims; ++k) tiny.push_back(k < 3 ? 7 - 2 * static_cast<int64_t>(k) : 2);
  out.push_back(tiny);
  std::vector<int64_t> first(dims, 2), last(dims, 2);
  first.front() = 300;
  last.back() = 300;
  out.push_back(first);
  out.push_back(last);
  const int64_t b = std::llround(std::pow(4099.0, 1.0 / static_cast<double>(dims)));
  std::vector<int64_t> balanced;
  for (size_t k = 0; k < dims; ++k) balanced.push_back(std::max<int64_t>(2, k % 2 ? b - 1 : b + 1));
  out.push_back(balanced);
  out.push_back(balanced);
  const int64_t t = std::llround(std::pow(kTiming, 1.0 / static_cast<double>(dims)));
  out.push_back(std::vector<int64_t>(dims, t));
  return out;
}

Result<InferredSpec> InferSpec(const std::string& source, const std::string& function) {
  // The first definition of `function` (core/scanner.h: not a call, not a
  // prototype).
  const scan::ScannedSource scanned(source);
  const std::string code = scanned.Blanked();
  for (const scan::FunctionDef& f : scanned.Functions()) {
    if (!f.is_definition() || f.name != function) continue;
    InferredSpec out;
    Builder(scanned, code, f, &out).Run(function);
    return out;
  }
  return Status::InvalidArgument("no definition of the function '" + function + "' in the source");
}

namespace {

bool IsTypeKeyword(std::string_view w) {
  static const std::set<std::string_view> kTypes = {
      "int",      "float",    "double",   "char",     "bool",    "void",   "short", "long",
      "unsigned", "signed",   "wchar_t",  "char8_t",  "char16_t", "char32_t", "auto", "const",
      "volatile", "__restrict__", "__restrict", "restrict"};
  return kTypes.count(w) > 0;
}

}  // namespace

Status CheckReferenceSource(const std::string& source, const std::string& file, const std::string& function,
                            std::optional<bool> returns_void, const std::string& returns_type) {
  const scan::ScannedSource scanned(source);
  if (Status s = scanned.Check(); !s.ok()) {
    return Status::InvalidArgument(file + ": " + s.message() +
                                   ": not well-formed C++ (regrapht reads the sequential code as it is; fix it "
                                   "and run again)");
  }
  if (function == "main") {
    return Status::InvalidArgument(
        "--function main: the harness's driver defines main and calls the function to optimize; name the "
        "function that does the work (move main's loop into one if needed)");
  }
  if (scan::IsKeyword(function)) {
    return Status::InvalidArgument("--function " + function + ": a C++ keyword, not a function name");
  }
  std::vector<const scan::FunctionDef*> defs;
  const std::vector<scan::FunctionDef> all = scanned.Functions();
  for (const scan::FunctionDef& f : all) {
    if (f.is_definition() && f.name == function) defs.push_back(&f);
  }
  if (defs.size() > 1) {
    std::vector<std::string> lines;
    for (const auto* f : defs) lines.push_back(std::to_string(scanned.tokens()[f->name_token].line));
    return Status::InvalidArgument(file + ": '" + function + "' is defined " + std::to_string(defs.size()) +
                                   " times (lines " + Join(lines, ", ") +
                                   "): an overloaded function is ambiguous; give the one to optimize its own "
                                   "name and pass that with --function");
  }
  if (defs.empty()) return Status::Ok();  // the callers say what is missing in their own words
  const scan::FunctionDef& f = *defs.front();
  for (size_t i = scanned.NextCode(f.params_open); i != scan::kNone && i < f.params_close;
       i = scanned.NextCode(i)) {
    const scan::Token& t = scanned.tokens()[i];
    if (t.kind != scan::TokenKind::kKeyword || IsTypeKeyword(scanned.Text(i))) continue;
    const size_t next = scanned.NextCode(i);
    const std::string_view after = next == scan::kNone ? "" : scanned.Text(next);
    if (after == "," || after == ")" || after == "[" || after == "=") {
      return Status::InvalidArgument(file + ": line " + std::to_string(t.line) + ": the parameter name '" +
                                     std::string(scanned.Text(i)) + "' of '" + function +
                                     "' is a C++ keyword: not valid C++ (rename the parameter)");
    }
  }
  if (!returns_void) return Status::Ok();
  const std::string ret = Unrestrict(f.return_type);
  const int line = scanned.tokens()[f.name_token].line;
  const std::string where = file + ": line " + std::to_string(line) + ": '" + function + "' returns " +
                            (ret.empty() ? std::string("nothing") : ret);
  if (*returns_void && ret != "void") {
    return Status::InvalidArgument(where + ", but the spec has no \"returns\": its result would go unchecked "
                                           "(add \"returns\" to the spec)");
  }
  if (!*returns_void && ret == "void") {
    return Status::InvalidArgument(where + ", but the spec says \"returns\": \"" + returns_type +
                                   "\" (remove \"returns\", or fix the spec's function)");
  }
  const std::string scalar = ScalarName(std::regex_replace(ret, std::regex(R"(^const\s+)"), ""));
  if (!*returns_void && !scalar.empty() && !returns_type.empty() && scalar != returns_type) {
    return Status::InvalidArgument(where + " (\"" + scalar + "\" in a spec), but the spec says \"returns\": \"" +
                                   returns_type + "\"");
  }
  return Status::Ok();
}

}  // namespace regrapht::verify
