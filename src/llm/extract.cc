// Code extraction, in this order:
//   1. JSON: the whole reply, a ```json block, or the outermost {...}/[...]
//      span, parsed strictly and, failing that, by a tolerant parser.
//   2. Markdown fences: every block; the best C/C++/CUDA one wins.
//   3. Bare code: the reply starts like C/C++/CUDA and its braces balance.
// Whatever is chosen is cleaned: a fence inside a JSON string is stripped,
// and code that arrived with literal "\n" escapes instead of newlines is
// unescaped.
#include "llm/extract.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::llm {

std::string_view ExtractFormatName(ExtractFormat format) {
  switch (format) {
    case ExtractFormat::kNone: return "none";
    case ExtractFormat::kFenced: return "fenced";
    case ExtractFormat::kJsonThinkCode: return "json";
    case ExtractFormat::kJsonSteps: return "json_steps";
    case ExtractFormat::kRaw: return "raw";
  }
  return "none";
}

namespace {

using nlohmann::json;

// ---- 1. A tolerant JSON parser ---------------------------------------------------
//
// Accepts what models write: trailing commas, raw newlines/tabs in strings,
// single-quoted strings, True/False/None, // comments, and a double quote
// inside a string that is not followed by , } ] or : (taken as a literal
// quote: `"code": "printf("hi");"`). Fails on truncation.
class LenientJson {
 public:
  explicit LenientJson(std::string_view s) : s_(s) {}

  std::optional<json> Parse(std::string* error) {
    std::optional<json> v = Value();
    if (v) {
      SkipSpace();
      if (i_ != s_.size()) v.reset(), error_ = "trailing text after the JSON value";
    }
    if (!v && error) *error = error_.empty() ? "malformed JSON" : error_;
    return v;
  }
  const std::vector<std::string>& repairs() const { return repairs_; }

 private:
  void Repair(const std::string& what) {
    if (std::find(repairs_.begin(), repairs_.end(), what) == repairs_.end()) {
      repairs_.push_back(what);
    }
  }
  bool Fail(const std::string& what) {
    if (error_.empty()) error_ = what;
    return false;
  }
  void SkipSpace() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        Repair("comment");
      } else {
        break;
      }
    }
  }

  std::optional<json> Value() {
    if (++depth_ > 200) return Fail("nested too deep"), std::nullopt;
    SkipSpace();
    std::optional<json> v;
    if (i_ >= s_.size()) {
      Fail("truncated JSON (ends where a value should start)");
    } else if (s_[i_] == '{') {
      v = Object();
    } else if (s_[i_] == '[') {
      v = Array();
    } else if (s_[i_] == '"' || s_[i_] == '\'') {
      if (auto str = String()) v = json(std::move(*str));
    } else {
      v = Literal();
    }
    --depth_;
    return v;
  }

  std::optional<json> Object() {
    ++i_;  // {
    json obj = json::object();
    while (true) {
      SkipSpace();
      if (i_ >= s_.size()) return Fail("truncated JSON (unclosed object)"), std::nullopt;
      if (s_[i_] == '}') {
        ++i_;
        return obj;
      }
      std::optional<std::string> key;
      if (s_[i_] == '"' || s_[i_] == '\'') {
        key = String();
      } else {  // unquoted key
        size_t start = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
          ++i_;
        }
        if (i_ > start) {
          key = std::string(s_.substr(start, i_ - start));
          Repair("unquoted key");
        }
      }
      if (!key) return Fail("expected a key"), std::nullopt;
      SkipSpace();
      if (i_ >= s_.size()) return Fail("truncated JSON (after a key)"), std::nullopt;
      if (s_[i_] != ':') return Fail("expected ':' after key \"" + *key + "\""), std::nullopt;
      ++i_;
      auto value = Value();
      if (!value) return std::nullopt;
      obj[*key] = std::move(*value);
      SkipSpace();
      if (i_ >= s_.size()) return Fail("truncated JSON (unclosed object)"), std::nullopt;
      if (s_[i_] == ',') {
        ++i_;
        SkipSpace();
        if (i_ < s_.size() && s_[i_] == '}') Repair("trailing comma");
      } else if (s_[i_] != '}') {
        return Fail("expected ',' or '}' in an object"), std::nullopt;
      }
    }
  }

  std::optional<json> Array() {
    ++i_;  // [
    json arr = json::array();
    while (true) {
      SkipSpace();
      if (i_ >= s_.size()) return Fail("truncated JSON (unclosed array)"), std::nullopt;
      if (s_[i_] == ']') {
        ++i_;
        return arr;
      }
      auto value = Value();
      if (!value) return std::nullopt;
      arr.push_back(std::move(*value));
      SkipSpace();
      if (i_ >= s_.size()) return Fail("truncated JSON (unclosed array)"), std::nullopt;
      if (s_[i_] == ',') {
        ++i_;
        SkipSpace();
        if (i_ < s_.size() && s_[i_] == ']') Repair("trailing comma");
      } else if (s_[i_] != ']') {
        return Fail("expected ',' or ']' in an array"), std::nullopt;
      }
    }
  }

  // After a closing quote candidate at i_ (pointing just past it): does
  // structure follow?
  // `printf("%d", x)` inside a string: the quote before `,` is followed by
  // ` x)`, not by the next key or value, so it is not the string's end.
  bool StructureFollows(size_t j) const {
    auto skip = [&](size_t k) {
      while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t' || s_[k] == '\r' || s_[k] == '\n')) ++k;
      return k;
    };
    j = skip(j);
    if (j >= s_.size() || s_[j] == '}' || s_[j] == ']') return true;
    if (s_[j] != ',' && s_[j] != ':') return false;
    size_t k = skip(j + 1);
    if (k >= s_.size()) return true;
    char c = s_[k];
    if (s_[j] == ',') return c == '"' || c == '\'' || c == '{' || c == '[' || c == '}' || c == ']';
    return c == '"' || c == '\'' || c == '{' || c == '[' || c == '-' ||
           std::isdigit(static_cast<unsigned char>(c)) || c == 't' || c == 'f' || c == 'n' ||
           c == 'T' || c == 'F' || c == 'N';
  }

  std::optional<std::string> String() {
    const char quote = s_[i_++];
    if (quote == '\'') Repair("single-quoted string");
    std::string out;
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == quote) {
        if (StructureFollows(i_)) return out;
        Repair("unescaped quote in a string");
        out += c;
      } else if (c == '\\') {
        if (i_ >= s_.size()) break;
        char e = s_[i_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case '/': out += '/'; break;
          case '\\': out += '\\'; break;
          case '"': out += '"'; break;
          case '\'': out += '\''; break;
          case 'u': {
            auto cp = Hex4(i_);
            if (!cp) return Fail("bad \\u escape"), std::nullopt;
            i_ += 4;
            if (*cp >= 0xD800 && *cp <= 0xDBFF && i_ + 6 <= s_.size() && s_[i_] == '\\' &&
                s_[i_ + 1] == 'u') {
              if (auto lo = Hex4(i_ + 2); lo && *lo >= 0xDC00 && *lo <= 0xDFFF) {
                i_ += 6;
                *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*lo - 0xDC00);
              }
            }
            AppendUtf8(&out, *cp);
            break;
          }
          default:  // \x, \0, ... : keep both characters, as C code means them
            Repair("invalid escape");
            out += '\\';
            out += e;
        }
      } else {
        if (c == '\n' || c == '\t' || c == '\r') Repair("raw control character in a string");
        out += c;
      }
    }
    return Fail("truncated JSON (unterminated string)"), std::nullopt;
  }

  std::optional<unsigned> Hex4(size_t at) const {
    if (at + 4 > s_.size()) return std::nullopt;
    unsigned v = 0;
    for (size_t k = at; k < at + 4; ++k) {
      char c = s_[k];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return std::nullopt;
    }
    return v;
  }

  static void AppendUtf8(std::string* out, unsigned cp) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::optional<json> Literal() {
    size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) ||
                              s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.')) {
      ++i_;
    }
    std::string word(s_.substr(start, i_ - start));
    if (word == "true" || word == "True") return json(true);
    if (word == "false" || word == "False") return json(false);
    if (word == "null" || word == "None") return json(nullptr);
    if (!word.empty()) {
      try {
        return json::parse(word);
      } catch (const std::exception&) {
      }
    }
    if (i_ >= s_.size() && !word.empty()) return Fail("truncated JSON"), std::nullopt;
    return Fail("unexpected text in JSON"), std::nullopt;
  }

  std::string_view s_;
  size_t i_ = 0;
  int depth_ = 0;
  std::string error_;
  std::vector<std::string> repairs_;
};

// ---- Cleaning ---------------------------------------------------------------------

int CountOf(std::string_view s, std::string_view what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string_view::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// Code that came as a one-line string with literal \n escapes.
std::string UnescapeIfEscaped(std::string code, std::vector<std::string>* notes) {
  if (code.find('\n') == std::string::npos && CountOf(code, "\\n") >= 2) {
    std::string out;
    for (size_t i = 0; i < code.size(); ++i) {
      if (code[i] == '\\' && i + 1 < code.size()) {
        char e = code[i + 1];
        if (e == 'n') { out += '\n'; ++i; continue; }
        if (e == 't') { out += '\t'; ++i; continue; }
        if (e == '"') { out += '"'; ++i; continue; }
        if (e == '\\') { out += '\\'; ++i; continue; }
      }
      out += code[i];
    }
    notes->push_back("unescaped literal \\n");
    return out;
  }
  return code;
}

std::string TrimBlankLines(std::string_view s) {
  // Drop leading blank lines and trailing whitespace, keep indentation.
  size_t start = 0;
  while (true) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) break;
    if (!Trim(s.substr(start, nl - start)).empty()) break;
    start = nl + 1;
  }
  size_t end = s.size();
  while (end > start && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return std::string(s.substr(start, end - start));
}

// ---- 2. Markdown fences -------------------------------------------------------------

struct Block {
  std::string language;
  std::string code;
  bool closed = true;
};

bool IsFenceLine(std::string_view line, std::string* info, char* fence_char, size_t* fence_len,
                 size_t* indent_out = nullptr) {
  std::string_view t = line;
  size_t indent = 0;
  while (indent < t.size() && indent < 4 && t[indent] == ' ') ++indent;
  t.remove_prefix(indent);
  if (t.size() < 3) return false;
  char c = t[0];
  if (c != '`' && c != '~') return false;
  size_t n = 0;
  while (n < t.size() && t[n] == c) ++n;
  if (n < 3) return false;
  *fence_char = c;
  *fence_len = n;
  if (indent_out) *indent_out = indent;
  *info = std::string(Trim(t.substr(n)));
  return true;
}

std::vector<Block> FencedBlocks(std::string_view reply) {
  std::vector<Block> blocks;
  std::vector<std::string> lines = Split(reply, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string info;
    char fc;
    size_t flen, indent;
    if (!IsFenceLine(lines[i], &info, &fc, &flen, &indent)) continue;
    // An opening fence's info string is the language; "```cuda title" keeps "cuda".
    Block b;
    b.language = ToLower(info.substr(0, info.find_first_of(" \t{")));
    if (!b.language.empty() && b.language.front() == '.') b.language.erase(0, 1);
    std::string body;
    size_t j = i + 1;
    bool closed = false;
    for (; j < lines.size(); ++j) {
      std::string cinfo;
      char cc;
      size_t clen;
      if (IsFenceLine(lines[j], &cinfo, &cc, &clen) && cc == fc && clen >= flen && cinfo.empty()) {
        closed = true;
        break;
      }
      // Content lines lose up to the fence's own indentation (CommonMark).
      std::string_view line = lines[j];
      size_t strip = 0;
      while (strip < indent && strip < line.size() && line[strip] == ' ') ++strip;
      body += line.substr(strip);
      body += '\n';
    }
    b.code = TrimBlankLines(body);
    b.closed = closed;
    blocks.push_back(std::move(b));
    i = j;
  }
  return blocks;
}

enum class LangClass { kCuda, kCpp, kUntagged, kJson, kOther };

LangClass Classify(const std::string& lang) {
  static const char* cuda[] = {"cuda", "cu", "cuh", "nvcc"};
  static const char* cpp[] = {"cpp", "c++", "cxx", "cc", "c", "h", "hpp", "objective-c"};
  for (auto* l : cuda) if (lang == l) return LangClass::kCuda;
  for (auto* l : cpp) if (lang == l) return LangClass::kCpp;
  if (lang.empty()) return LangClass::kUntagged;
  if (lang == "json" || lang == "jsonc" || lang == "json5") return LangClass::kJson;
  return LangClass::kOther;
}

// How much C/C++/CUDA a block defines: lines that look like code.
int CodeScore(std::string_view code) {
  int score = 0;
  for (const auto& line : SplitLines(code)) {
    std::string_view t = Trim(line);
    if (t.empty() || StartsWith(t, "//")) continue;
    if (t.find(';') != std::string_view::npos || t.find('{') != std::string_view::npos ||
        t.find('}') != std::string_view::npos || StartsWith(t, "#")) {
      ++score;
    }
  }
  score += 10 * CountOf(code, "__global__");
  return score;
}

// Every brace outside comments, literals and directives has its partner,
// and no comment or literal is left open: the code was not cut off inside.
bool BracesBalance(std::string_view code) {
  scan::ScannedSource s(code);
  for (size_t i = 0; i < s.tokens().size(); ++i) {
    const scan::Token& t = s.tokens()[i];
    if (t.unterminated) return false;
    if (s.IsCode(i) && (s.Text(t) == "{" || s.Text(t) == "}") && s.Match(i) == scan::kNone) return false;
  }
  return true;
}

// The output stopped at a statement or block boundary, not mid-token.
bool EndsCleanly(std::string_view code) {
  std::string_view t = Trim(code);
  return !t.empty() && (t.back() == '}' || t.back() == ';');
}

bool LooksLikeCode(std::string_view code) {
  return code.find('{') != std::string_view::npos || code.find(';') != std::string_view::npos ||
         code.find("#include") != std::string_view::npos;
}

// ---- 1. JSON -----------------------------------------------------------------------

// Strips a fence wrapped around code inside a JSON string.
std::string Unfence(const std::string& code, std::string* language) {
  auto blocks = FencedBlocks(code);
  if (blocks.size() == 1 && StartsWith(Trim(code), "```")) {
    *language = blocks[0].language;
    return blocks[0].code;
  }
  return code;
}

std::string StringField(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return "";
  const json& v = obj[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return JsonLine(v);
}

struct JsonHit {
  Extraction ex;
  bool had_code_key = false;
};

std::optional<JsonHit> FromJsonValue(const json& v) {
  JsonHit hit;
  const json* steps = nullptr;
  if (v.is_array()) steps = &v;
  if (v.is_object() && v.contains("steps") && v["steps"].is_array()) steps = &v["steps"];
  if (steps != nullptr) {
    for (const auto& s : *steps) {
      if (!s.is_object()) continue;
      CodeStep step{StringField(s, "think"), StringField(s, "method"), StringField(s, "detail"),
                    StringField(s, "code")};
      if (s.contains("code")) hit.had_code_key = true;
      hit.ex.steps.push_back(std::move(step));
    }
    if (hit.ex.steps.empty()) return std::nullopt;
    hit.ex.format = ExtractFormat::kJsonSteps;
    for (auto it = hit.ex.steps.rbegin(); it != hit.ex.steps.rend(); ++it) {
      if (!Trim(it->code).empty()) {
        hit.ex.code = it->code;
        break;
      }
    }
    if (!hit.ex.steps.empty()) hit.ex.think = hit.ex.steps.front().think;
    return hit;
  }
  if (v.is_object()) {
    for (const char* key : {"code", "cuda_code", "kernel", "solution"}) {
      if (v.contains(key)) {
        hit.had_code_key = true;
        hit.ex.code = StringField(v, key);
        break;
      }
    }
    if (!hit.had_code_key) return std::nullopt;
    hit.ex.format = ExtractFormat::kJsonThinkCode;
    hit.ex.think = StringField(v, "think");
    return hit;
  }
  return std::nullopt;
}

// Candidate JSON texts: the whole reply, ```json blocks, the outermost span.
std::vector<std::string_view> JsonCandidates(std::string_view reply,
                                             const std::vector<Block>& blocks,
                                             std::vector<std::string>* storage) {
  std::vector<std::string_view> out;
  std::string_view t = Trim(reply);
  if (!t.empty() && (t.front() == '{' || t.front() == '[')) out.push_back(t);
  for (const auto& b : blocks) {
    std::string_view code = Trim(b.code);
    if (Classify(b.language) == LangClass::kJson ||
        (b.language.empty() && !code.empty() && (code.front() == '{' || code.front() == '['))) {
      storage->push_back(std::string(code));
    }
  }
  for (const auto& s : *storage) out.push_back(s);
  size_t open = t.find_first_of("{[");
  if (open != std::string_view::npos && open > 0) {
    char close = t[open] == '{' ? '}' : ']';
    size_t end = t.rfind(close);
    if (end != std::string_view::npos && end > open) {
      out.push_back(t.substr(open, end - open + 1));
    } else {
      out.push_back(t.substr(open));  // probably truncated: let the parser say so
    }
  }
  return out;
}

// Step 1 of ExtractCode: the first JSON candidate (strict, else lenient)
// with a non-empty code field. Sets *json_error to why a candidate that
// seems to hold code could not be read, or had empty code.
std::optional<Extraction> ExtractFromJson(std::string_view reply, const std::vector<Block>& blocks,
                                          std::vector<std::string>* notes,
                                          std::string* json_error) {
  std::vector<std::string> storage;
  storage.reserve(blocks.size());
  for (std::string_view candidate : JsonCandidates(reply, blocks, &storage)) {
    std::optional<json> value;
    std::vector<std::string> repairs;
    try {
      value = json::parse(candidate);
    } catch (const std::exception&) {
      LenientJson lenient(candidate);
      std::string err;
      value = lenient.Parse(&err);
      if (!value) {
        if (json_error->empty() && (candidate.find("\"code\"") != std::string_view::npos ||
                                    candidate.find("'code'") != std::string_view::npos)) {
          *json_error = err;
        }
        continue;
      }
      repairs = lenient.repairs();
    }
    auto hit = FromJsonValue(*value);
    if (!hit) continue;
    Extraction ex = std::move(hit->ex);
    for (auto& step : ex.steps) {
      std::string lang;
      step.code = UnescapeIfEscaped(TrimBlankLines(Unfence(step.code, &lang)), notes);
    }
    ex.code = UnescapeIfEscaped(TrimBlankLines(Unfence(ex.code, &ex.language)), notes);
    if (Trim(ex.code).empty()) {
      *json_error = "the JSON's code field is empty";
      continue;
    }
    if (!repairs.empty()) notes->insert(notes->begin(), "repaired JSON: " + Join(repairs, ", "));
    ex.reason = Join(*notes, "; ");
    return ex;
  }
  return std::nullopt;
}

// Step 2 of ExtractCode: the best-scoring C/C++/CUDA fenced block (one
// defining options.function_name first). Lists the languages of blocks
// skipped as not C++ in *skipped; sets *saw_unclosed for a cut-off block.
std::optional<Extraction> ExtractFromFences(const std::vector<Block>& blocks,
                                            const ExtractOptions& options,
                                            std::vector<std::string>* notes,
                                            std::vector<std::string>* skipped, bool* saw_unclosed) {
  const Block* best = nullptr;
  long best_score = -1;
  for (const auto& b : blocks) {
    LangClass cls = Classify(b.language);
    if (cls == LangClass::kJson || cls == LangClass::kOther) {
      skipped->push_back(b.language);
      continue;
    }
    if (Trim(b.code).empty() || !LooksLikeCode(b.code)) continue;
    if (!b.closed && !(BracesBalance(b.code) && EndsCleanly(b.code))) {
      *saw_unclosed = true;
      continue;
    }
    long score = CodeScore(b.code);
    if (cls == LangClass::kCuda) score += 5;
    if (scan::DefinesFunction(b.code, options.function_name)) score += 1000000;
    if (score > best_score) {
      best = &b;
      best_score = score;
    }
  }
  if (best == nullptr) return std::nullopt;
  Extraction ex;
  ex.format = ExtractFormat::kFenced;
  ex.language = best->language;
  ex.code = UnescapeIfEscaped(best->code, notes);
  if (!best->closed) notes->push_back("unterminated code block (braces balance)");
  if (!options.function_name.empty() && !scan::DefinesFunction(ex.code, options.function_name)) {
    notes->push_back("no block defines " + options.function_name);
  }
  ex.reason = Join(*notes, "; ");
  return ex;
}

// Step 3 of ExtractCode: the trimmed reply `t` itself, when it has no
// fenced block and starts and reads like code.
std::optional<Extraction> ExtractBareCode(std::string_view t, const std::vector<Block>& blocks,
                                          std::vector<std::string>* notes) {
  if (!blocks.empty() || t.empty()) return std::nullopt;
  static const char* starts[] = {"#include",   "#define",  "#pragma",      "__global__",
                                 "__device__", "template", "extern \"C\"", "static ",
                                 "void ",      "int ",     "float ",       "double ",
                                 "//",         "/*",       "namespace ",   "struct "};
  bool starts_like_code = false;
  for (auto* s : starts) starts_like_code = starts_like_code || StartsWith(t, s);
  if (!starts_like_code || !LooksLikeCode(t) || !BracesBalance(t) || CodeScore(t) < 2)
    return std::nullopt;
  Extraction ex;
  ex.format = ExtractFormat::kRaw;
  ex.code = UnescapeIfEscaped(TrimBlankLines(t), notes);
  ex.reason = Join(*notes, "; ");
  return ex;
}

}  // namespace

Extraction ExtractCode(std::string_view raw_reply, const ExtractOptions& options) {
  std::vector<std::string> notes;
  std::string normalized = ReplaceAll(std::string(raw_reply), "\r\n", "\n");
  // A NUL byte is no source text (nvcc ignores it with a warning): it never
  // reaches the code that is verified and written as the answer.
  if (const size_t nuls =
          static_cast<size_t>(std::count(normalized.begin(), normalized.end(), '\0'))) {
    std::erase(normalized, '\0');
    notes.push_back("removed " + std::to_string(nuls) + " NUL byte(s) from the reply");
  }
  std::string_view reply = normalized;
  std::vector<Block> blocks = FencedBlocks(reply);

  // 1. JSON.
  std::string json_error;
  if (auto ex = ExtractFromJson(reply, blocks, &notes, &json_error)) return std::move(*ex);
  // 2. Fenced blocks.
  std::vector<std::string> skipped;
  bool saw_unclosed = false;
  if (auto ex = ExtractFromFences(blocks, options, &notes, &skipped, &saw_unclosed))
    return std::move(*ex);
  // 3. Bare code.
  std::string_view t = Trim(reply);
  if (auto ex = ExtractBareCode(t, blocks, &notes)) return std::move(*ex);

  Extraction none;
  if (t.empty()) {
    none.reason = "empty reply";
  } else if (!json_error.empty()) {
    none.reason = "no code found: JSON with a code field could not be read: " + json_error;
  } else if (saw_unclosed) {
    none.reason = "no code found: the code block is unterminated and its code is cut off "
                  "(reply truncated?)";
  } else if (!skipped.empty()) {
    none.reason = "no code found: only non-C++ code blocks (" + Join(skipped, ", ") + ")";
  } else if (!blocks.empty()) {
    none.reason = "no code found: the code blocks hold no C/C++ code";
  } else {
    none.reason = "no code found: no code block, no JSON with code, and the reply is not code";
  }
  return none;
}

JsonExtraction ExtractJson(std::string_view raw_reply) {
  const std::string normalized = ReplaceAll(std::string(raw_reply), "\r\n", "\n");
  std::string_view reply = normalized;
  std::vector<Block> blocks = FencedBlocks(reply);
  std::vector<std::string> storage;
  storage.reserve(blocks.size());
  JsonExtraction out;
  std::string first_error;
  for (std::string_view candidate : JsonCandidates(reply, blocks, &storage)) {
    try {
      out.value = json::parse(candidate);
      out.found = true;
      return out;
    } catch (const std::exception&) {
      LenientJson lenient(candidate);
      std::string err;
      std::optional<json> value = lenient.Parse(&err);
      if (!value) {
        if (first_error.empty()) first_error = err;
        continue;
      }
      out.value = std::move(*value);
      out.found = true;
      if (!lenient.repairs().empty()) out.reason = "repaired JSON: " + Join(lenient.repairs(), ", ");
      return out;
    }
  }
  if (Trim(reply).empty()) {
    out.reason = "empty reply";
  } else if (!first_error.empty()) {
    out.reason = "the JSON could not be read: " + first_error;
  } else {
    out.reason = "no JSON in the reply";
  }
  return out;
}

}  // namespace regrapht::llm
