#include "verify/build/emulate.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::verify {

extern const char kEmulatorHeader[];        // generated from emu/regrapht_cuda_emu.h
extern const char kEmulatorCheckSource[];  // generated from emu/regrapht_emu_check.cc

namespace {

struct Edit {
  size_t begin, end;
  std::string text;
};

bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Start of the callee expression that ends just before `end` in the stripped
// code: an identifier path (`ns::k`) with optional template arguments.
size_t CalleeStart(const std::string& code, size_t end) {
  size_t i = end;
  while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
  for (;;) {
    if (i > 0 && code[i - 1] == '>') {  // template arguments
      int depth = 0;
      while (i > 0) {
        char c = code[--i];
        if (c == '>')
          ++depth;
        else if (c == '<' && --depth == 0)
          break;
      }
      while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
    }
    size_t before = i;
    while (i > 0 && IsIdent(code[i - 1])) --i;
    if (i >= 2 && code[i - 1] == ':' && code[i - 2] == ':' && i != before) {
      i -= 2;
      continue;
    }
    return i;
  }
}

// Offset just past the bracket matching the one that starts at `open`, or
// npos when `open` starts no bracket or it does not balance.
size_t MatchEnd(const scan::ScannedSource& s, size_t open) {
  size_t t = s.TokenAt(open);
  size_t m = t == scan::kNone ? scan::kNone : s.Match(t);
  return m == scan::kNone ? std::string::npos : s.tokens()[m].end;
}

// How many braces are open at offset `pos` (outside directives).
int BraceDepthAt(const scan::ScannedSource& s, size_t pos) {
  size_t t = s.TokenAfter(pos);
  return t == scan::kNone ? 0 : s.BraceDepth(t);
}

// `s` with every character a C string literal could not hold as is dropped.
std::string CString(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '"' && c != '\\' && c != '\n' && c != '\r') out += c;
  return out;
}

// One declarator of a static __shared__ declaration: `[*...] name [dims]`.
struct SharedDeclarator {
  std::string ptrs, name, dims;
};

bool ParseDeclarator(const std::string& text, SharedDeclarator* d) {
  static const std::regex kDecl(R"(^\s*([*\s]*)\b([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\]\s*)*)$)");
  std::smatch m;
  if (!std::regex_match(text, m, kDecl)) return false;
  d->ptrs = m[1].str();
  d->name = m[2].str();
  d->dims = m[3].str();
  return true;
}

// `static __shared__ T a[N], b;` inside a function becomes references to
// per-block storage from the emulator (fresh 0xFF bytes for every block,
// bounds- and race-checked). Returns "" when the declaration is not of a
// shape this rewrite knows (it then keeps the thread_local fallback).
std::string RewriteSharedDecl(const std::string& decl, unsigned* next_id) {
  static const std::regex kDrop(
      R"(\b(__shared__|static)\b|\b(__align__|alignas)\s*\([^)]*\)|__attribute__\s*\(\([^;]*?\)\))");
  if (decl.find_first_of("={}") != std::string::npos) return "";
  std::string flat = decl;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  std::replace(flat.begin(), flat.end(), '\r', ' ');
  std::replace(flat.begin(), flat.end(), '\t', ' ');
  std::string body = std::regex_replace(flat, kDrop, " ");
  auto parts = scan::SplitTopLevel(body);
  // The first part is "type declarator": the declarator is its trailing
  // `[*] name [dims]`.
  static const std::regex kFirst(R"(^(.*?[\w>:\s])\s*((?:\*\s*)*)\b([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\]\s*)*)$)");
  std::smatch m;
  std::string first = parts[0];
  if (!std::regex_match(first, m, kFirst)) return "";
  std::string type = std::string(Trim(m[1].str()));
  if (type.empty() || type == "const" || type == "volatile") return "";
  std::vector<SharedDeclarator> decls{{m[2].str(), m[3].str(), m[4].str()}};
  for (size_t i = 1; i < parts.size(); ++i) {
    SharedDeclarator d;
    if (!ParseDeclarator(parts[i], &d)) return "";
    decls.push_back(d);
  }
  std::string out;
  for (const auto& d : decls) {
    std::string t = type + " " + d.ptrs;
    std::string dims = std::string(Trim(d.dims));
    if (!out.empty()) out += " ";
    out += std::string(Trim(t)) + " (&" + d.name + ")" + dims + " = ::regrapht_emu::Shared<" + std::string(Trim(t)) +
           (dims.empty() ? "" : " " + dims) + ">(" + std::to_string((*next_id)++) + "u);";
  }
  return out;
}

// The rewrite's parts: each adds the edits of one CUDA construct (offsets
// into `source`; `scanned` is its scan, `code` its blanked text).

// Inline assembly (PTX) has no CPU meaning. Inside a function it becomes a
// call that stops the run there (the cases before it are still judged:
// docs/emulator.md); anywhere else the candidate is not emulated at all.
// Host-side assembly never gets here (the object checks reject it).
Status AddAsmEdits(const scan::ScannedSource& scanned, const std::string& source, const std::string& code,
                   std::vector<Edit>* edits) {
  static const std::regex kAsm(
      R"(\b(asm|__asm__|__asm)\b\s*((volatile|__volatile__|goto|inline)\s*)*\()");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kAsm); it != std::sregex_iterator(); ++it) {
    size_t at = static_cast<size_t>(it->position(0));
    int line = LineOfOffset(source, at);
    size_t open = at + static_cast<size_t>(it->length(0)) - 1;
    size_t end = MatchEnd(scanned, open);
    if (BraceDepthAt(scanned, at) <= 0 || end == std::string::npos) {
      return Status::InvalidArgument("line " + std::to_string(line) + ": inline PTX assembly is not emulated");
    }
    std::string text = "::regrapht_emu::NotEmulated(" + std::to_string(line) + ")";
    text += std::string(static_cast<size_t>(std::count(code.begin() + static_cast<std::ptrdiff_t>(at),
                                                       code.begin() + static_cast<std::ptrdiff_t>(end), '\n')),
                        '\n');
    edits->push_back({at, end, std::move(text)});
  }
  return Status::Ok();
}

// Kernel launches: `k<<<cfg>>>(args)` becomes a ::regrapht_emu::Launch call.
Status AddLaunchEdits(const scan::ScannedSource& scanned, const std::string& source, const std::string& code,
                      std::vector<Edit>* edits) {
  for (size_t p = code.find("<<<"); p != std::string::npos; p = code.find("<<<", p + 3)) {
    size_t close = MatchEnd(scanned, p);
    if (close == std::string::npos) {
      return Status::InvalidArgument("line " + std::to_string(LineOfOffset(source, p)) +
                                     ": `<<<` without `>>>`");
    }
    close -= 3;  // the `>>>` itself
    size_t callee = CalleeStart(code, p);
    size_t callee_end = p;
    while (callee_end > callee && std::isspace(static_cast<unsigned char>(code[callee_end - 1])))
      --callee_end;
    if (callee == callee_end) {
      return Status::InvalidArgument("line " + std::to_string(LineOfOffset(source, p)) +
                                     ": cannot find the kernel before `<<<`");
    }
    size_t open = close + 3;
    while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
    if (open >= code.size() || code[open] != '(') {
      return Status::InvalidArgument("line " + std::to_string(LineOfOffset(source, p)) +
                                     ": expected the kernel's arguments after `>>>`");
    }
    size_t args_end = MatchEnd(scanned, open);
    if (args_end == std::string::npos) {
      return Status::InvalidArgument("line " + std::to_string(LineOfOffset(source, p)) +
                                     ": the kernel's argument list is not closed");
    }
    std::string kernel = source.substr(callee, callee_end - callee);
    std::string text = "::regrapht_emu::Launch(::regrapht_emu::Cfg(" +
                       source.substr(p + 3, close - p - 3) + "), [=]() { " + kernel +
                       source.substr(open, args_end - open) + "; }, \"" + CString(kernel) + "\")";
    // Keep the line count: newlines between `>>>` and `(` move after the call.
    text += std::string(
        static_cast<size_t>(std::count(code.begin() + static_cast<std::ptrdiff_t>(close + 3),
                                       code.begin() + static_cast<std::ptrdiff_t>(open), '\n')),
        '\n');
    edits->push_back({callee, args_end, std::move(text)});
    p = args_end - 3;
  }
  return Status::Ok();
}

// Dynamic shared memory: an `extern __shared__ T name[];` becomes a pointer
// to the emulator's dynamic shared buffer.
void AddDynamicSharedEdits(const scan::ScannedSource& scanned, const std::string& source, const std::string& code,
                           std::vector<Edit>* edits) {
  static const std::regex kExternShared(
      R"(extern\s+__shared__\s+([^;\[\]{}()]*?(?:\([^;\[\]{}]*\)[^;\[\]{}()]*?)*)\s*\b([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
  static const std::regex kAlign(R"((__align__|alignas)\s*\([^)]*\))");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kExternShared);
       it != std::sregex_iterator(); ++it) {
    size_t b = static_cast<size_t>(it->position(0));
    size_t e = b + static_cast<size_t>(it->length(0));
    std::string type = std::regex_replace(
        source.substr(static_cast<size_t>(it->position(1)), static_cast<size_t>(it->length(1))),
        kAlign, "");
    type = std::string(Trim(type));
    std::string name = (*it)[2].str();
    std::string cast = "reinterpret_cast<" + type + "*>(::regrapht_emu::DynSmem())";
    std::string text = BraceDepthAt(scanned, b) > 0
                           ? type + "* " + name + " = " + cast + ";"
                           : "\n#undef " + name + "\n#define " + name + " (" + cast + ")\n";
    edits->push_back({b, e, std::move(text)});
  }
}

// Static shared memory inside functions: references to the emulator's
// per-block shared variables (RewriteSharedDecl).
void AddStaticSharedEdits(const scan::ScannedSource& scanned, const std::string& source, const std::string& code,
                          std::vector<Edit>* edits) {
  unsigned shared_id = 0;
  static const std::regex kSharedWord(R"(\b__shared__\b)");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kSharedWord);
       it != std::sregex_iterator(); ++it) {
    size_t at = static_cast<size_t>(it->position(0));
    if (BraceDepthAt(scanned, at) <= 0) continue;
    size_t b = at;
    while (b > 0 && code[b - 1] != ';' && code[b - 1] != '{' && code[b - 1] != '}' &&
           !(code[b - 1] == ':' && (b < 2 || code[b - 2] != ':')) && code[b - 1] != ')')
      --b;
    while (b < at && std::isspace(static_cast<unsigned char>(code[b]))) ++b;
    size_t e = code.find(';', at);
    if (e == std::string::npos) continue;
    std::string prefix = code.substr(b, at - b);
    if (prefix.find("extern") != std::string::npos) continue;
    std::string decl = source.substr(b, e - b);
    if (code.substr(b, e - b).find_first_of("(") != std::string::npos &&
        code.substr(b, e - b).find("__align__") == std::string::npos &&
        code.substr(b, e - b).find("alignas") == std::string::npos &&
        code.substr(b, e - b).find("__attribute__") == std::string::npos)
      continue;
    std::string text = RewriteSharedDecl(code.substr(b, e - b), &shared_id);
    if (text.empty()) continue;
    text += std::string(static_cast<size_t>(std::count(decl.begin(), decl.end(), '\n')), '\n');
    edits->push_back({b, e + 1, std::move(text)});
  }
}

// `source` with `edits` made, last first; an edit overlapping one already
// made is skipped.
std::string ApplyEmulationEdits(const std::string& source, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string out = source;
  size_t limit = std::string::npos;
  for (const auto& ed : edits) {
    if (ed.end > limit) continue;  // overlaps an edit already made
    out.replace(ed.begin, ed.end - ed.begin, ed.text);
    limit = ed.begin;
  }
  return out;
}

}  // namespace

Result<std::string> RewriteForEmulation(const std::string& source) {
  const scan::ScannedSource scanned(source);
  const std::string code = scanned.Blanked();
  std::vector<Edit> edits;
  RG_RETURN_IF_ERROR(AddAsmEdits(scanned, source, code, &edits));
  RG_RETURN_IF_ERROR(AddLaunchEdits(scanned, source, code, &edits));
  AddDynamicSharedEdits(scanned, source, code, &edits);
  AddStaticSharedEdits(scanned, source, code, &edits);
  return ApplyEmulationEdits(source, std::move(edits));
}

std::string_view EmulationCheckerSource() { return kEmulatorCheckSource; }

std::vector<std::string> EmulationCheckFlags() {
  return {"-fsanitize=thread", "-fsanitize=bounds", "--param=tsan-instrument-func-entry-exit=0",
          "-fno-sanitize-recover=bounds"};
}

std::map<std::string, std::string> EmulationHeaders() {
  std::map<std::string, std::string> files;
  files[std::string(kEmulationHeader)] = kEmulatorHeader;
  const std::string stub = "#pragma once\n#include \"regrapht_cuda_emu.h\"\n";
  for (const char* name :
       {"cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h",
        "cooperative_groups.h", "device_functions.h", "sm_60_atomic_functions.h",
        "math_constants.h", "vector_types.h", "vector_functions.h"}) {
    files[name] = stub;
  }
  files["math_constants.h"] =
      stub +
      "#define CUDART_PI_F 3.141592654f\n#define CUDART_PI 3.1415926535897931e+0\n"
      "#define CUDART_INF_F __int_as_float(0x7f800000)\n"
      "#define CUDART_INF __longlong_as_double(0x7ff0000000000000ULL)\n"
      "#define CUDART_NAN_F __int_as_float(0x7fffffff)\n";
  // cuComplex.h: the complex types are the vector types, as in CUDA's header.
  files["cuComplex.h"] = stub + R"(typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
inline float cuCrealf(cuFloatComplex x) { return x.x; }
inline float cuCimagf(cuFloatComplex x) { return x.y; }
inline cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex c; c.x = r; c.y = i; return c; }
inline cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float s = fabsf(b.x) + fabsf(b.y), o = 1.0f / s;
  float ar = a.x * o, ai = a.y * o, br = b.x * o, bi = b.y * o;
  float d = 1.0f / (br * br + bi * bi);
  return make_cuFloatComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
inline float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }
inline double cuCreal(cuDoubleComplex x) { return x.x; }
inline double cuCimag(cuDoubleComplex x) { return x.y; }
inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex c; c.x = r; c.y = i; return c; }
inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double s = fabs(b.x) + fabs(b.y), o = 1.0 / s;
  double ar = a.x * o, ai = a.y * o, br = b.x * o, bi = b.y * o;
  double d = 1.0 / (br * br + bi * bi);
  return make_cuDoubleComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
inline double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }
inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) { return cuCadd(cuCmul(x, y), d); }
inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) { return cuCaddf(cuCmulf(x, y), d); }
)";
  return files;
}

}  // namespace regrapht::verify
