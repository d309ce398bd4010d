#include "verify/build/batch_compile.h"

#include "core/scanner.h"

namespace regrapht::verify {
namespace {

using scan::kNone;
using scan::ScannedSource;
using scan::TokenKind;

// Whether the `{` at `i` opens a namespace or a linkage block (`namespace
// a::b {`, `namespace {`, `extern "C" {`), whose contents are at namespace
// scope.
bool NamespaceBrace(const ScannedSource& s, size_t i) {
  size_t p = s.PrevCode(i);
  if (p == kNone) return false;
  if (s.tokens()[p].kind == TokenKind::kString) {
    size_t e = s.PrevCode(p);
    return e != kNone && s.Text(e) == "extern";
  }
  while (p != kNone && (s.tokens()[p].kind == TokenKind::kIdentifier || s.Text(p) == "::"))
    p = s.PrevCode(p);
  return p != kNone && s.Text(p) == "namespace";
}

// Index just past the `>` closing the template parameter list whose `<` is
// at `open` (`>>` closes two levels), or kNone.
size_t SkipAngles(const ScannedSource& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.tokens().size(); ++i) {
    if (!s.IsCode(i)) continue;
    std::string_view t = s.Text(i);
    if (t == "(" || t == "[" || t == "{") {
      if (s.Match(i) == kNone) return kNone;
      i = s.Match(i);
      continue;
    }
    if (t == "<") ++depth;
    if (t == ">") --depth;
    if (t == ">>") depth -= 2;
    if (depth <= 0) return i + 1;
  }
  return kNone;
}

// The include lines (blanked in *body), the macros defined, and the
// directive rules; false with *why for a directive that could reach another
// source or be reached by one.
bool ReadDirectives(const ScannedSource& s, BatchUnit* u, std::string* why) {
  const std::string& text = s.text();
  bool code_seen = false;  // code, or a directive other than #include
  int conditionals = 0;
  std::set<std::string, std::less<>> mentioned;  // identifiers before token i
  for (size_t i = 0; i < s.tokens().size(); ++i) {
    const scan::Token& tok = s.tokens()[i];
    if (i > 0 && s.tokens()[i - 1].kind == TokenKind::kIdentifier)
      mentioned.insert(std::string(s.Text(i - 1)));
    if (!tok.directive) {
      code_seen = code_seen || s.IsCode(i);
      continue;
    }
    if (s.Text(i) != "#" ||
        (i > 0 && s.tokens()[i - 1].directive && s.tokens()[i - 1].line == tok.line))
      continue;
    auto word_at = [&](size_t k) -> std::string_view {
      return k < s.tokens().size() && s.tokens()[k].directive ? s.Text(k) : "";
    };
    const std::string_view word = word_at(i + 1);
    if (word == "include") {
      size_t begin = text.rfind('\n', tok.begin);
      begin = begin == std::string::npos ? 0 : begin + 1;
      size_t end = text.find('\n', tok.begin);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(begin, end - begin);
      if (line.find('\\') != std::string::npos)
        return *why = "an #include continued over lines", false;
      if (code_seen) return *why = "an #include after code or another directive", false;
      u->includes.push_back(line);
      for (size_t k = begin; k < end; ++k) u->body[k] = ' ';
      continue;
    }
    code_seen = true;
    if (word == "pragma" && word_at(i + 2) == "unroll") continue;
    if (word == "define") {
      std::string name(word_at(i + 2));
      if (name.empty()) return *why = "a #define without a name", false;
      if (!u->macros.count(name) && !mentioned.count(name)) u->own_macros.insert(name);
      u->macros.insert(name);
    } else if (word == "undef") {
      // Only its own: removing a header's macro would change what follows.
      if (!u->macros.count(std::string(word_at(i + 2))))
        return *why = "an #undef of a macro it did not define", false;
    } else if (word == "if" || word == "ifdef" || word == "ifndef") {
      ++conditionals;
    } else if (word == "endif") {
      if (--conditionals < 0) return *why = "an #endif without #if", false;
    } else if (word != "else" && word != "elif") {
      return *why = "a #" + std::string(word) + " directive", false;
    }
  }
  if (conditionals != 0) return *why = "an #if without #endif", false;
  return true;
}

// The names declared at namespace scope, and the constructs that change
// lookup for the code after them; false with *why for one of those.
bool ReadDeclarations(const ScannedSource& s, BatchUnit* u, std::string* why) {
  const size_t n = s.tokens().size();
  for (size_t i = 0; i < n;) {
    if (!s.IsCode(i)) {
      ++i;
      continue;
    }
    std::string_view t = s.Text(i);
    const TokenKind kind = s.tokens()[i].kind;
    size_t next = s.NextCode(i);
    std::string_view after = next == kNone ? "" : s.Text(next);
    if (t == "{" && !NamespaceBrace(s, i)) {
      if (s.Match(i) == kNone) return *why = "an unbalanced brace", false;
      i = s.Match(i) + 1;  // a body: function, class, initialiser
      continue;
    }
    if (t == "(" || t == "[") {
      if (s.Match(i) == kNone) return *why = "an unbalanced bracket", false;
      i = s.Match(i) + 1;
      continue;
    }
    if (t == "template" && after == "<") {
      size_t a = s.NextCode(next);
      if (a != kNone && s.Text(a) == ">") return *why = "an explicit specialisation", false;
      i = SkipAngles(s, next);
      if (i == kNone) return *why = "an unclosed template parameter list", false;
      continue;
    }
    if (t == "operator") return *why = "an operator at namespace scope", false;
    if (t == "enum" && after != "class" && after != "struct")
      return *why = "an unscoped enum", false;
    if (t == "using") {
      size_t eq = next == kNone ? kNone : s.NextCode(next);
      if (eq == kNone || s.Text(eq) != "=")
        return *why = "a using-declaration or using-directive", false;
    }
    if (kind == TokenKind::kIdentifier && u->macros.count(std::string(t))) {
      return *why = "a macro of its own used at namespace scope", false;  // it may declare anything
    }
    if (kind == TokenKind::kIdentifier && t.substr(0, 2) != "__") {
      size_t prev = s.PrevCode(i);
      std::string_view before = prev == kNone ? "" : s.Text(prev);
      if (after == "(" || after == ";" || after == "=" || after == "[" || after == "{" ||
          after == "," || after == ":" || before == "struct" || before == "class" ||
          before == "union" || before == "enum" || before == "namespace" || before == "using") {
        u->declared.insert(std::string(t));
      }
    }
    ++i;
  }
  return true;
}

// Whether the source ends in a complete declaration.
bool EndsComplete(const ScannedSource& s) {
  size_t last = s.tokens().empty() ? kNone : s.PrevCode(s.tokens().size());
  if (last == kNone) return false;
  if (s.Text(last) == ";") return true;
  if (s.Text(last) != "}" || s.Match(last) == kNone) return false;
  if (NamespaceBrace(s, s.Match(last))) return true;
  for (const auto& f : s.Functions()) {
    if (f.body_close == last) return true;
  }
  return false;
}

}  // namespace

std::optional<BatchUnit> BatchUnitOf(std::string_view source, std::string* why) {
  std::string reason;
  ScannedSource s(source);
  BatchUnit u;
  u.body = std::string(source);
  bool ok = true;
  if (!s.problems().empty()) {
    ok = false;
    reason = "line " + std::to_string(s.problems()[0].line) + ": " + s.problems()[0].what;
  }
  ok = ok && ReadDirectives(s, &u, &reason) && ReadDeclarations(s, &u, &reason);
  if (ok && !EndsComplete(s)) {
    ok = false;
    reason = "it does not end in a complete declaration";
  }
  if (!ok) {
    if (why) *why = reason;
    return std::nullopt;
  }
  // Every identifier, in directives too (`#ifdef X` asks about X). An
  // `extern` declaration in a body (`extern __shared__ float tile[];`) names
  // one entity for the whole translation unit: declared, like the others.
  bool in_extern = false;
  for (size_t i = 0; i < s.tokens().size(); ++i) {
    if (s.IsCode(i) && s.Text(i) == "extern") in_extern = true;
    if (s.tokens()[i].kind != TokenKind::kIdentifier) continue;
    u.identifiers.insert(std::string(s.Text(i)));
    size_t next = s.NextCode(i);
    std::string_view after = next == kNone ? "" : s.Text(next);
    if (in_extern && s.IsCode(i) &&
        (after == "[" || after == ";" || after == "=" || after == ",")) {
      u.declared.insert(std::string(s.Text(i)));
      in_extern = false;
    }
  }
  u.declared.insert(u.macros.begin(), u.macros.end());
  return u;
}

namespace {

// Whether no name `a` declares is one `b` mentions, except a macro both
// define before mentioning it (each then sees its own definition only).
bool Apart(const BatchUnit& a, const BatchUnit& b) {
  for (const auto& d : a.declared) {
    if (b.identifiers.count(d) && !(a.own_macros.count(d) && b.own_macros.count(d))) return false;
  }
  return true;
}

// Whether `a` and `b` may share a translation unit.
bool Compatible(const BatchUnit& a, const BatchUnit& b) {
  return a.includes == b.includes && Apart(a, b) && Apart(b, a);
}

}  // namespace

std::vector<std::vector<size_t>> PlanBatches(const std::vector<std::optional<BatchUnit>>& units,
                                             size_t max_size) {
  std::vector<std::vector<size_t>> groups;
  if (max_size < 2) return groups;
  for (size_t i = 0; i < units.size(); ++i) {
    if (!units[i]) continue;
    bool placed = false;
    for (auto& g : groups) {
      if (g.size() >= max_size) continue;
      bool fits = true;
      for (size_t m : g) fits = fits && Compatible(*units[m], *units[i]);
      if (fits) {
        g.push_back(i);
        placed = true;
        break;
      }
    }
    if (!placed) groups.push_back({i});
  }
  std::vector<std::vector<size_t>> out;
  for (auto& g : groups) {
    if (g.size() >= 2) out.push_back(std::move(g));
  }
  return out;
}

std::string BatchSource(const std::vector<const BatchUnit*>& units,
                        const std::vector<std::string>& names) {
  std::string out;
  if (!units.empty()) {
    for (const auto& inc : units[0]->includes) out += inc + "\n";
  }
  for (size_t i = 0; i < units.size(); ++i) {
    std::string name = i < names.size() ? names[i] : "unit" + std::to_string(i);
    out += "#line 1 \"" + name + "\"\n" + units[i]->body;
    if (out.empty() || out.back() != '\n') out += "\n";
    for (const auto& m : units[i]->macros)
      out += "#undef " + m + "\n";  // none reaches the next source
  }
  return out;
}

}  // namespace regrapht::verify
