#include "graph/relabel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "core/strings.h"
#include "graph/label_text.h"
#include "regrapht/taxonomy.h"

namespace regrapht {

std::string_view LabelRuleName(LabelRule rule) {
  switch (rule) {
    case LabelRule::kTechniqueId:
      return "technique-id";
    case LabelRule::kSynonym:
      return "synonym";
    case LabelRule::kStemmed:
      return "stemmed";
    case LabelRule::kTokenOverlap:
      return "token-overlap";
    case LabelRule::kExternal:
      return "external";
    case LabelRule::kBelowThreshold:
      return "below-threshold";
    case LabelRule::kAmbiguous:
      return "ambiguous";
    case LabelRule::kEmpty:
      return "empty";
  }
  return "?";
}

std::string_view LabelOutcomeName(LabelOutcome outcome) {
  switch (outcome) {
    case LabelOutcome::kMatched:
      return "matched";
    case LabelOutcome::kNewTechnique:
      return "new";
    case LabelOutcome::kRejected:
      return "rejected";
  }
  return "?";
}

std::string LabelDecision::Describe() const {
  char score_text[32];
  std::snprintf(score_text, sizeof score_text, "%.2f", score);
  std::string how;
  switch (rule) {
    case LabelRule::kTechniqueId:
      how = "by technique id";
      break;
    case LabelRule::kSynonym:
    case LabelRule::kStemmed:
    case LabelRule::kTokenOverlap:
      how = "by " + std::string(LabelRuleName(rule)) + " \"" + phrase + "\" (score " + score_text +
            ")";
      break;
    case LabelRule::kExternal:
      how = "by another relabeler" + (note.empty() ? "" : ": " + note);
      break;
    case LabelRule::kBelowThreshold:
      how = closest.empty() ? "no synonym shares enough words"
                            : "best match " + closest + " via \"" + phrase + "\" scored only " +
                                  score_text;
      break;
    case LabelRule::kAmbiguous:
      how = "ambiguous: " + closest + " and " + note + " tie at " + score_text;
      break;
    case LabelRule::kEmpty:
      how = "no content words";
      break;
  }
  switch (outcome) {
    case LabelOutcome::kMatched:
      return "matched " + technique_id + " " + how;
    case LabelOutcome::kNewTechnique:
      return "new technique, flagged for review (" + how + ")";
    case LabelOutcome::kRejected:
      return "rejected (" + how + ")";
  }
  return how;
}

// ---- DeterministicRelabeler ---------------------------------------------------

struct DeterministicRelabeler::Index {
  struct Phrase {
    size_t technique;
    std::string text;
    std::vector<std::string> stems;
    double weight = 0;  // sum of the stems' idf
  };
  std::vector<Phrase> phrases;
  std::unordered_map<std::string, size_t> by_text;   // NormalizeLabel -> phrase
  std::unordered_map<std::string, size_t> by_stems;  // StemKey -> phrase
  std::unordered_map<std::string, double> idf;
  double unknown_idf = 0;  // for words no technique uses

  double Idf(const std::string& stem) const {
    auto it = idf.find(stem);
    return it == idf.end() ? unknown_idf : it->second;
  }
  // Weighted token overlap of `query` with each of `num_techniques`
  // techniques' phrases: *best gets each technique's best F2 score and
  // *best_phrase the phrase that scored it.
  void BestOverlaps(const std::vector<LabelToken>& query, size_t num_techniques,
                    std::vector<double>* best, std::vector<size_t>* best_phrase) const;
};

void DeterministicRelabeler::Index::BestOverlaps(const std::vector<LabelToken>& query,
                                                 size_t num_techniques, std::vector<double>* best,
                                                 std::vector<size_t>* best_phrase) const {
  double query_weight = 0;
  for (const auto& q : query) query_weight += Idf(q.stem) * q.weight;
  best->assign(num_techniques, 0.0);
  best_phrase->assign(num_techniques, 0);
  for (size_t i = 0; i < phrases.size(); ++i) {
    const auto& p = phrases[i];
    double shared = 0;
    size_t shared_words = 0;
    for (const auto& q : query) {
      for (const auto& s : p.stems) {
        if (s == q.stem) {
          shared += Idf(s) * q.weight;
          ++shared_words;
          break;
        }
      }
    }
    // One rare shared word is not enough ("bit packing" is not "packed
    // loads"): the label must contain the whole phrase or two of its words.
    if (shared_words < std::min<size_t>(2, p.stems.size()) || p.weight == 0) continue;
    double recall = shared / p.weight, precision = shared / query_weight;
    double f2 = 5 * precision * recall / (4 * precision + recall);
    if (f2 > (*best)[p.technique]) {
      (*best)[p.technique] = f2;
      (*best_phrase)[p.technique] = i;
    }
  }
}

DeterministicRelabeler::DeterministicRelabeler(const Taxonomy* taxonomy,
                                               DeterministicRelabelerOptions options)
    : taxonomy_(taxonomy), options_(options), index_(std::make_unique<Index>()) {
  Index& ix = *index_;
  const auto& techs = taxonomy_->techniques();
  std::unordered_map<std::string, std::set<size_t>> users;  // stem -> techniques
  for (size_t i = 0; i < techs.size(); ++i) {
    std::vector<std::string> texts = {techs[i].name};
    texts.insert(texts.end(), techs[i].synonyms.begin(), techs[i].synonyms.end());
    for (const std::string& text : texts) {
      Index::Phrase p;
      p.technique = i;
      p.text = text;
      for (auto& tok : LabelTokens(text)) {
        users[tok.stem].insert(i);
        p.stems.push_back(tok.stem);
      }
      size_t id = ix.phrases.size();
      // The taxonomy's validation guarantees no cross-technique collisions;
      // within a technique the first phrase wins.
      ix.by_text.emplace(NormalizeLabel(text), id);
      ix.by_stems.emplace(StemKey(text), id);
      ix.phrases.push_back(std::move(p));
    }
  }
  double n = static_cast<double>(techs.size());
  for (const auto& [stem, who] : users) ix.idf[stem] = std::log(1.0 + n / who.size());
  ix.unknown_idf = std::log(1.0 + n);
  for (auto& p : ix.phrases) {
    for (const auto& s : p.stems) p.weight += ix.Idf(s);
  }
}

DeterministicRelabeler::~DeterministicRelabeler() = default;

LabelDecision DeterministicRelabeler::Decide(std::string_view method) const {
  const Index& ix = *index_;
  const auto& techs = taxonomy_->techniques();
  LabelDecision d;
  d.method = std::string(method);
  auto matched = [&](size_t technique, LabelRule rule, double score, std::string phrase) {
    d.outcome = LabelOutcome::kMatched;
    d.technique_id = techs[technique].id;
    d.rule = rule;
    d.score = score;
    d.phrase = std::move(phrase);
    return d;
  };
  auto unmatched = [&](LabelRule rule) {
    d.rule = rule;
    d.outcome = options_.unknown == UnknownLabelPolicy::kFlagNew ? LabelOutcome::kNewTechnique
                                                                 : LabelOutcome::kRejected;
    return d;
  };

  // 1. Technique id.
  std::string lowered = ToLower(Trim(method));
  if (const Technique* t = taxonomy_->Find(lowered)) {
    return matched(static_cast<size_t>(t - techs.data()), LabelRule::kTechniqueId, 1.0, t->id);
  }
  // 2. Synonym, verbatim.
  if (auto it = ix.by_text.find(NormalizeLabel(method)); it != ix.by_text.end()) {
    const auto& p = ix.phrases[it->second];
    return matched(p.technique, LabelRule::kSynonym, 1.0, p.text);
  }
  // 3. Same content words.
  std::vector<LabelToken> query = LabelTokens(method);
  if (query.empty()) return unmatched(LabelRule::kEmpty);
  if (auto it = ix.by_stems.find(StemKey(method)); it != ix.by_stems.end()) {
    const auto& p = ix.phrases[it->second];
    return matched(p.technique, LabelRule::kStemmed, 1.0, p.text);
  }
  // 4. Weighted token overlap.
  std::vector<double> best;
  std::vector<size_t> best_phrase;
  ix.BestOverlaps(query, techs.size(), &best, &best_phrase);
  size_t top = 0, second = techs.size();
  for (size_t t = 1; t < techs.size(); ++t) {
    if (best[t] > best[top]) top = t;
  }
  for (size_t t = 0; t < techs.size(); ++t) {
    if (t != top && (second == techs.size() || best[t] > best[second])) second = t;
  }
  if (best[top] == 0) return unmatched(LabelRule::kBelowThreshold);
  d.score = best[top];
  d.phrase = ix.phrases[best_phrase[top]].text;
  d.closest = techs[top].id;
  if (best[top] < options_.threshold) return unmatched(LabelRule::kBelowThreshold);
  if (second < techs.size() && std::fabs(best[second] - best[top]) < 1e-9) {
    d.note = techs[second].id;
    return unmatched(LabelRule::kAmbiguous);
  }
  d.closest.clear();
  return matched(top, LabelRule::kTokenOverlap, best[top], d.phrase);
}

Result<std::vector<LabelDecision>> DeterministicRelabeler::Relabel(const RelabelInput& input) {
  if (input.trajectory == nullptr) return Status::InvalidArgument("relabel: no trajectory");
  std::vector<LabelDecision> out;
  out.reserve(input.trajectory->steps.size());
  for (const auto& step : input.trajectory->steps) out.push_back(Decide(step.method));
  return out;
}

// ---- ChainRelabeler --------------------------------------------------------------

Result<std::vector<LabelDecision>> ChainRelabeler::Relabel(const RelabelInput& input) {
  RG_ASSIGN_OR_RETURN(std::vector<LabelDecision> out, first_->Relabel(input));
  bool all = true;
  for (const auto& d : out) all = all && d.matched();
  if (all) return out;
  RG_ASSIGN_OR_RETURN(std::vector<LabelDecision> more, second_->Relabel(input));
  if (more.size() != out.size()) {
    return Status::Internal(std::string(second_->Name()) + " relabeler returned " +
                            std::to_string(more.size()) + " decisions for " +
                            std::to_string(out.size()) + " steps");
  }
  // The second relabeler was asked because the first could not place these
  // steps: its answer stands for them, matched or not, so the record says
  // who decided. The first's nearest candidate is kept for review.
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].matched()) continue;
    if (!more[i].matched() && more[i].closest.empty()) more[i].closest = out[i].closest;
    out[i] = std::move(more[i]);
  }
  return out;
}

// ---- ApplyLabels ------------------------------------------------------------------

Status ApplyLabels(const std::vector<LabelDecision>& decisions, Trajectory* trajectory) {
  if (decisions.size() != trajectory->steps.size()) {
    return Status::InvalidArgument(trajectory->kernel_id + ": " + std::to_string(decisions.size()) +
                                   " labels for " + std::to_string(trajectory->steps.size()) +
                                   " steps");
  }
  for (size_t i = 0; i < decisions.size(); ++i) {
    if (decisions[i].outcome == LabelOutcome::kRejected) {
      return Status::InvalidArgument(trajectory->kernel_id + ": steps[" + std::to_string(i) +
                                     "].method \"" + decisions[i].method +
                                     "\": " + decisions[i].Describe());
    }
  }
  for (size_t i = 0; i < decisions.size(); ++i) {
    trajectory->steps[i].technique_id = decisions[i].matched() ? decisions[i].technique_id : "";
  }
  return Status::Ok();
}

namespace {

Result<Taxonomy> LoadTaxonomyOrBuiltin(const fs::path& path) {
  if (path.empty()) return Taxonomy::Builtin();
  return Taxonomy::Load(path);
}

}  // namespace

Result<std::vector<Technique>> LoadTechniques(const fs::path& taxonomy) {
  RG_ASSIGN_OR_RETURN(Taxonomy tax, LoadTaxonomyOrBuiltin(taxonomy));
  return tax.techniques();
}

Result<std::string> TechniquesMarkdown(const fs::path& taxonomy) {
  RG_ASSIGN_OR_RETURN(Taxonomy tax, LoadTaxonomyOrBuiltin(taxonomy));
  return tax.ToMarkdown();
}

Result<std::vector<MethodLabel>> RelabelMethods(const std::vector<std::string>& methods,
                                                const fs::path& taxonomy, double threshold) {
  RG_ASSIGN_OR_RETURN(Taxonomy tax, LoadTaxonomyOrBuiltin(taxonomy));
  DeterministicRelabelerOptions ro;
  ro.threshold = threshold;
  DeterministicRelabeler relabeler(&tax, ro);
  std::vector<MethodLabel> out;
  for (const auto& m : methods) {
    LabelDecision d = relabeler.Decide(m);
    out.push_back({d.method, std::string(LabelOutcomeName(d.outcome)), d.technique_id,
                   std::string(LabelRuleName(d.rule)), d.score, d.phrase, d.closest, d.Describe()});
  }
  return out;
}

}  // namespace regrapht
