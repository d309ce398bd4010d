#include "verify/emulate.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "core/strings.h"
#include "verify/static_check.h"

namespace regrapht::verify {

extern const char kEmulatorHeader[];  // generated from emu/regrapht_cuda_emu.h

namespace {

struct Edit {
  size_t begin, end;
  std::string text;
};

int LineOf(const std::string& s, size_t pos) {
  return 1 + static_cast<int>(
                 std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

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

// Position just past the parenthesis matching the one at `open`.
size_t MatchParen(const std::string& code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == '(')
      ++depth;
    else if (code[i] == ')' && --depth == 0)
      return i + 1;
  }
  return std::string::npos;
}

int BraceDepthAt(const std::string& code, size_t pos) {
  int depth = 0;
  for (size_t i = 0; i < pos; ++i) {
    if (code[i] == '{')
      ++depth;
    else if (code[i] == '}')
      --depth;
  }
  return depth;
}

}  // namespace

Result<std::string> RewriteForEmulation(const std::string& source) {
  const std::string code = StripCommentsAndStrings(source);
  std::vector<Edit> edits;

  // Inline assembly (PTX) has no CPU meaning.
  static const std::regex kAsm(R"(\b(asm|__asm__|__asm)\b\s*(volatile|__volatile__)?\s*\()");
  std::smatch asm_match;
  if (std::regex_search(code, asm_match, kAsm)) {
    return Status::InvalidArgument(
        "line " + std::to_string(LineOf(source, static_cast<size_t>(asm_match.position(0)))) +
        ": inline PTX assembly is not emulated");
  }

  // Kernel launches.
  for (size_t p = code.find("<<<"); p != std::string::npos; p = code.find("<<<", p + 3)) {
    size_t close = code.find(">>>", p + 3);
    if (close == std::string::npos) {
      return Status::InvalidArgument("line " + std::to_string(LineOf(source, p)) +
                                     ": `<<<` without `>>>`");
    }
    size_t callee = CalleeStart(code, p);
    size_t callee_end = p;
    while (callee_end > callee && std::isspace(static_cast<unsigned char>(code[callee_end - 1])))
      --callee_end;
    if (callee == callee_end) {
      return Status::InvalidArgument("line " + std::to_string(LineOf(source, p)) +
                                     ": cannot find the kernel before `<<<`");
    }
    size_t open = close + 3;
    while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
    if (open >= code.size() || code[open] != '(') {
      return Status::InvalidArgument("line " + std::to_string(LineOf(source, p)) +
                                     ": expected the kernel's arguments after `>>>`");
    }
    size_t args_end = MatchParen(code, open);
    if (args_end == std::string::npos) {
      return Status::InvalidArgument("line " + std::to_string(LineOf(source, p)) +
                                     ": the kernel's argument list is not closed");
    }
    std::string text = "::regrapht_emu::Launch(::regrapht_emu::Cfg(" +
                       source.substr(p + 3, close - p - 3) + "), [=]() { " +
                       source.substr(callee, callee_end - callee) +
                       source.substr(open, args_end - open) + "; })";
    // Keep the line count: newlines between `>>>` and `(` move after the call.
    text += std::string(
        static_cast<size_t>(std::count(code.begin() + static_cast<std::ptrdiff_t>(close + 3),
                                       code.begin() + static_cast<std::ptrdiff_t>(open), '\n')),
        '\n');
    edits.push_back({callee, args_end, std::move(text)});
    p = args_end - 3;
  }

  // Dynamic shared memory.
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
    std::string text = BraceDepthAt(code, b) > 0
                           ? type + "* " + name + " = " + cast + ";"
                           : "\n#undef " + name + "\n#define " + name + " (" + cast + ")\n";
    edits.push_back({b, e, std::move(text)});
  }

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
  return files;
}

}  // namespace regrapht::verify
