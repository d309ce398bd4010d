// Relabelling: deciding which taxonomy technique each step of a trajectory
// applied, from the free-form method name an LLM (or a person) wrote.
//
// A Relabeler sees a whole trajectory and returns one LabelDecision per step,
// each saying how it was decided (no silent renames). The deterministic
// implementation here matches names against the taxonomy; an LLM-backed one
// (the paper's relabel prompt: given the current method names and the
// trajectory, answer existed yes/no and a canonical name per step) can be
// stacked on top with ChainRelabeler, which asks it only about the steps the
// first one left unmatched.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graph/taxonomy.h"
#include "graph/trajectory.h"
#include "regrapht/status.h"

namespace regrapht {

// What happens to a label that matches no taxonomy technique.
enum class UnknownLabelPolicy {
  kFlagNew,  // keep it: it becomes a node of its own, marked needs_review
  kReject,   // reject the step, and with it the trajectory
};

// How a decision was reached. Rules below kTokenOverlap found no technique.
enum class LabelRule {
  kTechniqueId,    // the label is a technique id ("shared_memory_tiling")
  kSynonym,        // equal to the name or a synonym, after NormalizeLabel
  kStemmed,        // the same content words as the name or a synonym (StemKey)
  kTokenOverlap,   // weighted token overlap with a synonym at or above the threshold
  kExternal,       // decided by another relabeler (an LLM); see LabelDecision::note
  kBelowThreshold, // the best overlap was under the threshold
  kAmbiguous,      // two techniques tied for the best overlap
  kEmpty,          // the label has no content words
};
std::string_view LabelRuleName(LabelRule rule);  // "technique-id", "synonym", ...

enum class LabelOutcome {
  kMatched,       // technique_id is a taxonomy id
  kNewTechnique,  // not in the taxonomy; becomes a node flagged for review
  kRejected,      // not in the taxonomy and the policy rejects it
};
std::string_view LabelOutcomeName(LabelOutcome outcome);  // "matched", "new", "rejected"

struct LabelDecision {
  std::string method;          // the label as written
  LabelOutcome outcome = LabelOutcome::kRejected;
  std::string technique_id;    // the match; "" unless kMatched
  LabelRule rule = LabelRule::kEmpty;
  double score = 0;            // 1 for the exact rules; the overlap score otherwise
  std::string phrase;          // the taxonomy phrase that decided (or came closest)
  std::string closest;         // unmatched: the best candidate's id, for review
  std::string note;            // free text from the relabeler (an LLM's answer)

  bool matched() const { return outcome == LabelOutcome::kMatched; }
  // "matched shared_memory_tiling by synonym \"shared memory\" (1.00)",
  // "new technique (flagged for review): no match over 0.50 (closest ...)".
  std::string Describe() const;
};

struct RelabelInput {
  // The whole trajectory: methods, and think/detail/code for relabelers that
  // read them. REQUIRES: non-null while Relabel runs.
  const Trajectory* trajectory = nullptr;
  // Names of the techniques already in the graph (the paper's "methods"
  // list), for relabelers that map onto the graph rather than the taxonomy.
  std::vector<std::string> graph_methods;
};

class Relabeler {
 public:
  virtual ~Relabeler() = default;
  // Returns exactly one decision per step, in step order. A label that cannot
  // be placed is a decision (kNewTechnique or kRejected), not an error;
  // non-OK means the relabeler itself failed (an LLM endpoint down, an answer
  // of the wrong length).
  virtual Result<std::vector<LabelDecision>> Relabel(const RelabelInput& input) = 0;
  virtual std::string_view Name() const = 0;
};

struct DeterministicRelabelerOptions {
  double threshold = 0.6;  // minimum token-overlap score to accept a match
  UnknownLabelPolicy unknown = UnknownLabelPolicy::kFlagNew;
};

// Matches each label against the taxonomy; the first rule that applies wins:
//   1. technique id; 2. synonym (verbatim after NormalizeLabel);
//   3. the same stemmed content words as a synonym (StemKey);
//   4. weighted token overlap >= threshold with a strict winner. The score of
//      a synonym is an F2 measure: recall (how much of the synonym the label
//      covers) counts four times precision (how much of the label the
//      synonym explains); words are weighted by rarity across techniques
//      (log(1 + techniques / techniques using the word)), and words of a
//      purpose clause ("... to reduce traffic") by half. Only synonyms the
//      label contains entirely, or shares two words with, are scored. A
//      technique scores its best synonym (its name counts as one).
// Otherwise the policy decides kNewTechnique or kRejected.
class DeterministicRelabeler final : public Relabeler {
 public:
  // `taxonomy` must outlive the relabeler.
  explicit DeterministicRelabeler(const Taxonomy* taxonomy,
                                  DeterministicRelabelerOptions options = {});
  ~DeterministicRelabeler() override;

  Result<std::vector<LabelDecision>> Relabel(const RelabelInput& input) override;
  std::string_view Name() const override { return "deterministic"; }

  // The decision for one label.
  LabelDecision Decide(std::string_view method) const;

 private:
  struct Index;
  const Taxonomy* taxonomy_;
  DeterministicRelabelerOptions options_;
  std::unique_ptr<Index> index_;
};

// Asks `first`, then, if some step is unmatched, asks `second` about the
// whole trajectory and takes its decision (matched, new or rejected) for
// each step `first` left unmatched; `first`'s matches stand. An unmatched
// answer keeps `first`'s closest candidate when `second` names none. Neither
// relabeler is owned; both must outlive the chain.
class ChainRelabeler final : public Relabeler {
 public:
  ChainRelabeler(Relabeler* first, Relabeler* second) : first_(first), second_(second) {}
  Result<std::vector<LabelDecision>> Relabel(const RelabelInput& input) override;
  std::string_view Name() const override { return "chain"; }

 private:
  Relabeler* first_;
  Relabeler* second_;
};

// Writes the decisions into the steps: technique_id for matched ones, "" for
// new techniques. Fails (InvalidArgument, naming the step and label) if the
// count differs from the step count or any decision is kRejected, leaving
// `trajectory` unchanged.
Status ApplyLabels(const std::vector<LabelDecision>& decisions, Trajectory* trajectory);

}  // namespace regrapht
