#include "graph/taxonomy.h"

#include <map>

#include "core/json_util.h"
#include "core/strings.h"
#include "graph/label_text.h"

namespace regrapht {
namespace {

bool IsSnakeCase(std::string_view s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Who claimed a phrase first, for collision messages.
struct Claim {
  size_t technique;
  std::string path;    // "techniques[3].synonyms[0]"
  std::string phrase;
};

// The categories in `cats`; *cat_index maps each id to its index.
Result<std::vector<TechniqueCategory>> ParseCategories(const JsonPath& cats,
                                                       std::map<std::string, size_t>* cat_index) {
  RG_RETURN_IF_ERROR(cats.ExpectArray());
  std::vector<TechniqueCategory> out;
  for (size_t i = 0; i < cats.json().size(); ++i) {
    JsonPath c = cats[i];
    RG_RETURN_IF_ERROR(c.CheckKeys({"id", "name", "description"}));
    TechniqueCategory cat;
    RG_ASSIGN_OR_RETURN(cat.id, c.GetString("id"));
    RG_ASSIGN_OR_RETURN(cat.name, c.GetString("name"));
    RG_ASSIGN_OR_RETURN(cat.description, c.GetString("description", ""));
    if (!IsSnakeCase(cat.id))
      return c.FieldError("id", "expected snake_case, got " + Quoted(cat.id));
    if (cat_index->count(cat.id)) {
      return c.FieldError("id", Quoted(cat.id) + " is already categories[" +
                                    std::to_string((*cat_index)[cat.id]) + "]");
    }
    (*cat_index)[cat.id] = i;
    out.push_back(std::move(cat));
  }
  return out;
}

// The technique at `t`, its fields checked: a new snake_case id and name
// (by_id, by_name: those of the techniques before it), a known category, a
// one-line description, at least one synonym.
Result<Technique> ParseTechnique(const JsonPath& t, const std::map<std::string, size_t>& cat_index,
                                 const std::unordered_map<std::string, size_t>& by_id,
                                 const std::map<std::string, size_t>& by_name) {
  RG_RETURN_IF_ERROR(t.CheckKeys({"id", "name", "category", "description", "synonyms"}));
  Technique tech;
  RG_ASSIGN_OR_RETURN(tech.id, t.GetString("id"));
  RG_ASSIGN_OR_RETURN(tech.name, t.GetString("name"));
  RG_ASSIGN_OR_RETURN(tech.category, t.GetString("category"));
  RG_ASSIGN_OR_RETURN(tech.description, t.GetString("description"));
  if (!IsSnakeCase(tech.id))
    return t.FieldError("id", "expected snake_case, got " + Quoted(tech.id));
  if (by_id.count(tech.id)) {
    return t.FieldError("id", Quoted(tech.id) + " is already techniques[" +
                                  std::to_string(by_id.at(tech.id)) + "]");
  }
  if (Trim(tech.name).empty()) return t.FieldError("name", "must not be empty");
  if (by_name.count(tech.name)) {
    return t.FieldError("name", Quoted(tech.name) + " is already the name of techniques[" +
                                    std::to_string(by_name.at(tech.name)) + "]");
  }
  if (!cat_index.count(tech.category)) {
    return t.FieldError("category", "unknown category " + Quoted(tech.category));
  }
  if (Trim(tech.description).empty()) return t.FieldError("description", "must not be empty");
  if (tech.description.find('\n') != std::string::npos) {
    return t.FieldError("description", "must be one line");
  }
  if (!t.Has("synonyms")) return t.FieldError("synonyms", "required field is missing");
  RG_ASSIGN_OR_RETURN(tech.synonyms, t.GetStringList("synonyms"));
  if (tech.synonyms.empty()) return t.FieldError("synonyms", "expected at least one synonym");
  return tech;
}

// The phrases technique `i` (at `t`) claims, as (path, phrase): its name and
// its synonyms, which must be lowercase, trimmed and distinct.
Result<std::vector<std::pair<std::string, std::string>>> ClaimedPhrases(const JsonPath& t,
                                                                        const Technique& tech,
                                                                        size_t i) {
  std::vector<std::pair<std::string, std::string>> phrases;  // path, phrase
  phrases.emplace_back("techniques[" + std::to_string(i) + "].name", tech.name);
  std::map<std::string, size_t> own;  // normalized synonym -> index, for duplicates
  for (size_t k = 0; k < tech.synonyms.size(); ++k) {
    const std::string& s = tech.synonyms[k];
    JsonPath sp = t["synonyms"][k];
    if (s != ToLower(s)) return sp.Error("synonyms must be lowercase, got " + Quoted(s));
    if (s.empty() || Trim(s) != s) return sp.Error("must be non-empty without outer spaces");
    std::string norm = NormalizeLabel(s);
    if (own.count(norm)) {
      return sp.Error(Quoted(s) + " duplicates synonyms[" + std::to_string(own[norm]) + "]");
    }
    own[norm] = k;
    phrases.emplace_back(sp.path(), s);
  }
  return phrases;
}

// The phrases claimed so far: NormalizeLabel / StemKey -> first claim.
struct Claims {
  std::map<std::string, Claim> by_text, by_stems;
};

// Records technique i's phrases in *claims; an error when one has no content
// words or another technique (of `techniques`) claimed its text or its
// content words first.
Status ClaimPhrases(const std::vector<std::pair<std::string, std::string>>& phrases, size_t i,
                    std::string_view source, const std::vector<Technique>& techniques,
                    Claims* claims) {
  for (const auto& [path, phrase] : phrases) {
    std::string norm = NormalizeLabel(phrase);
    std::string stems = StemKey(phrase);
    std::string where = std::string(source) + ": " + path + ": ";
    if (stems.empty()) {
      return Status::InvalidArgument(where + Quoted(phrase) +
                                     " has no content words (only stop words)");
    }
    auto t1 = claims->by_text.find(norm);
    if (t1 != claims->by_text.end() && t1->second.technique != i) {
      return Status::InvalidArgument(where + Quoted(phrase) + " is already claimed by " +
                                     techniques[t1->second.technique].id + " (" + t1->second.path +
                                     ")");
    }
    auto t2 = claims->by_stems.find(stems);
    if (t2 != claims->by_stems.end() && t2->second.technique != i) {
      return Status::InvalidArgument(where + Quoted(phrase) + " has the same content words (" +
                                     stems + ") as " + Quoted(t2->second.phrase) + " of " +
                                     techniques[t2->second.technique].id + " (" + t2->second.path +
                                     ")");
    }
    claims->by_text.emplace(norm, Claim{i, path, phrase});
    claims->by_stems.emplace(stems, Claim{i, path, phrase});
  }
  return Status::Ok();
}

}  // namespace

Result<Taxonomy> Taxonomy::Parse(std::string_view text, std::string_view source) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, source));
  JsonPath root(j, std::string(source));
  RG_RETURN_IF_ERROR(root.CheckKeys({"format", "version", "categories", "techniques"}));
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != kTaxonomyFormatName) {
    return root.FieldError("format", "expected \"regrapht-taxonomy\", got " + Quoted(format));
  }
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != 1) {
    return root.FieldError("version",
                           "unsupported version " + std::to_string(version) + " (this build reads 1)");
  }

  Taxonomy tax;
  if (!root.Has("categories")) return root.FieldError("categories", "required field is missing");
  std::map<std::string, size_t> cat_index;
  RG_ASSIGN_OR_RETURN(tax.categories_, ParseCategories(root["categories"], &cat_index));

  if (!root.Has("techniques")) return root.FieldError("techniques", "required field is missing");
  JsonPath techs = root["techniques"];
  RG_RETURN_IF_ERROR(techs.ExpectArray());
  Claims claims;
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < techs.json().size(); ++i) {
    JsonPath t = techs[i];
    RG_ASSIGN_OR_RETURN(Technique tech, ParseTechnique(t, cat_index, tax.by_id_, by_name));
    // The name and the synonyms are the phrases this technique claims.
    RG_ASSIGN_OR_RETURN(auto phrases, ClaimedPhrases(t, tech, i));
    RG_RETURN_IF_ERROR(ClaimPhrases(phrases, i, source, tax.techniques_, &claims));
    by_name[tech.name] = i;
    tax.by_id_[tech.id] = i;
    tax.techniques_.push_back(std::move(tech));
  }
  if (tax.techniques_.empty()) return techs.Error("expected at least one technique");
  return tax;
}

Result<Taxonomy> Taxonomy::Load(const fs::path& path) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
  return Parse(text, path.string());
}

Result<Taxonomy> Taxonomy::Builtin() { return Parse(BuiltinTaxonomyJson(), "<builtin taxonomy>"); }

const Technique* Taxonomy::Find(std::string_view id) const {
  auto it = by_id_.find(std::string(id));
  return it == by_id_.end() ? nullptr : &techniques_[it->second];
}

const TechniqueCategory* Taxonomy::FindCategory(std::string_view id) const {
  for (const auto& c : categories_) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

std::string Taxonomy::ToMarkdown() const {
  std::string md;
  md += "# CUDA optimization techniques\n\n";
  md += "<!-- Generated from data/taxonomy.json by `regrapht graph techniques`; do not edit.\n";
  md += "     src/graph/taxonomy_test.cc fails when this file and the data disagree. -->\n\n";
  md += "The taxonomy that graph nodes are named after and that the relabeler maps free-form\n";
  md += "method names onto (see docs/graph.md, \"Relabel\"): " +
        std::to_string(techniques_.size()) + " techniques in " +
        std::to_string(categories_.size()) + " categories.\n";
  md += "A trajectory may name a technique by its id, its name or any synonym.\n\n";
  md += "| category | techniques |\n|---|---|\n";
  for (const auto& c : categories_) {
    std::vector<std::string> ids;
    for (const auto& t : techniques_) {
      if (t.category == c.id) ids.push_back("`" + t.id + "`");
    }
    md += "| " + c.name + " | " + Join(ids, ", ") + " |\n";
  }
  for (const auto& c : categories_) {
    md += "\n## " + c.name + "\n\n";
    if (!c.description.empty()) md += c.description + "\n";
    for (const auto& t : techniques_) {
      if (t.category != c.id) continue;
      md += "\n### `" + t.id + "`: " + t.name + "\n\n";
      md += t.description + "\n\n";
      std::vector<std::string> syn;
      for (const auto& s : t.synonyms) syn.push_back("`" + s + "`");
      md += "Synonyms: " + Join(syn, ", ") + ".\n";
    }
  }
  return md;
}

}  // namespace regrapht
