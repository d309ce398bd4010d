// The training corpus must not contain benchmark problems: the same name,
// function name or normalised reference source (comments, strings and
// whitespace removed) in both is an overlap. ParEval's problem and function
// names are checked too (the corpus must not contain ParEval's 60 problems).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht::bench {

struct OverlapItem {
  std::string set;        // label of where it came from
  fs::path dir;
  std::string name;       // problem / kernel name
  std::string function;   // function name
  std::string source_hash;  // of the normalised reference
};

// Every folder under `root` (recursively) holding a problem.json.
Result<std::vector<OverlapItem>> CollectItems(const fs::path& root, const std::string& set);

struct Overlap {
  OverlapItem a, b;
  std::string reason;  // "name", "function", "source"
};

// Pairs (a in `first`, b in `second`) that overlap.
std::vector<Overlap> FindOverlaps(const std::vector<OverlapItem>& first, const std::vector<OverlapItem>& second);

// Items whose name (without a "NN_" prefix) or function name is in
// `names` (e.g. ParEval's); reason "pareval".
std::vector<Overlap> FindNamed(const std::vector<OverlapItem>& items, const std::set<std::string>& names);

// Reads a names file: one name per line, '#' comments.
Result<std::set<std::string>> ReadNames(const fs::path& file);

}  // namespace regrapht::bench
