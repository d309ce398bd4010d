// How good example retrieval is for the RAG baselines (docs/search.md
// "Retrieval quality"): for a problem whose expert trajectory is known
// (a suite's expert.json), does the corpus kernel that retrieval puts first
// (ranked by its sequential code against the problem's) share the problem's
// technique path? The kernel's path is its chain of examples from the init
// node, as rag's prompt shows it.
#pragma once

#include <string>
#include <vector>

#include "graph/retrieval.h"
#include "regrapht/graph.h"

namespace regrapht {

struct RetrievalQuery {
  std::string name;
  std::string code;                     // the problem's sequential code
  std::vector<std::string> techniques;  // the expert's trajectory (technique ids)
};

struct RetrievalHit {
  std::string query, kernel;
  std::vector<std::string> techniques;  // the retrieved kernel's path
  bool first_match = false;             // the same first technique
  double jaccard = 0;                   // |A n B| / |A u B| of the two technique sets
  double recall = 0;                    // the share of the expert's techniques the kernel's path has
};

struct RetrievalQuality {
  std::vector<RetrievalHit> hits;  // one per query: its top-ranked kernel
  double first_match = 0, jaccard = 0, recall = 0;  // means over the queries
  // The same means for a kernel drawn uniformly from the corpus (the
  // expectation, computed exactly): what retrieval has to beat.
  double chance_first_match = 0, chance_jaccard = 0, chance_recall = 0;
};

// Every corpus kernel (a chain of examples from the init node) with its
// technique path (node technique ids, the name where a node has none).
struct CorpusKernel {
  std::string kernel;
  ExampleRef first;  // its example on an edge from the init node
  std::vector<std::string> techniques;
};
std::vector<CorpusKernel> CorpusKernels(const Graph& graph);

// The graph's init node, technique nodes and only the edges leaving init
// with their examples: the corpus kernels' sequential sources, which is all
// that ranking kernels needs (embedding it costs a fraction of the whole
// graph's examples).
Graph KernelStarts(const Graph& graph);

// Ranks the examples of `indexed` (the graph `index` was built over: `graph`
// itself, as rag's retrieval ranks its whole pool, or KernelStarts(graph),
// the same ranking for embeddings, whose cosine does not depend on the
// pool) against each query, takes the first that leaves the init node (a
// corpus kernel's sequential code) and scores that kernel's path. `seed`
// breaks ties as the search's retrieval does.
RetrievalQuality EvaluateRetrieval(const Graph& graph, const Graph& indexed, const ExampleIndex& index,
                                   const std::vector<RetrievalQuery>& queries, uint64_t seed = 1);

}  // namespace regrapht
