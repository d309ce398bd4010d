#include "llm/shape.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "core/scanner.h"

namespace regrapht::llm {

std::string CodePrefill(const CodeShape& shape) {
  return "```" + shape.language + "\n" + shape.includes + shape.opener;
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

std::string NormalizedSignature(std::string_view signature) {
  std::string out;
  bool space = false;
  for (char c : signature) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string OpenBrackets(std::string_view code) {
  std::string open;
  const scan::ScannedSource s(code);
  for (size_t i = 0; i < s.tokens().size(); ++i) {
    const scan::Token& t = s.tokens()[i];
    if (t.kind != scan::TokenKind::kPunct || t.directive) continue;
    std::string_view x = s.Text(t);
    if ((x == "(" || x == "[" || x == "{" || x == "<<<") && s.Match(i) == scan::kNone) open += x[0];
  }
  return open;
}

namespace {

// The closer of a literal, comment or directive that `code` leaves open.
std::string OpenLiteralCloser(std::string_view code) {
  const scan::ScannedSource s(code);
  if (s.tokens().empty()) return "";
  const scan::Token& t = s.tokens().back();
  const std::string_view x = s.Text(t);
  const bool line_open = !code.empty() && code.back() != '\n';
  if (t.kind == scan::TokenKind::kComment) {
    if (x.substr(0, 2) == "/*") return t.unterminated ? "*/" : "";
    return line_open ? "\n" : "";
  }
  if (t.unterminated && t.kind == scan::TokenKind::kString) return "\"";
  if (t.unterminated && t.kind == scan::TokenKind::kChar) return x.size() == 1 ? "0'" : "'";
  if ((t.directive || t.kind == scan::TokenKind::kSplice) && line_open) return "\n";
  return "";
}

std::string Closers(std::string_view open) {
  std::string out;
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    out += *it == '(' ? ")" : *it == '[' ? "]" : *it == '{' ? "}" : ">>>";
  }
  return out;
}

}  // namespace

namespace {

// The "{" token that opens the body after the last top-level occurrence of
// `signature` (normalized) in `s`, or kNone. The grammar makes the function
// start with its exact signature, so the text finds it whatever the
// qualifiers before it.
size_t FunctionBody(const scan::ScannedSource& s, std::string_view signature) {
  const std::string sig = NormalizedSignature(signature);
  const std::string_view text = s.text();
  for (size_t at = text.rfind(sig); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : text.rfind(sig, at - 1)) {
    const size_t first = s.TokenAt(at);
    if (first == scan::kNone || !s.IsCode(first) || s.BraceDepth(first) != 0) continue;
    size_t i = s.TokenAfter(at + sig.size());
    if (i != scan::kNone && !s.IsCode(i)) i = s.NextCode(i);
    if (i != scan::kNone && s.Text(i) == "{") return i;
  }
  return scan::kNone;
}

// Whether the body opened by token `body` (closed by its match) launches a
// kernel at any depth.
bool Launches(const scan::ScannedSource& s, size_t body) {
  for (size_t i = body + 1; i < s.Match(body); ++i) {
    if (s.IsCode(i) && s.Text(i) == "<<<") return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> WrapUpTexts(std::string_view signature, std::string_view launch, std::string_view text,
                                     WrapUpStage stage) {
  const size_t fence_end = text.find('\n');
  if (stage == WrapUpStage::kNone || fence_end == std::string_view::npos) return {};
  const std::string code(text.substr(fence_end + 1));
  const std::string literal = OpenLiteralCloser(code);
  const std::string open = OpenBrackets(code + literal);
  std::string out = literal + Closers(open);
  // Inside the function: its body is closed by what was just added.
  const scan::ScannedSource closed(code + out);
  const size_t body = FunctionBody(closed, signature);
  const bool inside = body != scan::kNone && closed.Match(body) != scan::kNone &&
                      closed.tokens()[closed.Match(body)].begin >= code.size();
  if (inside) {
    if (stage == WrapUpStage::kClose) return {out + "\n```"};
    if (stage != WrapUpStage::kLaunch || launch.empty() || Launches(closed, body)) return {};
    // The body's "{" is the outermost open bracket: close those inside it.
    return {literal + Closers(open.substr(1)) + "\n  " + std::string(launch)};
  }
  if (stage != WrapUpStage::kHead) return {};
  const std::string head = NormalizedSignature(signature) + " {\n";
  auto with_head = [&](std::string s) {
    if (!(code + s).empty() && (code + s).back() != '\n') s += "\n";
    return s + head;
  };
  // Best: end a declaration left open at the top level (a kernel's head
  // without a body, "int x = f(a") with ";", so that the function is a
  // definition of its own. The grammar may refuse it (its bound on the
  // characters at the top level reached: only a new line is left).
  std::vector<std::string> texts;
  for (size_t i = closed.tokens().size(); i-- > 0;) {
    if (!closed.IsCode(i)) continue;
    const std::string_view last = closed.Text(i);
    if (last != "}" && last != ";") texts.push_back(with_head(out + ";"));
    break;
  }
  texts.push_back(with_head(out));
  return texts;
}

bool EndsDefinition(std::string_view signature, std::string_view text) {
  if (text.empty() || text.back() != '}') return false;
  const size_t fence_end = text.find('\n');
  if (fence_end == std::string_view::npos) return false;
  const scan::ScannedSource s(text.substr(fence_end + 1));
  const size_t body = FunctionBody(s, signature);
  return body != scan::kNone && s.Match(body) == s.tokens().size() - 1;
}

std::string BodyCloser(std::string_view signature, std::string_view launch, std::string_view text) {
  const size_t fence_end = text.find('\n');
  // Called for every token: nothing to scan before the signature is written.
  if (fence_end == std::string_view::npos || text.find(NormalizedSignature(signature)) == std::string_view::npos) {
    return "";
  }
  const std::string code(text.substr(fence_end + 1));
  if (!OpenLiteralCloser(code).empty()) return "";
  const std::string open = OpenBrackets(code);
  if (open != "{") return "";
  const scan::ScannedSource closed(code + "}");
  const size_t body = FunctionBody(closed, signature);
  if (body == scan::kNone || closed.Match(body) != closed.tokens().size() - 1) return "";
  if (!launch.empty() && !Launches(closed, body)) return "\n  " + std::string(launch);
  return "}\n```";
}

namespace {

// The element rules of balanced code (see the header). Printable ASCII,
// tabs and new lines only (no other control or non-ASCII character: code
// needs none, and llama.cpp's grammar lets invalid UTF-8 from byte tokens
// slip through). Each alternative of
// `e` starts with its own characters (`sf`: a division, "/" not followed by
// "/" or "*"), so the grammar stays (nearly) deterministic and llama.cpp
// keeps few parse stacks while sampling.
constexpr const char* kCodeRules = R"gbnf(e ::= p | nl | str | chr | grp | sl | lt | "\\\n"
p ::= [^`"'/(){}\[\]<#\\\n\x00-\x08\x0B-\x1F\x7F-\U0010FFFF]
str ::= "\"" sc* "\""
sc ::= [^"\\\n`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | "\\" [^\n`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF]
chr ::= "'" cc cc? cc? cc? "'"
cc ::= [^'\\\n`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | "\\" [^\n`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF]
grp ::= "(" code ")" | "[" code "]" | "{" code "}"
sl ::= "/" ("/" lc nl | "*" bc | sf)
sf ::= [^`"'/(){}\[\]<#\\\n*\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | nl | str | chr | grp | lt
lc ::= ([^\n`\\\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | "\\" [^\n`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF])*
bc ::= ([^*`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | "*"+ [^*/`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF])* "*"+ "/"
lt ::= "<" ("<" ("<" code ">>>" | lf) | lf)
lf ::= p | nl | str | chr | grp | sl
nl ::= "\n" dir*
dir ::= [ \t]* "#" dc* "\n"
dc ::= [^\n`\\"'\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | "\\" [^`\x00-\x08\x0B-\x1F\x7F-\U0010FFFF] | str | chr
nle ::= nl | "/" "/" lc nl
qual ::= ("__host__" | "static" | "inline" | "extern \"C\"") " "
ws ::= [ \t\n]*
)gbnf";

int MaxGroupChars(const CodeShape& shape, const ShapeOptions& o) {
  return o.max_group_chars > 0 ? o.max_group_chars : std::max(64, shape.max_tokens);
}

}  // namespace

std::string CodeGrammar(const CodeShape& shape, const ShapeOptions& options, bool with_prefill) {
  const std::string prefill = CodePrefill(shape);
  std::string g = "root ::= ";
  if (with_prefill) g += GbnfLiteral(prefill) + " ";
  // Close what the prefill left open (the kernel's parameter list), the
  // innermost first.
  const std::string open = OpenBrackets(prefill);
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    g += "code " + GbnfLiteral(*it == '(' ? ")" : *it == '[' ? "]" : "}") + " ";
  }
  // Anything balanced, then, starting a line, the function's definition with
  // the exact signature; the block ends with it.
  // Directives may open the code when nothing is left open (a line start).
  if (open.empty()) g += "dir* ";
  const std::string body =
      shape.require_launch ? "\"{\" code \"<<<\" code \">>>\" code \"}\"" : "\"{\" code \"}\"";
  g += "(code nle)? qual* " + GbnfLiteral(NormalizedSignature(shape.signature)) + " ws " + body +
       " \"\\n```\"\n";
  // At most n characters (elements) at any one bracket level: a model that
  // rambles is made to close its brackets and reach the function in time.
  g += "code ::= e{0," + std::to_string(MaxGroupChars(shape, options)) + "}\n";
  return g + kCodeRules;
}

namespace {

// "k<<<" for an opener "...__global__ void k(": the kernel the prefill began.
std::string LaunchOpener(std::string_view opener) {
  const size_t paren = opener.rfind('(');
  if (paren == std::string_view::npos) return "";
  size_t start = paren;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(opener[start - 1])) || opener[start - 1] == '_')) {
    --start;
  }
  return start == paren ? "" : std::string(opener.substr(start, paren - start)) + "<<<";
}

}  // namespace

OutputShape MakeOutputShape(const CodeShape& shape, const ShapeOptions& o) {
  OutputShape out;
  if (o.prefill) out.prefill = CodePrefill(shape);
  if (o.grammar) out.grammar = CodeGrammar(shape, o, /*with_prefill=*/!o.prefill);
  if (o.prefill && o.grammar && o.wrap_up) {
    out.wrap_up = NormalizedSignature(shape.signature);
    if (shape.require_launch && !shape.opener.empty()) out.wrap_up_launch = LaunchOpener(shape.opener);
    out.wrap_up_tokens = o.wrap_up_tokens > 0 ? o.wrap_up_tokens : std::max(48, shape.max_tokens / 3);
  }
  // The grammar ends with the fence (and then allows only end-of-generation);
  // without one, the backend stops after the fence. Without a prefill the
  // reply may open with prose and a fence, so only a grammar can shape it.
  if (o.stop_at_fence && o.prefill && !o.grammar) out.close = "\n```";
  return out;
}

}  // namespace regrapht::llm
