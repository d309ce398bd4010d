#include "verify/infer.h"

#include <cctype>
#include <regex>

#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

std::string Squash(std::string s) {
  s = std::regex_replace(s, std::regex(R"(\s+)"), " ");
  s = std::regex_replace(s, std::regex(R"(\s*([*&<>,])\s*)"), "$1");
  return std::string(Trim(s));
}

// Spec type name of a C++ scalar type; "" if not one.
std::string ScalarName(std::string t) {
  t = std::regex_replace(t, std::regex(R"(^std::)"), "");
  static const std::map<std::string, std::string> kMap = {
      {"float", "float"},       {"double", "double"},      {"int", "int32"},          {"int32_t", "int32"},
      {"unsigned", "uint32"},   {"unsigned int", "uint32"}, {"uint32_t", "uint32"},    {"long", "int64"},
      {"int64_t", "int64"},     {"size_t", "size_t"},      {"unsigned long", "uint64"}, {"uint64_t", "uint64"},
      {"uint8_t", "uint8"},     {"unsigned char", "uint8"}, {"int8_t", "int8"},        {"signed char", "int8"},
      {"char", "char"},         {"bool", "bool"},          {"short", "int16"},        {"int16_t", "int16"},
  };
  auto it = kMap.find(t);
  return it == kMap.end() ? "" : it->second;
}

bool IsIntegerSpec(const std::string& s) {
  return s != "float" && s != "double" && s != "bool" && !s.empty();
}

struct Param {
  std::string text, type, name;
};

}  // namespace

Result<InferredSpec> InferSpec(const std::string& source, const std::string& function) {
  // The first definition of `function` (core/scanner.h: not a call, not a
  // prototype); its return type without specifiers, and its parameters.
  const scan::ScannedSource scanned(source);
  const std::string code = scanned.Blanked();
  std::string params_text, return_type;
  bool found = false;
  for (const scan::FunctionDef& f : scanned.Functions()) {
    if (!f.is_definition() || f.name != function) continue;
    size_t begin = scanned.tokens()[f.params_open].end, end = scanned.tokens()[f.params_close].begin;
    params_text = code.substr(begin, end - begin);
    return_type = Squash(f.return_type);
    found = true;
    break;
  }
  if (!found) return Status::InvalidArgument("no definition of the function '" + function + "' in the source");

  InferredSpec out;
  OrderedJson spec;
  spec["format"] = "regrapht-problem";
  spec["version"] = 1;
  spec["name"] = function;
  spec["function"] = function;
  if (return_type != "void") {
    std::string r = ScalarName(return_type);
    if (r.empty()) return Status::InvalidArgument("return type '" + return_type + "' is not a scalar: write a spec");
    spec["returns"] = r;
    out.notes.push_back("returns " + return_type + " (compared with the default tolerance for " + r + ")");
  }
  std::vector<Param> params;
  if (Squash(params_text) != "void" && !Trim(params_text).empty()) {
    std::vector<std::string> parts = scan::SplitTopLevel(params_text);
    if (Trim(parts.back()).empty()) parts.pop_back();  // `f(int a, )` as before
    for (auto& raw : parts) {
      std::string t = Squash(raw);
      if (auto eq = t.find('='); eq != std::string::npos) t = std::string(Trim(t.substr(0, eq)));
      std::smatch nm;
      if (!std::regex_search(t, nm, std::regex(R"(([A-Za-z_]\w*)$)"))) {
        return Status::InvalidArgument("parameter '" + t + "' has no name");
      }
      Param p;
      p.text = t;
      p.name = nm[1].str();
      p.type = Squash(t.substr(0, t.size() - p.name.size()));
      params.push_back(p);
    }
  }
  std::vector<std::string> sizes;
  int vectors = 0, pointers = 0;
  OrderedJson args = OrderedJson::array();
  struct Arr {
    size_t index;
  };
  std::vector<size_t> arrays;
  for (const auto& p : params) {
    std::string t = p.type;
    OrderedJson a;
    a["name"] = p.name;
    std::smatch v;
    bool is_const = false;
    if (std::regex_match(t, v, std::regex(R"((const )?(std::)?vector<(.+)>(const)?&)"))) {
      std::string el = ScalarName(v[3].str());
      if (el.empty()) return Status::InvalidArgument("parameter '" + p.text + "': element type not supported: write a spec");
      is_const = v[1].matched || v[4].matched;
      a["role"] = is_const ? "input" : "inout";
      a["type"] = el;
      a["pass"] = "vector";
      ++vectors;
      arrays.push_back(args.size());
      out.notes.push_back(p.name + ": " + (is_const ? "input" : "in-out (read and written)") + " std::vector<" +
                          v[3].str() + ">");
    } else if (std::regex_match(t, v, std::regex(R"((const )?([\w: ]+?)(const)?\*(__restrict__|__restrict)?)"))) {
      std::string el = ScalarName(Squash(v[2].str()));
      if (el.empty()) return Status::InvalidArgument("parameter '" + p.text + "': pointer type not supported: write a spec");
      is_const = v[1].matched || v[3].matched;
      a["role"] = is_const ? "input" : "inout";
      a["type"] = el;
      a["pass"] = "pointer";
      ++pointers;
      arrays.push_back(args.size());
      out.notes.push_back(p.name + ": " + (is_const ? "input" : "in-out (read and written)") + " array of " +
                          Squash(v[2].str()));
    } else if (std::regex_match(t, v, std::regex(R"(([\w: ]+?)&)"))) {
      std::string el = ScalarName(Squash(v[1].str()));
      if (el.empty()) return Status::InvalidArgument("parameter '" + p.text + "' not supported: write a spec");
      a["role"] = "inout";
      a["type"] = el;
      a["pass"] = "reference";
      out.notes.push_back(p.name + ": in-out scalar passed by reference");
    } else {
      std::string el = ScalarName(std::regex_replace(t, std::regex(R"(^const )"), ""));
      if (el.empty()) return Status::InvalidArgument("parameter '" + p.text + "' not supported: write a spec");
      if (IsIntegerSpec(el)) {
        a["role"] = "size";
        a["type"] = el;
        sizes.push_back(p.name);
        out.notes.push_back(p.name + ": size (the test cases choose it)");
      } else {
        a["role"] = "scalar";
        a["type"] = el;
        out.notes.push_back(p.name + ": scalar, drawn uniformly from [-1, 1] (or 0/1 for bool)");
      }
    }
    args.push_back(a);
  }
  std::string length;
  if (sizes.size() == 1) {
    length = sizes[0];
    out.complete = true;
  } else if (sizes.empty() && pointers == 0 && vectors > 0) {
    length = "n";
    spec["sizes"] = {"n"};
    out.complete = true;
    out.notes.push_back("n: hidden size, the length of every vector");
  } else if (arrays.empty()) {
    out.complete = !sizes.empty();
    if (!out.complete) out.problem = "no array and no size: nothing to scale the tests by";
  } else {
    length = sizes.empty() ? "n" : sizes[0];
    out.problem = sizes.empty() ? "pointer arguments but no size parameter: their lengths are unknown"
                                : "several size parameters (" + Join(sizes, ", ") +
                                      "): which length belongs to which array is unknown";
  }
  for (size_t i : arrays) args[i]["length"] = length.empty() ? "n" : length;
  if (!length.empty() && !arrays.empty()) out.notes.push_back("every array has length " + length);
  spec["args"] = args;
  OrderedJson tests = OrderedJson::array();
  std::vector<std::string> size_vars = sizes;
  if (size_vars.empty() && !length.empty()) size_vars.push_back(length);
  const int kSizes[] = {1, 7, 300, 1000, 4099, 4099};
  for (int i = 0; i < 6; ++i) {
    OrderedJson t;
    OrderedJson sz = OrderedJson::object();
    for (const auto& s : size_vars) sz[s] = kSizes[i];
    t["sizes"] = sz;
    t["seed"] = i + 1;
    tests.push_back(t);
  }
  spec["tests"] = tests;
  OrderedJson timing;
  OrderedJson tsz = OrderedJson::object();
  for (const auto& s : size_vars) tsz[s] = 1 << 20;
  timing["sizes"] = tsz;
  timing["seed"] = 99;
  spec["timing"] = timing;
  out.notes.push_back("tests at sizes 1, 7, 300, 1000, 4099 (twice, two seeds); timing at 1048576");
  spec["notes"] = "inferred by regrapht optimize; edit and pass with --spec if it is not right";
  out.spec_json = DumpJson(spec);
  return out;
}

}  // namespace regrapht::verify
