#include "core/scanner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace regrapht::scan {
namespace {

std::string ReadTestdata(const std::string& name) {
  const char* dir = std::getenv("REGRAPHT_SOURCE_DIR");
  std::filesystem::path p =
      std::filesystem::path(dir ? dir : ".") / "src/core/testdata/scanner" / name;
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << p;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Tok {
  TokenKind kind;
  std::string text;
  bool operator==(const Tok&) const = default;
};

std::vector<Tok> Toks(std::string_view code) {
  ScannedSource s(code);
  std::vector<Tok> out;
  for (const Token& t : s.tokens()) out.push_back({t.kind, std::string(s.Text(t))});
  return out;
}

std::ostream& operator<<(std::ostream& os, const Tok& t) {
  return os << static_cast<int>(t.kind) << ":" << t.text;
}

constexpr TokenKind kId = TokenKind::kIdentifier, kKw = TokenKind::kKeyword,
                    kNum = TokenKind::kNumber, kStr = TokenKind::kString, kChr = TokenKind::kChar,
                    kCom = TokenKind::kComment, kPun = TokenKind::kPunct, kSpl = TokenKind::kSplice;

TEST(ScannerTest, Numbers) {
  EXPECT_EQ(Toks("1'000'000 0xFF'FFu 1.5e-3f 0x1p+3 .5 10ull 1e+5L"),
            (std::vector<Tok>{{kNum, "1'000'000"},
                              {kNum, "0xFF'FFu"},
                              {kNum, "1.5e-3f"},
                              {kNum, "0x1p+3"},
                              {kNum, ".5"},
                              {kNum, "10ull"},
                              {kNum, "1e+5L"}}));
  // A hex digit 'e' takes no sign: 0x1e+5 is 0x1e plus 5.
  EXPECT_EQ(Toks("0x1e+5"), (std::vector<Tok>{{kNum, "0x1e"}, {kPun, "+"}, {kNum, "5"}}));
}

TEST(ScannerTest, LiteralsWithPrefixesSuffixesAndRawStrings) {
  EXPECT_EQ(Toks(R"(u8"a" L'b' U"c"_sv 'x' "q\"uote")"),
            (std::vector<Tok>{{kStr, "u8\"a\""},
                              {kChr, "L'b'"},
                              {kStr, "U\"c\"_sv"},
                              {kChr, "'x'"},
                              {kStr, "\"q\\\"uote\""}}));
  EXPECT_EQ(Toks("R\"d(a)\" } { )d\" x"),
            (std::vector<Tok>{{kStr, "R\"d(a)\" } { )d\""}, {kId, "x"}}));
  ScannedSource s("R\"(line1\nline2)\" y");
  ASSERT_EQ(s.tokens().size(), 2u);
  EXPECT_TRUE(s.tokens()[0].raw);
  EXPECT_EQ(s.tokens()[1].line, 2);
  EXPECT_EQ(s.tokens()[1].column, 9);
  // `case'a'` is a keyword and a character, not a digit separator.
  EXPECT_EQ(Toks("case'a':"), (std::vector<Tok>{{kKw, "case"}, {kChr, "'a'"}, {kPun, ":"}}));
}

TEST(ScannerTest, CommentsPunctuationAndSplices) {
  EXPECT_EQ(Toks("a::b<<<g, t>>>(x); // c\n/* d\n */ p->q"), (std::vector<Tok>{{kId, "a"},
                                                                               {kPun, "::"},
                                                                               {kId, "b"},
                                                                               {kPun, "<<<"},
                                                                               {kId, "g"},
                                                                               {kPun, ","},
                                                                               {kId, "t"},
                                                                               {kPun, ">>>"},
                                                                               {kPun, "("},
                                                                               {kId, "x"},
                                                                               {kPun, ")"},
                                                                               {kPun, ";"},
                                                                               {kCom, "// c"},
                                                                               {kCom, "/* d\n */"},
                                                                               {kId, "p"},
                                                                               {kPun, "->"},
                                                                               {kId, "q"}}));
  // A line comment ending in a backslash goes on (as the compiler reads it).
  EXPECT_EQ(Toks("// a \\\nb\nc"), (std::vector<Tok>{{kCom, "// a \\\nb"}, {kId, "c"}}));
  ScannedSource s("#define M(a) \\\n  ((a) + 1)\nint y = M(2);\n");
  int directive = 0;
  for (const Token& t : s.tokens()) directive += t.directive;
  EXPECT_EQ(directive, 14);  // # define M ( a ) \ ( ( a ) + 1 )
  EXPECT_EQ(s.tokens()[6].kind, kSpl);
  EXPECT_FALSE(s.tokens()[14].directive);
  EXPECT_EQ(s.Text(14), "int");
  EXPECT_EQ(s.tokens()[14].line, 3);
  EXPECT_EQ(s.tokens()[14].column, 1);
}

TEST(ScannerTest, BracketsAndTemplates) {
  ScannedSource s("std::vector<std::vector<int>> v{f(a[1], {2})}; k<<<1, 2>>>(v);");
  ASSERT_TRUE(s.Check().ok()) << s.Check().ToString();
  auto find = [&](std::string_view text, int nth = 0) {
    for (size_t i = 0; i < s.tokens().size(); ++i) {
      if (s.Text(i) == text && nth-- == 0) return i;
    }
    return kNone;
  };
  EXPECT_EQ(s.Match(find(">>")), kNone);  // a template's closers are no brackets
  EXPECT_EQ(s.Text(s.Match(find("{"))), "}");
  EXPECT_EQ(s.Match(find("{")), find("}", 1));
  EXPECT_EQ(s.Match(find("<<<")), find(">>>"));
  EXPECT_EQ(s.Match(find(">>>")), find("<<<"));
  EXPECT_EQ(s.BraceDepth(find("a")), 1);
  EXPECT_EQ(s.BraceDepth(find("2")), 2);
  EXPECT_EQ(s.BraceDepth(find("k")), 0);
  EXPECT_EQ(s.TokenAt(s.tokens()[find("k")].begin), find("k"));
  EXPECT_EQ(s.TokenAt(1), kNone);
}

TEST(ScannerTest, MalformedInputNamesTheLine) {
  struct Case {
    const char* file;
    const char* error;
  } cases[] = {
      {"unterminated_comment.cu", "line 2: unterminated block comment"},
      {"unterminated_string.cu", "line 2: unterminated string literal"},
      {"unterminated_raw.cu", "line 1: unterminated raw string literal"},
      {"unbalanced.cu", "line 1: unbalanced '{' (never closed)"},
  };
  for (const auto& c : cases) {
    auto r = Scan(ReadTestdata(c.file));
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_EQ(r.status().message(), c.error) << c.file;
  }
  EXPECT_EQ(Scan("int x = ')';").status().message(), "");  // well formed
  ScannedSource unbalanced(ReadTestdata("unbalanced.cu"));
  ASSERT_EQ(unbalanced.problems().size(), 2u);
  EXPECT_EQ(unbalanced.problems()[1].line, 3);
  EXPECT_EQ(unbalanced.problems()[1].what, "unbalanced '(' (closed by '}' on line 4)");
  EXPECT_EQ(Scan("f(x));").status().message(), "line 1: unbalanced ')' (nothing to close)");
  EXPECT_EQ(Scan("char c = 'a;\n").status().message(), "line 1: unterminated character literal");
  EXPECT_EQ(Scan("auto s = R\"abc def(x)abc def\";").status().message(),
            "line 1: malformed raw string delimiter");
  // #error and #warning take free text.
  EXPECT_TRUE(Scan("#error don't build this\nint x;\n").ok());
  // Unterminated literals end with their line; the next line is code again.
  ScannedSource s("\"open\nint y;");
  EXPECT_TRUE(s.tokens()[0].unterminated);
  EXPECT_EQ(s.Text(1), "int");
}

TEST(ScannerTest, FunctionsInTheCorpus) {
  auto scanned = Scan(ReadTestdata("definitions.cu"));
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  const ScannedSource& s = *scanned;
  struct Want {
    std::string name;
    bool definition;
    std::string return_type;
    std::vector<std::string> qualifiers;
  };
  std::vector<Want> want = {
      {"Prototype", false, "void", {}},
      {"Pure", false, "int", {}},
      {"Scale", true, "void", {"__global__"}},
      {"Sum", true, "T", {"template", "__device__", "__forceinline__"}},
      {"Twice", true, "int", {"inline"}},
      {"Trailing", true, "auto", {}},
      {"Attributed", true, "int", {"static"}},
      {"Nested", true, "std::vector<std::vector<int>>", {}},
      {"Functor", true, "", {}},
      {"~Functor", true, "", {}},
      {"operator()", true, "int", {}},
      {"operator<", true, "bool", {}},
      {"CLinkage", true, "void", {"extern"}},
      {"Launcher", true, "void", {}},
      {"Pure", true, "int", {}},
  };
  auto got = s.Functions();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(want[i].name);
    EXPECT_EQ(got[i].name, want[i].name);
    EXPECT_EQ(got[i].is_definition(), want[i].definition);
    EXPECT_EQ(got[i].return_type, want[i].return_type);
    EXPECT_EQ(got[i].qualifiers, want[i].qualifiers);
    EXPECT_EQ(s.Text(got[i].params_open), "(");
    EXPECT_EQ(s.Match(got[i].params_open), got[i].params_close);
    if (want[i].definition) {
      EXPECT_EQ(s.Match(got[i].body_open), got[i].body_close);
    }
  }
  EXPECT_EQ(s.tokens()[got[2].name_token].line, 23);  // Scale
  EXPECT_EQ(s.Calls("Prototype").size(), 2u);
  EXPECT_EQ(s.Calls("Twice").size(), 1u);
  ASSERT_EQ(s.Calls("Scale").size(), 1u);  // the launch
  EXPECT_EQ(s.tokens()[s.Calls("Scale")[0]].line, 62);
  EXPECT_TRUE(s.Calls("NotAFunction").empty());
  EXPECT_TRUE(s.Calls("InRawString").empty());
}

TEST(ScannerTest, DefinesFunction) {
  EXPECT_TRUE(DefinesFunction("void F(int x) {}", "F"));
  EXPECT_TRUE(DefinesFunction("void F(int x) noexcept {}", "F"));
  EXPECT_TRUE(DefinesFunction("void F(int x) noexcept(true) {}", "F"));
  EXPECT_TRUE(DefinesFunction("auto F(int x) -> int { return x; }", "F"));
  EXPECT_TRUE(DefinesFunction("int S::F(int x) const & { return x; }", "F"));
  EXPECT_TRUE(DefinesFunction("__global__ void __launch_bounds__(128, 2) F(float* x) {}", "F"));
  EXPECT_TRUE(DefinesFunction("void F(int x)\n{\n", "F"));  // truncated: the body need not close
  EXPECT_FALSE(DefinesFunction("void F(int x);", "F"));     // a prototype
  EXPECT_FALSE(DefinesFunction("void G(int x) { F(x); }", "F"));  // a call
  EXPECT_FALSE(DefinesFunction("void G() { int y = F(2) + 1; }", "F"));
  EXPECT_FALSE(DefinesFunction("// void F(int x) {}\nvoid G() {}", "F"));
  EXPECT_FALSE(DefinesFunction("const char* s = \"void F(int x) {}\";", "F"));
  EXPECT_FALSE(DefinesFunction("#define F(x) { x }\n", "F"));
  EXPECT_FALSE(DefinesFunction("F(a, b) {\n}", "F"));  // a macro invocation, no head
  EXPECT_FALSE(DefinesFunction("void FF(int x) {}", "F"));
  EXPECT_FALSE(DefinesFunction("int f = 3;", "f"));
  EXPECT_FALSE(DefinesFunction("int F(a, b) int a; int b; { return a; }", "F"));  // K&R
  EXPECT_FALSE(DefinesFunction("void G() { auto F = [](int x) { return x; }; }", "F"));
  EXPECT_FALSE(DefinesFunction("void F(int x) {}", ""));
  // Malformed heads never read outside the tokens.
  for (const char* bad :
       {"a<b::F(", "::F(", "x; > ::F() {", "F", "operator", "~F(", "S::S(int) : a(", "void F() -> ",
        "void F() = ", "void F() [[", "void F() = 1;"}) {
    EXPECT_FALSE(DefinesFunction(bad, "F")) << bad;
  }
  EXPECT_TRUE(DefinesFunction("}}}} void F() {", "F"));  // stray closers before do not matter
}

TEST(ScannerTest, BlankedKeepsOffsetsAndLines) {
  std::string src =
      "int a = 1; // x {\nconst char* s = u8\"}(\"_q; char c = '{';\n/* (\n */ R\"z(\n)z\";";
  std::string b = BlankCommentsAndLiterals(src);
  ASSERT_EQ(b.size(), src.size());
  EXPECT_EQ(b,
            "int a = 1;       \nconst char* s = u8\"  \"_q; char c = ' ';\n    \n    R\"  \n  \";");
}

TEST(ScannerTest, CodeTokensSkipCommentsAndLiterals) {
  EXPECT_EQ(CodeTokens("#include <cstdio>\nint x = f(\"s\", 'c'); // no\n"),
            (std::vector<std::string>{"#", "include", "<", "cstdio", ">", "int", "x", "=", "f", "(",
                                      ",", ")", ";"}));
  EXPECT_EQ(CodeTokens("#define A \\\n 1"),
            (std::vector<std::string>{"#", "define", "A", "\\", "1"}));
}

TEST(ScannerTest, CodeTokensAsRetrievalUsesThem) {
  auto t = CodeTokens(
      "for (int i = 0; i < n; ++i) c[i] += 1.5e-3f * a->x; // note\n"
      "/* block */ k<<<g, 256>>>(\"str\", 'c', 0x1Fu);");
  std::vector<std::string> expected = {
      "for", "(", "int", "i",   "=",   "0",  ";",       "i", "<",     "n",  ";", "++", "i",
      ")",   "c", "[",   "i",   "]",   "+=", "1.5e-3f", "*", "a",     "->", "x", ";",  "k",
      "<<<", "g", ",",   "256", ">>>", "(",  ",",       ",", "0x1Fu", ")",  ";"};
  EXPECT_EQ(t, expected);
}

TEST(ScannerTest, SplitTopLevel) {
  EXPECT_EQ(SplitTopLevel("const std::map<int, float>& m, float (*f)(int, int), int a[2]"),
            (std::vector<std::string>{"const std::map<int, float>& m", " float (*f)(int, int)",
                                      " int a[2]"}));
  EXPECT_EQ(SplitTopLevel(""), (std::vector<std::string>{""}));
}

}  // namespace
}  // namespace regrapht::scan
