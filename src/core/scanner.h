// The one lexer for C++/CUDA source: every module that looks into code
// (extraction, spec inference, the static checks, the emulator's rewriting,
// retrieval, the overlap check, trajectory import) asks this file what a
// token, a comment, a bracket pair or a function definition is, so that they
// all agree.
//
// It is a lexer with a few structural queries, not a parser: it knows
// tokens, comments, literals (raw strings, digit separators, prefixes and
// user-defined suffixes), line splices, preprocessor directives, matching
// brackets and the shape of a function head. It does not expand macros or
// resolve names.
//
// Thread safety: pure functions; a ScannedSource is immutable after
// construction and may be shared between threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::scan {

enum class TokenKind {
  kIdentifier,  // names, incl. CUDA's __global__ and friends
  kKeyword,     // C++ keywords (int, const, return, operator, ...)
  kNumber,      // a pp-number: 42, 0x1Fu, 1'000'000, 1.5e-3f, 0x1p+3, .5
  kString,      // "..." with its prefix (L u U u8 R) and user-defined suffix
  kChar,        // '...' likewise
  kComment,     // // ... (continued by a line splice) or /* ... */
  kPunct,       // operators and punctuation: `::`, `->`, `<<<`, `>>>`, ...
                // and any other single byte
  kSplice,      // a backslash ending a line (the line continues)
};

struct Token {
  TokenKind kind = TokenKind::kPunct;
  uint32_t begin = 0, end = 0;  // byte offsets into the source: [begin, end)
  int line = 1;                 // 1-based, of `begin`
  int column = 1;               // 1-based byte column of `begin`
  bool directive = false;       // part of a preprocessor directive line
  bool raw = false;             // kString: a raw string R"d(...)d"
  bool unterminated = false;    // a literal or comment that does not close
};

// What is wrong with a source that a compiler would refuse to lex.
struct ScanProblem {
  int line = 0;
  std::string what;  // "unterminated block comment", "unbalanced ')'", ...
};

inline constexpr size_t kNone = static_cast<size_t>(-1);

// A function head followed by its parameters, and a body or a `;`.
//
//   template <class T> static __device__ T Name(T* x, int n) const noexcept -> T { ... }
//   ^head_begin                              ^name  ^params_open ^params_close   ^body_open
//
// All positions are token indices into ScannedSource::tokens().
struct FunctionDef {
  std::string name;            // unqualified: "F", "operator()", "~S"
  std::string qualified_name;  // as written: "ns::S::F"
  size_t head_begin = kNone;   // first token of the declaration (template, specifiers)
  size_t name_begin = kNone;   // first token of the (qualified) name
  size_t name_token = kNone;   // the token holding the unqualified name
  size_t params_open = kNone, params_close = kNone;  // the ( and )
  size_t body_open = kNone, body_close = kNone;      // { and }; kNone for a declaration
  // Specifiers seen in the head, in order: __global__ __device__ __host__
  // __forceinline__ __noinline__ static inline extern constexpr consteval
  // virtual explicit friend template.
  std::vector<std::string> qualifiers;
  // Head tokens that are neither specifiers, templates nor attributes,
  // joined with a space only between two words: the return type
  // ("const float*", "unsigned int", "std::size_t"); "" for constructors.
  std::string return_type;
  bool is_definition() const { return body_open != kNone; }
  bool has_qualifier(std::string_view q) const;
};

// A source split into tokens. Never fails: malformed input (an unterminated
// comment, string, character or raw string; an unbalanced bracket) gives
// tokens all the same, flagged `unterminated` or left unmatched, and a
// ScanProblem naming the line; Check() turns those into a Status.
class ScannedSource {
 public:
  // Copies `text`.
  explicit ScannedSource(std::string_view text);

  const std::string& text() const { return text_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  std::string_view Text(const Token& t) const {
    return std::string_view(text_).substr(t.begin, t.end - t.begin);
  }
  std::string_view Text(size_t i) const { return Text(tokens_[i]); }

  // Problems in source order; empty for well-formed source.
  const std::vector<ScanProblem>& problems() const { return problems_; }
  // OK, or InvalidArgument "line N: <what>" for the first problem.
  Status Check() const;

  // Index of the bracket matching token `i` for ( [ { and a launch's <<<
  // (and back from the closers), or kNone: `i` is no bracket, the bracket
  // is unbalanced, or it sits in a directive. `>>>` closes a `<<<` only;
  // elsewhere it is a plain operator (templates' `A<B<C>>>`).
  size_t Match(size_t i) const { return i < match_.size() ? match_[i] : kNone; }

  // Index of the token that starts at byte `offset`, or kNone.
  size_t TokenAt(size_t offset) const;
  // Index of the first token that ends after byte `offset` (kNone past the end).
  size_t TokenAfter(size_t offset) const;

  // How many `{` outside directives are open just before token `i`.
  int BraceDepth(size_t i) const { return i < depth_.size() ? depth_[i] : 0; }

  // Whether token `i` is code: not a comment, a splice or part of a directive.
  bool IsCode(size_t i) const;
  // The next / previous code token after / before `i`, or kNone (also for
  // i == kNone).
  size_t NextCode(size_t i) const;
  size_t PrevCode(size_t i) const;

  // Every function definition and declaration (a prototype ending in `;`,
  // `= 0;`, `= default;`, `= delete;`), in source order. A definition is a
  // head (a return type or specifiers; for constructors and destructors, a
  // qualified name, a `~` or the enclosing class's name), a name, a balanced
  // parameter list, then any of const, volatile, &, &&, noexcept(...),
  // throw(...), override, final, attributes, a trailing return type, a
  // requires clause, a constructor's initialiser list or `try`, then `{`.
  // A call `F(x);`, a macro invocation `TEST(a, b) {` without a head, a
  // lambda and a K&R-style definition are not functions here.
  std::vector<FunctionDef> Functions() const;

  // Token indices of the unqualified name `name` used as a call:
  // `name(`, `name<T>(`, `name<<<` or `ns::name(`, outside directives, and
  // not the name of a function definition or declaration.
  std::vector<size_t> Calls(std::string_view name) const;

  // The source with comments and the contents of string and character
  // literals replaced by spaces (prefixes, quotes and suffixes kept;
  // newlines kept, so offsets and line numbers survive).
  std::string Blanked() const;

 private:
  // A function head being read (scanner.cc, "functions").
  struct HeadParse {
    std::string name;
    size_t name_begin = kNone, head_begin = kNone;
    size_t params_open = kNone, params_close = kNone, body_open = kNone;
    bool qualified = false, has_type = false;
  };
  void MatchBrackets();
  std::string_view TextOr(size_t i) const;  // "" for kNone
  size_t TemplateOpen(size_t close) const;
  size_t SkipInitialisers(size_t t) const;
  bool ReadName(size_t name_tok, HeadParse* h) const;
  bool ReadHead(HeadParse* h) const;
  bool ReadTrailer(HeadParse* h) const;
  void FillQualifiersAndReturnType(FunctionDef* def) const;
  bool ClassifyAt(size_t name_tok, FunctionDef* def) const;

  std::string text_;
  std::vector<Token> tokens_;
  std::vector<ScanProblem> problems_;
  std::vector<size_t> match_;
  std::vector<int> depth_;
  std::vector<size_t> enclosing_;  // by token: the innermost open `{`, or kNone
};

// The tokens of `text` alone (no bracket matching), with the lexical
// problems appended to *problems when it is not null. Token offsets index
// `text`.
std::vector<Token> Tokenize(std::string_view text, std::vector<ScanProblem>* problems = nullptr);

// Strict scanning: the tokens, or InvalidArgument "line N: unterminated
// string literal" (or comment, raw string, character literal, or an
// unbalanced bracket) for the first problem.
Result<ScannedSource> Scan(std::string_view text);

// Whether `code` (possibly malformed, e.g. a truncated reply) defines a
// function whose unqualified name is `name`. False for an empty name.
bool DefinesFunction(std::string_view code, std::string_view name);

// ScannedSource(code).Blanked().
std::string BlankCommentsAndLiterals(std::string_view code);

// The texts of the code tokens of `code`: identifiers, keywords, numbers,
// operators and punctuation, directive tokens included; comments and string
// and character literals are skipped; a line splice is "\\".
std::vector<std::string> CodeTokens(std::string_view code);

// Calls `emit(text)` for each token CodeTokens would return, without
// building the vector.
template <typename Fn>
void ForEachCodeToken(std::string_view code, Fn&& emit) {
  for (const Token& t : Tokenize(code)) {
    if (t.kind == TokenKind::kComment || t.kind == TokenKind::kString || t.kind == TokenKind::kChar)
      continue;
    emit(code.substr(t.begin, t.end - t.begin));
  }
}

// `text` split at the commas outside (), [], {} and <> (a parameter or
// argument list without its parentheses); every part is kept, empty ones too.
std::vector<std::string> SplitTopLevel(std::string_view text);

bool IsKeyword(std::string_view word);

}  // namespace regrapht::scan
