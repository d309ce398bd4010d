#include "graph/label_text.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/strings.h"

namespace regrapht {
namespace {

// Words that say how a step was phrased, not which technique it used.
constexpr std::array<std::string_view, 78> kStopWords = {
    "a",           "an",          "the",         "of",           "for",
    "to",          "and",         "or",          "with",         "by",
    "via",         "in",          "on",          "into",         "onto",
    "from",        "at",          "as",          "using",        "use",
    "used",        "uses",        "utilize",     "utilizing",    "apply",
    "applying",    "applied",     "implement",   "implementing", "implemented",
    "introduce",   "introducing", "introduced",  "add",          "adding",
    "added",       "employ",      "employing",   "leverage",     "leveraging",
    "enable",      "enabling",    "optimization", "optimizations", "optimize",
    "optimizing",  "optimized",   "optimise",    "optimising",   "optimisation",
    "optimisations", "technique", "techniques",  "method",       "methods",
    "step",        "strategy",    "approach",    "cuda",         "gpu",
    "this",        "that",        "its",         "it",           "better",
    "improve",     "improving",   "improved",    "efficient",    "efficiently",
    "performance", "each",        "all",         "per",          "across",
    "level",       "based",       "through",
};

bool HasDigit(std::string_view w) {
  return std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool AllDigits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Replaces `suffix` by `repl` if what remains is at least 3 letters.
bool StripSuffix(std::string& w, std::string_view suffix, std::string_view repl = "") {
  if (w.size() < suffix.size() + 3 || !EndsWith(w, suffix)) return false;
  w.resize(w.size() - suffix.size());
  w += repl;
  return true;
}

}  // namespace

bool IsLabelStopWord(std::string_view word) {
  return std::find(kStopWords.begin(), kStopWords.end(), word) != kStopWords.end();
}

std::string NormalizeLabel(std::string_view text) {
  std::string out;
  bool space = false;
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c)) {
      if (space && !out.empty()) out += ' ';
      space = false;
      out += static_cast<char>(std::tolower(c));
    } else {
      space = true;
    }
  }
  return out;
}

std::string StemWord(std::string_view word) {
  std::string w(word);
  if (w.size() < 4 || HasDigit(w)) return w;
  // 1. Inflection.
  // "-ing"/"-ed" put back an "e" so that "tiled", "tiling" and "tile", or
  // "aggregated" and "aggregate", meet again in step 2.
  if (!(StripSuffix(w, "ings", "e") || StripSuffix(w, "ing", "e") || StripSuffix(w, "ies", "y") ||
        StripSuffix(w, "ed", "e"))) {
    if (EndsWith(w, "es") && !EndsWith(w, "sses") && w.size() >= 6 &&
        std::string_view("sxz").find(w[w.size() - 3]) != std::string_view::npos) {
      w.resize(w.size() - 2);  // "accesses", "indexes"
    } else if (EndsWith(w, "s") && !EndsWith(w, "ss") && !EndsWith(w, "us") &&
               !EndsWith(w, "is") && w.size() >= 4) {
      w.pop_back();  // "loops", "tiles" (-> "tile", then "til" below)
    }
  }
  // 2. Derivation: one rule, longest first.
  for (auto [suffix, repl] : std::initializer_list<std::pair<std::string_view, std::string_view>>{
           {"ization", ""}, {"isation", ""}, {"ation", ""}, {"ction", "c"}, {"ence", ""},
           {"ment", ""},    {"ism", ""},     {"ion", ""},   {"ize", ""},    {"ise", ""},
           {"ate", ""},     {"ent", ""},     {"e", ""}}) {
    if (StripSuffix(w, suffix, repl)) break;
  }
  return w;
}

std::vector<LabelToken> LabelTokens(std::string_view text) {
  std::vector<LabelToken> out;
  double weight = 1.0;
  for (const std::string& word : Split(NormalizeLabel(text), ' ')) {
    if (word.empty()) continue;
    if (word == "for" || word == "to") weight = 0.5;
    if (IsLabelStopWord(word) || AllDigits(word)) continue;
    std::string stem = StemWord(word);
    bool seen = std::any_of(out.begin(), out.end(), [&](const LabelToken& t) { return t.stem == stem; });
    if (!seen) out.push_back({std::move(stem), weight});
  }
  return out;
}

std::string StemKey(std::string_view text) {
  std::vector<std::string> stems;
  for (auto& t : LabelTokens(text)) stems.push_back(t.stem);
  std::sort(stems.begin(), stems.end());
  return Join(stems, " ");
}

}  // namespace regrapht
