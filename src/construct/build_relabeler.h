// The relabeler `graph build` uses: the taxonomy's names first, the large
// model for the labels they cannot place.
#pragma once

#include <memory>
#include <string>

#include "graph/relabel.h"
#include "graph/taxonomy.h"
#include "regrapht/llm.h"

namespace regrapht::construct {

struct BuildRelabelerOptions {
  UnknownLabelPolicy unknown = UnknownLabelPolicy::kFlagNew;  // both stages
  double threshold = 0.6;     // the taxonomy stage's token-overlap threshold
  std::string system_prompt;  // the model stage's (relabel_system.txt, rendered)
};

// A DeterministicRelabeler chained to an LlmRelabeler (ChainRelabeler), owning
// both. `taxonomy` and `llm` are not owned and must outlive it. Safe to call
// from several threads as its stages are.
std::unique_ptr<Relabeler> NewBuildRelabeler(const Taxonomy* taxonomy, LlmBackend* llm,
                                             const BuildRelabelerOptions& options);

}  // namespace regrapht::construct
