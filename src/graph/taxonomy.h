// The technique taxonomy: the canonical CUDA optimization techniques that
// graph nodes are named after, with the synonyms LLMs write for them.
//
// The data lives in data/taxonomy.json (a copy is compiled into the binary;
// Taxonomy::Builtin). Loading validates it: ids are snake_case and unique,
// every category exists, synonyms are lowercase, and no two techniques claim
// the same phrase, either verbatim (NormalizeLabel) or by content words
// (StemKey), so a synonym always maps back to exactly one technique.
//
// Thread safety: immutable after loading; safe to share.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/fs.h"
#include "regrapht/status.h"
#include "regrapht/taxonomy.h"

namespace regrapht {

inline constexpr std::string_view kTaxonomyFormatName = "regrapht-taxonomy";

struct TechniqueCategory {
  std::string id;
  std::string name;
  std::string description;
};

// Technique is public (regrapht/taxonomy.h).

class Taxonomy {
 public:
  // Parses and validates; errors name the field ("taxonomy.json:
  // techniques[3].synonyms[2]: ...").
  static Result<Taxonomy> Parse(std::string_view text, std::string_view source);
  static Result<Taxonomy> Load(const fs::path& path);
  // The copy of data/taxonomy.json compiled into this binary.
  static Result<Taxonomy> Builtin();

  const std::vector<Technique>& techniques() const { return techniques_; }
  const std::vector<TechniqueCategory>& categories() const { return categories_; }
  // nullptr if `id` is not a technique id.
  const Technique* Find(std::string_view id) const;
  const TechniqueCategory* FindCategory(std::string_view id) const;

  // docs/techniques.md: every technique by category, with its synonyms.
  std::string ToMarkdown() const;

 private:
  std::vector<TechniqueCategory> categories_;
  std::vector<Technique> techniques_;
  std::unordered_map<std::string, size_t> by_id_;
};

// The text of data/taxonomy.json as compiled in.
std::string_view BuiltinTaxonomyJson();

}  // namespace regrapht
