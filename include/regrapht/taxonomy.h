// The technique taxonomy (data/taxonomy.json, compiled in; docs/techniques.md):
// the canonical CUDA optimization techniques that graph nodes are named
// after, with the synonyms LLMs write for them, and how a free-form method
// name is mapped onto one (relabelling, deterministic: the technique id, a
// synonym, the same content words, or a token-overlap score over a
// threshold). What `regrapht graph techniques` and `graph relabel` show.
//
//   Result<std::vector<MethodLabel>> labels = RelabelMethods({"tiling with smem"}, {}, 0.6);
//
// Inside the library: graph/taxonomy.h, graph/relabel.h.
//
// Thread safety: every function is safe to call from any thread.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

struct Technique {
  std::string id;                     // snake_case, stable: graphs refer to it
  std::string name;                   // canonical display name
  std::string category;               // a category id ("memory", ...)
  std::string description;            // one line
  std::vector<std::string> synonyms;  // lowercase phrases as LLMs write them
};

// The techniques of the taxonomy file `taxonomy` (empty: the built-in one),
// in file order. Errors name the file and field.
Result<std::vector<Technique>> LoadTechniques(const std::filesystem::path& taxonomy);

// The taxonomy as Markdown (docs/techniques.md is this text); `taxonomy` as above.
Result<std::string> TechniquesMarkdown(const std::filesystem::path& taxonomy);

// How one method name maps onto the taxonomy.
struct MethodLabel {
  std::string method;     // as written
  std::string outcome;    // "matched", "new" (a technique of its own, flagged for review)
  std::string technique;  // the match's id; "" unless matched
  std::string rule;       // which rule decided: "technique-id", "synonym", ...
  double score = 0;       // 1 for the exact rules; the overlap score otherwise
  std::string phrase;     // the taxonomy phrase that decided (or came closest)
  std::string closest;    // unmatched: the best candidate's id, for review
  // In words: "matched shared_memory_tiling by synonym \"shared memory\" (1.00)".
  std::string description;
};

// Relabels each of `methods` with the taxonomy `taxonomy` (empty: built-in)
// and the token-overlap `threshold` (0..1): one label per method, in order.
// Unknown techniques are kept as new (the import's default). Fails only on a
// taxonomy that does not load.
Result<std::vector<MethodLabel>> RelabelMethods(const std::vector<std::string>& methods,
                                                const std::filesystem::path& taxonomy,
                                                double threshold);

}  // namespace regrapht
