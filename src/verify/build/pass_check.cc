#include "verify/build/pass_check.h"

#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::verify {

bool HasConditionalDirective(std::string_view source) {
  std::vector<scan::Token> toks = scan::Tokenize(source);
  auto text = [&](size_t i) { return source.substr(toks[i].begin, toks[i].end - toks[i].begin); };
  auto skippable = [&](size_t i) {
    return toks[i].kind == scan::TokenKind::kComment || toks[i].kind == scan::TokenKind::kSplice;
  };
  int last_code_line = 0;  // line of the previous code token
  for (size_t i = 0; i < toks.size(); ++i) {
    if (skippable(i)) continue;
    const bool line_start = toks[i].line > last_code_line;
    last_code_line = toks[i].line;
    size_t j = i + 1;
    // "#", or the digraph "%:" (one token or two adjacent ones), first on its line.
    bool hash = text(i) == "#" && (toks[i].directive || line_start);
    if (!hash && line_start && text(i) == "%:") hash = true;
    if (!hash && line_start && text(i) == "%" && j < toks.size() && text(j) == ":" && toks[j].begin == toks[i].end) {
      hash = true;
      ++j;
    }
    if (!hash) continue;
    while (j < toks.size() && skippable(j)) ++j;
    if (j == toks.size()) continue;
    std::string_view name = text(j);
    if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "elifdef" ||
        name == "elifndef") {
      return true;
    }
  }
  return false;
}

namespace {

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// `# 12 "file" 1 3` or `#line 12 "file"`: the line and file it sets.
bool LineMarker(std::string_view line, int* number, std::string* file) {
  std::string_view l = Trim(line);
  if (l.empty() || l.front() != '#') return false;
  l.remove_prefix(1);
  l = Trim(l);
  if (StartsWith(l, "line")) l = Trim(l.substr(4));
  size_t digits = 0;
  while (digits < l.size() && l[digits] >= '0' && l[digits] <= '9') ++digits;
  if (digits == 0) return false;
  *number = static_cast<int>(ParseInt(std::string(l.substr(0, digits))).value_or(0));
  size_t q1 = l.find('"', digits);
  size_t q2 = q1 == std::string_view::npos ? q1 : l.find('"', q1 + 1);
  if (q2 != std::string_view::npos) *file = std::string(l.substr(q1 + 1, q2 - q1 - 1));
  return true;
}

}  // namespace

std::set<int> SurvivingLines(std::string_view ii, std::string_view file) {
  std::set<int> out;
  std::string current;
  int line = 0;
  const std::string_view want = BaseName(file);
  size_t pos = 0;
  while (pos <= ii.size()) {
    size_t nl = ii.find('\n', pos);
    std::string_view l = ii.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    int n = 0;
    std::string f = current;
    if (LineMarker(l, &n, &f)) {
      current = f;
      line = n;
    } else {
      if (!Trim(l).empty() && BaseName(current) == want) out.insert(line);
      ++line;
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

std::string FirstPassDifference(const std::vector<PassView>& views) {
  int first = 0;
  const PassView *with = nullptr, *without = nullptr;
  for (size_t a = 0; a < views.size(); ++a) {
    for (size_t b = 0; b < views.size(); ++b) {
      if (a == b) continue;
      for (int line : views[a].lines) {
        if (views[b].lines.count(line)) continue;
        if (!with || line < first) {
          first = line;
          with = &views[a];
          without = &views[b];
        }
        break;
      }
    }
  }
  if (!with) return "";
  return "line " + std::to_string(first) + " is compiled in " + with->name + " but not in " + without->name +
         ": the code depends on which compilation reads it (a macro such as __CUDA_ARCH__), so the "
         "emulator cannot check what the GPU runs";
}

std::string FormatPassViews(const std::vector<PassView>& views) {
  std::string out;
  for (const auto& v : views) {
    out += v.name + "\t";
    bool first = true;
    for (int l : v.lines) {
      out += (first ? "" : " ") + std::to_string(l);
      first = false;
    }
    out += "\n";
  }
  return out;
}

std::vector<PassView> ParsePassViews(std::string_view text) {
  std::vector<PassView> out;
  for (const auto& line : SplitLines(std::string(text))) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    PassView v;
    v.name = line.substr(0, tab);
    for (const auto& n : Split(line.substr(tab + 1), ' ')) {
      if (auto i = ParseInt(n)) v.lines.insert(static_cast<int>(*i));
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace regrapht::verify
