// LlmRelabeler: the paper's relabel step (Algorithm 1, line 7) with a
// language model. It sends the model
//
//   system: the relabel instructions (data/prompts/relabel_system.txt)
//   user:   {"methods": [technique names], "process": [{"method", "detail"}, ...]}
//
// and expects one {"existed": "yes"|"no", "method": ...} per step: for "yes",
// a name copied from "methods"; for "no", the step's own method. The answer
// is read robustly (a ```json fence, prose around it, the tolerant JSON
// parser of llm/extract.h), but never guessed at: an answer that cannot be
// read, has the wrong length, or says "yes" with a name that is not in the
// list is an error Status, not a rename.
//
// The methods list is every taxonomy technique's canonical name followed by
// RelabelInput::graph_methods that are not among them (nodes outside the
// taxonomy). "yes" with a taxonomy name is a match (rule kExternal); "yes"
// with one of the other names, and "no", are outside the taxonomy: a new
// technique flagged for review, or a rejection, per UnknownLabelPolicy. Every
// decision keeps the model's answer for that step in `note`.
//
// Meant to run after DeterministicRelabeler in a ChainRelabeler, so only
// trajectories with a step the taxonomy's names cannot place cost a request.
//
// Thread safety: Relabel() may be called from several threads if the backend
// allows it (every backend does).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "graph/relabel.h"
#include "graph/taxonomy.h"
#include "regrapht/llm.h"

namespace regrapht {

struct LlmRelabelerOptions {
  // The system prompt. REQUIRED (normally data/prompts/relabel_system.txt).
  std::string system_prompt;
  UnknownLabelPolicy unknown = UnknownLabelPolicy::kFlagNew;
  // Greedy by default: the same trajectory gets the same labels (and hits
  // the response cache).
  SamplingParams sampling = [] {
    SamplingParams s;
    s.temperature = 0;
    s.max_tokens = 2048;
    return s;
  }();
};

class LlmRelabeler final : public Relabeler {
 public:
  // `backend` and `taxonomy` must outlive the relabeler.
  LlmRelabeler(LlmBackend* backend, const Taxonomy* taxonomy, LlmRelabelerOptions options);

  // One request per call. Non-OK when the backend fails (its Status, with
  // context) or the answer is unusable (InvalidArgument saying why).
  Result<std::vector<LabelDecision>> Relabel(const RelabelInput& input) override;
  std::string_view Name() const override { return "llm"; }

  // The "methods" list for `input`.
  std::vector<std::string> MethodList(const RelabelInput& input) const;
  // The user message for `input` (JSON text).
  std::string UserMessage(const RelabelInput& input) const;
  // Turns a reply into one decision per step of `input.trajectory`.
  Result<std::vector<LabelDecision>> ParseAnswer(std::string_view reply,
                                                 const RelabelInput& input) const;

 private:
  LlmBackend* backend_;
  const Taxonomy* taxonomy_;
  LlmRelabelerOptions options_;
};

}  // namespace regrapht
