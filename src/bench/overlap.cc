#include "bench/overlap.h"

#include <algorithm>
#include <cctype>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "verify/static_check.h"

namespace regrapht::bench {
namespace {

std::string Normalize(const std::string& src) {
  std::string code = verify::StripCommentsAndStrings(src);
  std::string out;
  for (char c : code) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

std::string StripNumberPrefix(const std::string& name) {
  size_t i = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i > 0 && i < name.size() && name[i] == '_') return name.substr(i + 1);
  return name;
}

}  // namespace

Result<std::vector<OverlapItem>> CollectItems(const fs::path& root, const std::string& set) {
  std::vector<OverlapItem> items;
  std::error_code ec;
  if (!fs::exists(root, ec)) return Status::NotFound(root.string() + ": does not exist");
  std::vector<fs::path> dirs;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file() && it->path().filename() == "problem.json") dirs.push_back(it->path().parent_path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) {
    RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(d / "problem.json"));
    OverlapItem item;
    item.set = set;
    item.dir = d;
    item.name = j.value("name", d.filename().string());
    item.function = j.value("function", "");
    auto ref = ReadFile(d / "reference.cpp");
    if (ref.ok()) item.source_hash = HashHex(Normalize(*ref));
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<Overlap> FindOverlaps(const std::vector<OverlapItem>& first, const std::vector<OverlapItem>& second) {
  std::vector<Overlap> out;
  for (const auto& a : first) {
    for (const auto& b : second) {
      if (ToLower(a.name) == ToLower(b.name)) out.push_back({a, b, "name"});
      else if (!a.function.empty() && ToLower(a.function) == ToLower(b.function)) out.push_back({a, b, "function"});
      else if (!a.source_hash.empty() && a.source_hash == b.source_hash) out.push_back({a, b, "source"});
    }
  }
  return out;
}

std::vector<Overlap> FindNamed(const std::vector<OverlapItem>& items, const std::set<std::string>& names) {
  std::set<std::string> lower;
  for (const auto& n : names) {
    lower.insert(ToLower(n));
    lower.insert(ToLower(StripNumberPrefix(n)));
  }
  std::vector<Overlap> out;
  for (const auto& it : items) {
    if (lower.count(ToLower(it.name)) || lower.count(ToLower(it.function))) {
      OverlapItem named;
      named.set = "pareval";
      named.name = lower.count(ToLower(it.name)) ? it.name : it.function;
      out.push_back({it, named, "pareval"});
    }
  }
  return out;
}

Result<std::set<std::string>> ReadNames(const fs::path& file) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadFile(file));
  std::set<std::string> names;
  for (const auto& line : SplitLines(text)) {
    std::string t(Trim(line));
    if (t.empty() || t[0] == '#') continue;
    names.insert(t);
  }
  return names;
}

}  // namespace regrapht::bench
