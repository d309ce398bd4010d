#include "llm/shape.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace regrapht::llm {

std::string CodePrefill(const CodeShape& shape) {
  return "```" + shape.language + "\n" + shape.includes + shape.opener;
}

std::string FunctionHead(std::string_view signature) {
  size_t paren = signature.find('(');
  std::string_view head =
      signature.substr(0, paren == std::string_view::npos ? signature.size() : paren);
  std::string out;
  bool space = false;
  for (char c : head) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out + "(";
}

std::string GbnfLiteral(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

namespace {

int MaxLines(const CodeShape& shape, const ShapeOptions& o) {
  if (o.max_lines > 0) return o.max_lines;
  // About 10 tokens a line of code: before and after the head together
  // about 60% of max_tokens, so that a model writing ordinary lines closes
  // the block in time, and one writing long lines of junk (up to
  // max_line_chars each) usually still does.
  return std::max(8, shape.max_tokens / 32);
}

}  // namespace

std::string CodeGrammar(const CodeShape& shape, const ShapeOptions& o, bool with_prefill) {
  const std::string lines = std::to_string(MaxLines(shape, o));
  const std::string chars = std::to_string(std::max(1, o.max_line_chars));
  std::string g;
  g += "root ::= ";
  if (with_prefill) g += GbnfLiteral(CodePrefill(shape)) + " ";
  g += "line{0," + lines + "} head-line line{0," + lines + "} \"```\"\n";
  g += "line ::= text \"\\n\"\n";
  // The head starts its line (a definition or declaration, not a mention in
  // a comment or a call), optionally after a storage or linkage qualifier.
  g += "head-line ::= (\"__host__ \" | \"static \" | \"inline \" | \"extern \\\"C\\\" \")? " +
       GbnfLiteral(FunctionHead(shape.signature)) + " text \"\\n\"\n";
  g += "text ::= [^`\\n]{0," + chars + "}\n";
  return g;
}

OutputShape MakeOutputShape(const CodeShape& shape, const ShapeOptions& o) {
  OutputShape out;
  if (o.prefill) out.prefill = CodePrefill(shape);
  if (o.grammar) out.grammar = CodeGrammar(shape, o, /*with_prefill=*/!o.prefill);
  // The grammar ends with the fence (and then allows only end-of-generation);
  // without one, the backend stops after the fence. Without a prefill the
  // reply may open with prose and a fence, so only a grammar can shape it.
  if (o.stop_at_fence && o.prefill && !o.grammar) out.close = "\n```";
  return out;
}

}  // namespace regrapht::llm
