// The lexer works in one pass over bytes (translation phases 1-3 without
// trigraphs: a line splice is a token of its own rather than being removed,
// so offsets stay those of the source). Function heads are recognised on the
// token stream with bracket matches, by walking back from each `name (`.
#include "core/scanner.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_set>

namespace regrapht::scan {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Longest first where one is a prefix of another.
constexpr std::array<std::string_view, 28> kOperators = {
    ">>>=", "<<<", ">>>", "<<=", ">>=", "->*", "...", "->", "++", "--", "<<", ">>", "<=", ">=",
    "==",   "!=",  "&&",  "||",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "::", ".*"};

// clang-format off
const std::unordered_set<std::string_view>& Keywords() {
  static const std::unordered_set<std::string_view> k = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  return k;
}
// clang-format on

// Specifiers reported in FunctionDef::qualifiers.
const std::unordered_set<std::string_view>& Qualifiers() {
  static const std::unordered_set<std::string_view> k = {
      "__global__", "__device__", "__host__", "__forceinline__", "__noinline__",
      "static",     "inline",     "extern",   "constexpr",       "consteval",
      "virtual",    "explicit",   "friend",   "template"};
  return k;
}

// Names followed by a parenthesised argument that decorate a declaration.
const std::unordered_set<std::string_view>& AttributeCalls() {
  static const std::unordered_set<std::string_view> k = {
      "__launch_bounds__", "__cluster_dims__", "__maxnreg__", "__attribute__",
      "__declspec",        "alignas",          "__align__",   "decltype"};
  return k;
}

// Words that, right before `name (`, make it an expression, not a head.
const std::unordered_set<std::string_view>& ExpressionWords() {
  static const std::unordered_set<std::string_view> k = {
      "return",    "else",     "do",       "case",   "new",    "delete",  "throw",     "goto",
      "co_return", "co_yield", "co_await", "sizeof", "typeid", "alignof", "not",       "and",
      "or",        "if",       "while",    "for",    "switch", "using",   "namespace", "typedef"};
  return k;
}

// Words that may follow a parameter list before the body or `;`.
const std::unordered_set<std::string_view>& TrailingWords() {
  static const std::unordered_set<std::string_view> k = {"const", "volatile",     "override",
                                                         "final", "mutable",      "noexcept",
                                                         "throw", "__restrict__", "__restrict"};
  return k;
}

// Prefix of a string or character literal (`u8`, `LR`, ...), if `word` is one.
bool IsLiteralPrefix(std::string_view word, bool* raw) {
  static const std::array<std::string_view, 5> kPlain = {"L", "u", "U", "u8", ""};
  *raw = !word.empty() && word.back() == 'R';
  if (*raw) word.remove_suffix(1);
  return std::find(kPlain.begin(), kPlain.end(), word) != kPlain.end() && (*raw || !word.empty());
}

}  // namespace

bool IsKeyword(std::string_view word) { return Keywords().count(word) > 0; }

bool FunctionDef::has_qualifier(std::string_view q) const {
  return std::find(qualifiers.begin(), qualifiers.end(), q) != qualifiers.end();
}

ScannedSource::ScannedSource(std::string_view text) : text_(text) {
  tokens_ = Tokenize(text_, &problems_);
  MatchBrackets();
}

// ---- lexing ----------------------------------------------------------------------

namespace {

// The state of one Tokenize call: the text, the position and line, and the
// tokens and problems found so far.
class Lexer {
 public:
  Lexer(std::string_view s, std::vector<ScanProblem>* problems)
      : s_(s), n_(s.size()), problems_(problems) {}

  // Tokenizes the whole text.
  std::vector<Token> Run();

 private:
  // Advances over a newline at `k` (the caller has checked s[k] == '\n').
  void Newline(size_t k) {
    ++line_;
    line_start_ = k + 1;
  }
  // Counts the newlines in [from, to).
  void NewlinesIn(size_t from, size_t to) {
    for (size_t j = from; j < to; ++j) {
      if (s_[j] == '\n') Newline(j);
    }
  }
  Token* Push(TokenKind kind, size_t begin, size_t end, int tok_line, size_t tok_line_start);
  // A backslash-newline (optionally with \r) at `k`: its length, else 0.
  size_t SpliceLen(size_t k) const {
    if (k >= n_ || s_[k] != '\\') return 0;
    if (k + 1 < n_ && s_[k + 1] == '\n') return 2;
    if (k + 2 < n_ && s_[k + 1] == '\r' && s_[k + 2] == '\n') return 3;
    return 0;
  }
  // `#error don't` and `#warning` take free text: a lone quote there is no error.
  void Problem(int at, std::string what) {
    bool free_text = in_directive_ && (directive_name_ == "error" || directive_name_ == "warning");
    if (problems_ && !free_text) problems_->push_back({at, std::move(what)});
  }
  // Quoted literal from `open` (the quote); returns the end, sets *closed.
  size_t Quoted(size_t open, bool* closed);
  // A user-defined literal suffix right after a literal.
  size_t Suffix(size_t k) const {
    if (k < n_ && IsIdentStart(s_[k])) {
      while (k < n_ && IsIdentChar(s_[k])) ++k;
    }
    return k;
  }
  // A line comment at i_ (`//`): runs to a newline that is not spliced.
  void LineComment();
  // A block comment at i_ (`/*`).
  void BlockComment();
  // A string or character literal whose quote is at `quote` (i_ is where
  // its prefix, if any, starts).
  void QuotedLiteral(size_t quote);
  // A raw string literal whose `"` is at `quote` (after its R prefix at i_).
  void RawString(size_t quote);
  // An identifier or keyword at i_, or the literal it prefixes.
  void Word();
  // A number at i_ (digit separators and exponent signs included).
  void Number();
  // An operator or other punctuation at i_ (the longest of kOperators).
  void Punct();

  std::string_view s_;
  const size_t n_;
  std::vector<ScanProblem>* problems_;
  std::vector<Token> tokens_;
  size_t i_ = 0, line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;  // only whitespace (or comments) so far on this line
  bool in_directive_ = false;
  std::string_view directive_name_;
};

Token* Lexer::Push(TokenKind kind, size_t begin, size_t end, int tok_line, size_t tok_line_start) {
  Token t;
  t.kind = kind;
  t.begin = static_cast<uint32_t>(begin);
  t.end = static_cast<uint32_t>(end);
  t.line = tok_line;
  t.column = static_cast<int>(begin - tok_line_start) + 1;
  t.directive = in_directive_;
  tokens_.push_back(t);
  return &tokens_.back();
}

size_t Lexer::Quoted(size_t open, bool* closed) {
  const char q = s_[open];
  size_t k = open + 1;
  *closed = false;
  while (k < n_) {
    if (size_t sp = SpliceLen(k)) {
      Newline(k + sp - 1);
      k += sp;
    } else if (s_[k] == '\\') {
      k += 2;
    } else if (s_[k] == '\n') {
      break;  // the literal ends with the line, unterminated
    } else if (s_[k] == q) {
      *closed = true;
      return k + 1;
    } else {
      ++k;
    }
  }
  return std::min(k, n_);
}

void Lexer::LineComment() {
  const size_t start = i_;
  const int start_line = line_;
  const size_t start_line_start = line_start_;
  size_t k = i_ + 2;
  while (k < n_ && s_[k] != '\n') {
    if (size_t sp = SpliceLen(k)) {
      Newline(k + sp - 1);
      k += sp;
    } else {
      ++k;
    }
  }
  Push(TokenKind::kComment, start, k, start_line, start_line_start);
  i_ = k;
}

void Lexer::BlockComment() {
  const size_t start = i_;
  const int start_line = line_;
  const size_t start_line_start = line_start_;
  size_t end = s_.find("*/", i_ + 2);
  bool closed = end != std::string_view::npos;
  size_t k = closed ? end + 2 : n_;
  NewlinesIn(i_, k);
  Token* t = Push(TokenKind::kComment, start, k, start_line, start_line_start);
  if (!closed) {
    t->unterminated = true;
    Problem(start_line, "unterminated block comment");
  }
  i_ = k;
}

void Lexer::QuotedLiteral(size_t quote) {
  const size_t start = i_;
  const int start_line = line_;
  const size_t start_line_start = line_start_;
  const char c = s_[quote];
  bool closed;
  size_t k = Quoted(quote, &closed);
  if (closed) k = Suffix(k);
  Token* t = Push(c == '"' ? TokenKind::kString : TokenKind::kChar, start, k, start_line,
                  start_line_start);
  if (!closed) {
    t->unterminated = true;
    Problem(start_line,
            c == '"' ? "unterminated string literal" : "unterminated character literal");
  }
  i_ = k;
}

void Lexer::RawString(size_t k) {
  const size_t start = i_;
  const int start_line = line_;
  const size_t start_line_start = line_start_;
  // R"delim( ... )delim": the delimiter is at most 16 characters.
  size_t paren = s_.find('(', k + 1);
  size_t bad = s_.find_first_of(" )\\\t\v\f\n\"", k + 1);
  if (paren == std::string_view::npos || (bad != std::string_view::npos && bad < paren) ||
      paren - k - 1 > 16) {
    Token* t =
        Push(TokenKind::kString, start, std::min(n_, paren == std::string_view::npos ? n_ : paren),
             start_line, start_line_start);
    t->raw = true;
    t->unterminated = true;
    Problem(start_line, "malformed raw string delimiter");
    i_ = t->end;
    NewlinesIn(start, i_);
    return;
  }
  std::string close = ")" + std::string(s_.substr(k + 1, paren - k - 1)) + "\"";
  size_t end = s_.find(close, paren + 1);
  bool closed = end != std::string_view::npos;
  size_t stop = closed ? Suffix(end + close.size()) : n_;
  NewlinesIn(i_, stop);
  Token* t = Push(TokenKind::kString, start, stop, start_line, start_line_start);
  t->raw = true;
  if (!closed) {
    t->unterminated = true;
    Problem(start_line, "unterminated raw string literal");
  }
  i_ = stop;
}

void Lexer::Word() {
  size_t k = i_;
  while (k < n_ && IsIdentChar(s_[k])) ++k;
  bool raw = false;
  std::string_view word = s_.substr(i_, k - i_);
  if (k < n_ && (s_[k] == '"' || (s_[k] == '\'' && word.back() != 'R')) &&
      IsLiteralPrefix(word, &raw)) {
    if (raw && s_[k] == '"') {
      RawString(k);
    } else {
      QuotedLiteral(k);
    }
    return;
  }
  if (in_directive_ && directive_name_.empty() && tokens_.size() >= 1 && tokens_.back().directive &&
      s_.substr(tokens_.back().begin, tokens_.back().end - tokens_.back().begin) == "#") {
    directive_name_ = word;
  }
  Push(IsKeyword(word) ? TokenKind::kKeyword : TokenKind::kIdentifier, i_, k, line_, line_start_);
  i_ = k;
}

void Lexer::Number() {
  const size_t i = i_;
  const bool hex = s_[i] == '0' && i + 1 < n_ && (s_[i + 1] == 'x' || s_[i + 1] == 'X');
  size_t k = i;
  while (k < n_) {
    char d = s_[k], prev = k > i ? s_[k - 1] : '\0';
    // An exponent's sign belongs to the number: 1e-5, 0x1p+3.
    bool sign = (d == '+' || d == '-') && k > i &&
                (hex ? (prev == 'p' || prev == 'P') : (prev == 'e' || prev == 'E'));
    // A digit separator: 1'000'000, 0xFF'FF.
    bool separator =
        d == '\'' && k > i && IsIdentChar(prev) && k + 1 < n_ && IsIdentChar(s_[k + 1]);
    if (!IsIdentChar(d) && d != '.' && !sign && !separator) break;
    ++k;
  }
  Push(TokenKind::kNumber, i, k, line_, line_start_);
  i_ = k;
}

void Lexer::Punct() {
  const char c = s_[i_];
  size_t len = 1;
  if (i_ + 1 < n_ && std::string_view("<>-+=!&|*/%^:.").find(c) != std::string_view::npos) {
    for (std::string_view op : kOperators) {
      if (op[0] == c && s_.substr(i_, op.size()) == op) {
        len = op.size();
        break;
      }
    }
  }
  Push(TokenKind::kPunct, i_, i_ + len, line_, line_start_);
  i_ += len;
}

std::vector<Token> Lexer::Run() {
  while (i_ < n_) {
    const char c = s_[i_];
    if (c == '\n') {
      Newline(i_);
      ++i_;
      at_line_start_ = true;
      in_directive_ = false;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i_;
      continue;
    }
    if (size_t sp = SpliceLen(i_)) {
      Push(TokenKind::kSplice, i_, i_ + 1, line_, line_start_);
      Newline(i_ + sp - 1);
      i_ += sp;
      continue;
    }
    if (c == '/' && i_ + 1 < n_ && s_[i_ + 1] == '/') {
      LineComment();
      continue;
    }
    if (c == '/' && i_ + 1 < n_ && s_[i_ + 1] == '*') {
      BlockComment();
      continue;
    }
    const bool first_on_line = at_line_start_;
    at_line_start_ = false;
    if (c == '#' && first_on_line && !in_directive_) {
      in_directive_ = true;
      directive_name_ = {};
    }
    if (c == '"' || c == '\'') {
      QuotedLiteral(i_);
    } else if (IsIdentStart(c)) {
      Word();
    } else if (IsDigit(c) || (c == '.' && i_ + 1 < n_ && IsDigit(s_[i_ + 1]))) {
      Number();
    } else {
      Punct();
    }
  }
  return std::move(tokens_);
}

}  // namespace

std::vector<Token> Tokenize(std::string_view s, std::vector<ScanProblem>* problems) {
  return Lexer(s, problems).Run();
}

// ---- brackets ------------------------------------------------------------------

void ScannedSource::MatchBrackets() {
  match_.assign(tokens_.size(), kNone);
  depth_.assign(tokens_.size(), 0);
  enclosing_.assign(tokens_.size(), kNone);
  std::vector<size_t> open;    // indices of unclosed brackets
  std::vector<size_t> braces;  // indices of unclosed `{`
  int depth = 0;
  const size_t lexical = problems_.size();
  auto closer_of = [&](std::string_view o) -> std::string_view {
    if (o == "(") return ")";
    if (o == "[") return "]";
    if (o == "{") return "}";
    return ">>>";
  };
  for (size_t i = 0; i < tokens_.size(); ++i) {
    depth_[i] = depth;
    enclosing_[i] = braces.empty() ? kNone : braces.back();
    const Token& t = tokens_[i];
    if (t.kind != TokenKind::kPunct || t.directive) continue;
    std::string_view x = Text(t);
    if (x == "(" || x == "[" || x == "{" || x == "<<<") {
      open.push_back(i);
      if (x == "{") {
        ++depth;
        braces.push_back(i);
      }
      continue;
    }
    if (x == ">>>") {
      if (!open.empty() && Text(open.back()) == "<<<") {
        match_[i] = open.back();
        match_[open.back()] = i;
        open.pop_back();
      }
      continue;  // a template's closers otherwise
    }
    if (x != ")" && x != "]" && x != "}") continue;
    if (x == "}") {
      --depth;
      if (!braces.empty()) braces.pop_back();
    }
    // The closer matches the nearest open bracket of its kind; brackets left
    // open in between are unbalanced.
    auto it =
        std::find_if(open.rbegin(), open.rend(), [&](size_t o) { return closer_of(Text(o)) == x; });
    if (it == open.rend()) {
      problems_.push_back({t.line, "unbalanced '" + std::string(x) + "' (nothing to close)"});
      if (x == "}") ++depth;  // (braces was empty: nothing was popped)
      continue;
    }
    size_t o = *it;
    while (open.back() != o) {
      const Token& u = tokens_[open.back()];
      problems_.push_back({u.line, "unbalanced '" + std::string(Text(u)) + "' (closed by '" +
                                       std::string(x) + "' on line " + std::to_string(t.line) +
                                       ")"});
      if (Text(u) == "{") {
        --depth;
        braces.pop_back();
      }
      open.pop_back();
    }
    open.pop_back();
    match_[i] = o;
    match_[o] = i;
  }
  for (size_t o : open) {
    problems_.push_back(
        {tokens_[o].line, "unbalanced '" + std::string(Text(o)) + "' (never closed)"});
  }
  // Lexical problems (in line order already) stay first: an unterminated
  // comment is the cause of the brackets it swallowed.
  std::stable_sort(problems_.begin() + static_cast<std::ptrdiff_t>(lexical), problems_.end(),
                   [](const ScanProblem& a, const ScanProblem& b) { return a.line < b.line; });
}

Status ScannedSource::Check() const {
  if (problems_.empty()) return Status::Ok();
  const ScanProblem& p = problems_.front();
  return Status::InvalidArgument("line " + std::to_string(p.line) + ": " + p.what);
}

size_t ScannedSource::TokenAt(size_t offset) const {
  auto it = std::lower_bound(tokens_.begin(), tokens_.end(), offset,
                             [](const Token& t, size_t off) { return t.begin < off; });
  if (it == tokens_.end() || it->begin != offset) return kNone;
  return static_cast<size_t>(it - tokens_.begin());
}

size_t ScannedSource::TokenAfter(size_t offset) const {
  auto it = std::upper_bound(tokens_.begin(), tokens_.end(), offset,
                             [](size_t off, const Token& t) { return off < t.end; });
  return it == tokens_.end() ? kNone : static_cast<size_t>(it - tokens_.begin());
}

bool ScannedSource::IsCode(size_t i) const {
  const Token& t = tokens_[i];
  return !t.directive && t.kind != TokenKind::kComment && t.kind != TokenKind::kSplice;
}

size_t ScannedSource::NextCode(size_t i) const {
  if (i == kNone) return kNone;
  for (size_t k = i + 1; k < tokens_.size(); ++k) {
    if (IsCode(k)) return k;
  }
  return kNone;
}

size_t ScannedSource::PrevCode(size_t i) const {
  for (size_t k = std::min(i, tokens_.size()); k-- > 0;) {
    if (IsCode(k)) return k;
  }
  return kNone;
}

std::string ScannedSource::Blanked() const {
  std::string out = text_;
  auto blank = [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      if (out[k] != '\n') out[k] = ' ';
    }
  };
  for (const Token& t : tokens_) {
    if (t.kind == TokenKind::kComment) {
      blank(t.begin, t.end);
    } else if (t.kind == TokenKind::kString || t.kind == TokenKind::kChar) {
      // Keep the prefix, the quotes and the suffix: blank what is between.
      std::string_view x = Text(t);
      char q = t.kind == TokenKind::kString ? '"' : '\'';
      size_t open = x.find(q);
      size_t close = t.unterminated ? x.size() : x.rfind(q);
      if (open != std::string_view::npos && close > open)
        blank(t.begin + open + 1, t.begin + close);
    }
  }
  return out;
}

// ---- functions ------------------------------------------------------------------

// A function head is read in three steps from `name (`: 1. the name
// (operator names, `~S`, qualified names), 2. the head before it, walking
// back to a declaration boundary, 3. what follows the parameters up to the
// body or the `;`. ClassifyAt runs them; each step returns false as soon as
// the tokens cannot be a function head.

std::string_view ScannedSource::TextOr(size_t i) const {
  return i == kNone ? std::string_view() : Text(i);
}

// 1. The name: `operator...`, `~S`, qualified `a::b<T>::f`. Sets name,
// name_begin, params_open and qualified.
bool ScannedSource::ReadName(size_t name_tok, HeadParse* h) const {
  size_t open = NextCode(name_tok);
  h->name = std::string(TextOr(name_tok));
  if (h->name == "operator") {
    // operator() / operator[] / operator<< / operator new[] / operator int
    if (TextOr(open) == "(" && TextOr(NextCode(open)) == ")") {
      h->name += "()";
      open = NextCode(NextCode(open));
    } else {
      for (int guard = 0; open != kNone && TextOr(open) != "(" && guard < 8;
           ++guard, open = NextCode(open)) {
        TokenKind k = tokens_[open].kind;
        bool word = k == TokenKind::kIdentifier || k == TokenKind::kKeyword;
        h->name += (word ? " " : "") + std::string(TextOr(open));
      }
    }
  }
  if (TextOr(open) != "(") return false;
  h->params_open = open;
  h->name_begin = name_tok;
  size_t prev = PrevCode(name_tok);
  if (TextOr(prev) == "~") {
    h->name = "~" + h->name;
    h->name_begin = prev;
    prev = PrevCode(prev);
  }
  while (TextOr(prev) == "::") {
    size_t q = PrevCode(prev);
    if (TextOr(q) == ">") q = PrevCode(TemplateOpen(q));  // a<T>::f
    if (q == kNone || tokens_[q].kind != TokenKind::kIdentifier) {
      h->name_begin = prev;  // ::f
      break;
    }
    h->name_begin = q;
    prev = PrevCode(q);
  }
  h->qualified = h->name_begin != name_tok && TextOr(h->name_begin) != "~";
  return true;
}

// The `<` that opens the template argument list closed at `close` (a `>` or
// `>>`), or kNone when a `;`, `{` or `}` comes first.
size_t ScannedSource::TemplateOpen(size_t close) const {
  int d = 0;
  for (size_t q = close; q != kNone; q = PrevCode(q)) {
    std::string_view y = Text(q);
    if (y == ">") ++d;
    if (y == ">>") d += 2;
    if (y == "<" && --d <= 0) return q;
    if (y == ";" || y == "{" || y == "}") return kNone;
  }
  return kNone;
}

// 2. The head before the name: specifiers, the return type, templates and
// attributes, back to `;`, `{`, `}`, an access specifier's `:`, `extern "C"`
// or the start. Without a return type only constructors and destructors
// qualify: `S::S(`, `~S(`, or `S(` in the body of struct S.
bool ScannedSource::ReadHead(HeadParse* h) const {
  h->head_begin = h->name_begin;
  size_t k = PrevCode(h->name_begin);
  while (k != kNone) {
    std::string_view x = Text(k);
    TokenKind kind = tokens_[k].kind;
    if (kind == TokenKind::kIdentifier ||
        (kind == TokenKind::kKeyword && !ExpressionWords().count(x) && x != "public" &&
         x != "private" && x != "protected")) {
      h->has_type = h->has_type || !Qualifiers().count(x);
      h->head_begin = k;
      k = PrevCode(k);
    } else if (x == "*" || x == "&" || x == "&&" || x == "::") {
      h->head_begin = k;
      k = PrevCode(k);
    } else if (x == ">" || x == ">>") {  // template arguments or a template head
      size_t q = TemplateOpen(k);
      if (q == kNone) return false;
      h->head_begin = q;
      k = PrevCode(q);
      if (k != kNone && tokens_[k].kind != TokenKind::kIdentifier &&
          tokens_[k].kind != TokenKind::kKeyword) {
        return false;
      }
    } else if (x == ")") {  // __launch_bounds__(256), __attribute__((...)), decltype(x)
      size_t o = Match(k);
      size_t w = o == kNone ? kNone : PrevCode(o);
      if (w == kNone || !AttributeCalls().count(Text(w))) break;
      h->has_type = h->has_type || Text(w) == "decltype";
      h->head_begin = w;
      k = PrevCode(w);
    } else if (x == "]" && TextOr(PrevCode(k)) == "]") {  // [[attribute]]
      size_t o = Match(k);
      if (o == kNone || TextOr(NextCode(o)) != "[") break;
      h->head_begin = o;
      k = PrevCode(o);
    } else {
      break;
    }
  }
  // What stops the head must be a declaration boundary.
  if (k != kNone) {
    std::string_view x = Text(k), before = TextOr(PrevCode(k));
    bool access = x == ":" && (before == "public" || before == "private" || before == "protected");
    bool extern_c = tokens_[k].kind == TokenKind::kString && before == "extern";
    if (x != ";" && x != "{" && x != "}" && !access && !extern_c) return false;
    if (extern_c) h->head_begin = PrevCode(k);
  }
  if (h->has_type || h->qualified || h->name[0] == '~') return true;
  if (k == kNone) return false;
  size_t body = enclosing_[h->name_begin];  // the class body, if any
  for (size_t q = body == kNone ? kNone : PrevCode(body); q != kNone; q = PrevCode(q)) {
    std::string_view y = Text(q);
    if (y == ";" || y == "{" || y == "}" || y == ")") break;
    if ((y == "class" || y == "struct" || y == "union") && TextOr(NextCode(q)) == h->name)
      return true;
  }
  return false;
}

// 3. After the parameters: cv and ref qualifiers, noexcept(...),
// throw(...), override, final, attributes, a trailing return type, a
// requires clause, a constructor's initialiser list, `try`; then the body
// `{` or a declaration's `;` (also `= 0;`, `= default;`, `= delete;`). Sets
// params_close and body_open (kNone for a declaration).
bool ScannedSource::ReadTrailer(HeadParse* h) const {
  h->params_close = Match(h->params_open);
  if (h->params_close == kNone) return false;
  size_t t = NextCode(h->params_close);
  while (t != kNone) {
    std::string_view x = Text(t);
    if (x == "{") {
      h->body_open = t;
      return true;
    }
    if (x == ";") return true;
    if (x == "&" || x == "&&") {
      t = NextCode(t);
    } else if (TrailingWords().count(x) || AttributeCalls().count(x)) {
      size_t nx = NextCode(t);
      t = TextOr(nx) == "(" && Match(nx) != kNone ? NextCode(Match(nx)) : nx;
    } else if (x == "[" && TextOr(NextCode(t)) == "[" && Match(t) != kNone) {
      t = NextCode(Match(t));
    } else if (x == "=") {  // = 0; = default; = delete;
      size_t v = NextCode(t);
      std::string_view y = TextOr(v);
      return TextOr(NextCode(v)) == ";" && (y == "0" || y == "default" || y == "delete");
    } else if (x == "->" || x == "requires") {  // trailing return type, constraints
      for (t = NextCode(t); t != kNone && Text(t) != "{" && Text(t) != ";" && Text(t) != "=";
           t = NextCode(t)) {
        if (Text(t) == "(" || Text(t) == "[") {
          if (Match(t) == kNone) return false;
          t = Match(t);
        }
      }
    } else if (x == ":") {  // a constructor's initialiser list
      if (h->has_type && !h->qualified) return false;
      t = SkipInitialisers(NextCode(t));
    } else if (x == "try") {
      t = NextCode(t);
    } else {
      return false;
    }
  }
  return false;
}

// From the first initialiser after a constructor's `:`: `base(x), m{y}...`;
// the token after the last one, or kNone when they do not parse.
size_t ScannedSource::SkipInitialisers(size_t t) const {
  while (t != kNone) {
    while (t != kNone && Text(t) != "(" && Text(t) != "{") {
      if (Text(t) == ";" || Text(t) == "}" || Text(t) == ")") return kNone;
      t = NextCode(t);
    }
    if (t == kNone || Match(t) == kNone) return kNone;
    t = NextCode(Match(t));
    if (TextOr(t) == "...") t = NextCode(t);
    if (TextOr(t) != ",") return t;
    t = NextCode(t);
  }
  return kNone;
}

// The head's tokens that are neither specifiers, template heads,
// attributes nor `extern "C"`, joined with a space only between two words.
void ScannedSource::FillQualifiersAndReturnType(FunctionDef* def) const {
  bool last_word = false;
  for (size_t q = def->head_begin; q != kNone && q < def->name_begin; q = NextCode(q)) {
    std::string_view y = Text(q);
    if (Qualifiers().count(y)) {
      def->qualifiers.emplace_back(y);
      if (y == "template" && TextOr(NextCode(q)) == "<") {
        int d = 0;
        for (q = NextCode(q); q != kNone; q = NextCode(q)) {
          if (Text(q) == "<") ++d;
          if (Text(q) == ">" && --d == 0) break;
          if (Text(q) == ">>" && (d -= 2) <= 0) break;
        }
      }
      continue;
    }
    size_t next = NextCode(q);
    if (AttributeCalls().count(y) && y != "decltype" && TextOr(next) == "(" &&
        Match(next) != kNone) {
      q = Match(next);
      continue;
    }
    if (y == "[" && TextOr(next) == "[" && Match(q) != kNone) {
      q = Match(q);
      continue;
    }
    if (tokens_[q].kind == TokenKind::kString) continue;  // extern "C"
    bool word = tokens_[q].kind == TokenKind::kIdentifier || tokens_[q].kind == TokenKind::kKeyword;
    if (word && last_word) def->return_type += ' ';
    def->return_type += y;
    last_word = word;
  }
}

bool ScannedSource::ClassifyAt(size_t name_tok, FunctionDef* def) const {
  HeadParse h;
  if (!ReadName(name_tok, &h) || !ReadHead(&h) || !ReadTrailer(&h)) return false;
  *def = FunctionDef();
  def->name = h.name;
  for (size_t q = h.name_begin; q != kNone && q < name_tok; q = NextCode(q))
    def->qualified_name += Text(q);
  def->qualified_name += h.name;
  def->head_begin = h.head_begin;
  def->name_begin = h.name_begin;
  def->name_token = name_tok;
  def->params_open = h.params_open;
  def->params_close = h.params_close;
  def->body_open = h.body_open;
  def->body_close = h.body_open == kNone ? kNone : Match(h.body_open);
  FillQualifiersAndReturnType(def);
  return true;
}

std::vector<FunctionDef> ScannedSource::Functions() const {
  std::vector<FunctionDef> out;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const Token& t = tokens_[i];
    if (!IsCode(i)) continue;
    bool candidate = (t.kind == TokenKind::kIdentifier && Text(t) != "__launch_bounds__") ||
                     (t.kind == TokenKind::kKeyword && Text(t) == "operator");
    if (!candidate) continue;
    size_t next = NextCode(i);
    if (next == kNone) break;
    if (Text(t) != "operator" && Text(next) != "(") continue;
    if (AttributeCalls().count(Text(t))) continue;
    FunctionDef def;
    if (ClassifyAt(i, &def)) {
      size_t skip_to = def.body_open != kNone ? def.body_open : def.params_close;
      out.push_back(std::move(def));
      // Parameters hold no functions; bodies may (local classes, lambdas don't count).
      i = skip_to;
    }
  }
  return out;
}

std::vector<size_t> ScannedSource::Calls(std::string_view name) const {
  std::vector<size_t> out;
  std::vector<size_t> defined;
  for (const FunctionDef& d : Functions()) defined.push_back(d.name_token);
  for (size_t i = 0; i < tokens_.size(); ++i) {
    if (!IsCode(i) || Text(i) != name || tokens_[i].kind != TokenKind::kIdentifier) continue;
    if (std::find(defined.begin(), defined.end(), i) != defined.end()) continue;
    size_t next = NextCode(i);
    if (next == kNone) break;
    if (Text(next) == "<") {  // explicit template arguments: name<T>(...)
      int d = 0;
      size_t q = next;
      for (; q != kNone; q = NextCode(q)) {
        std::string_view y = Text(q);
        if (y == "<") ++d;
        if (y == ">" && --d == 0) break;
        if (y == ">>" && (d -= 2) <= 0) break;
        if (y == ";" || y == "{" || y == "}") {
          q = kNone;
          break;
        }
      }
      if (q == kNone) continue;
      next = NextCode(q);
    }
    if (next != kNone && (Text(next) == "(" || Text(next) == "<<<")) out.push_back(i);
  }
  return out;
}

Result<ScannedSource> Scan(std::string_view text) {
  ScannedSource s(text);
  RG_RETURN_IF_ERROR(s.Check());
  return s;
}

bool DefinesFunction(std::string_view code, std::string_view name) {
  if (name.empty() || code.find(name) == std::string_view::npos) return false;
  ScannedSource s(code);
  for (const FunctionDef& d : s.Functions()) {
    if (d.is_definition() && d.name == name) return true;
  }
  return false;
}

std::vector<std::string> SplitTopLevel(std::string_view text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '<' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '>' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

std::string BlankCommentsAndLiterals(std::string_view code) {
  return ScannedSource(code).Blanked();
}

std::vector<std::string> CodeTokens(std::string_view code) {
  std::vector<std::string> out;
  ForEachCodeToken(code, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

}  // namespace regrapht::scan
