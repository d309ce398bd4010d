// How good example retrieval is for the RAG baselines (`regrapht graph
// retrieval-eval`; docs/search.md "Retrieval quality"): for each problem of a
// suite whose expert trajectory is known (expert.json), does the corpus
// kernel of the reasoning graph that retrieval ranks first (by its
// sequential code against the problem's) share the problem's technique path?
// Ranked by BM25 over the graph's whole example pool (as rag's retrieval
// does) and by a llama.cpp model's embeddings.
//
//   RetrievalEvalOptions o;            // the shipped graph and suites/cudaeval
//   o.embeddings = false;              // BM25 only: no model needed
//   Result<RetrievalEvalReport> r = EvaluateSuiteRetrieval(o);
//
// Thread safety: safe to call from any thread; each call loads its own
// graph, suite and model.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

struct RetrievalEvalOptions {
  std::filesystem::path graph;  // empty: the shipped DataDir()/graph/regrapht.json
  std::filesystem::path suite;  // empty: the shipped DataDir()/suites/cudaeval
  bool bm25 = true;
  bool embeddings = true;
  // The GGUF model whose embeddings rank the kernels; empty: the registry's
  // default model (where `model pull` puts it).
  std::filesystem::path embed_model;
  int threads = 0;  // the embedding model's CPU threads; 0: physical cores
};

// One problem's top-ranked corpus kernel.
struct RetrievalEvalHit {
  std::string problem, kernel;
  std::vector<std::string> techniques;  // the kernel's technique path
  bool first_match = false;             // the same first technique as the expert's
  double jaccard = 0;                   // |A n B| / |A u B| of the two technique sets
  double recall = 0;  // the share of the expert's techniques the kernel's path has
};

// One retrieval's figures: means over the problems.
struct RetrievalEvalRun {
  std::string name;  // "bm25", "embeddings (MODEL.gguf)"
  double first_match = 0, jaccard = 0, recall = 0;
  std::vector<RetrievalEvalHit> hits;  // one per problem, in suite order
};

struct RetrievalEvalReport {
  std::filesystem::path graph, suite;  // as read (the defaults filled in)
  size_t problems = 0;                 // with an expert trajectory
  size_t corpus_kernels = 0;           // chains of examples from the graph's init node
  std::vector<RetrievalEvalRun> runs;  // bm25, then embeddings (those asked for)
  // The same means for a kernel drawn uniformly from the corpus (the
  // expectation, computed exactly): what retrieval has to beat.
  double chance_first_match = 0, chance_jaccard = 0, chance_recall = 0;
  // Embeddings only: the model (its file name), the kernels embedded and
  // how long embedding and ranking took (seconds, the system clock).
  std::string embedding_model;
  size_t embedded_kernels = 0;
  double embed_seconds = 0;
};

// Runs the retrievals asked for (at least one) over the suite's problems
// that have an expert trajectory. Fails naming the file on a graph or suite
// that does not load, a suite without expert trajectories ("DIR: no problem
// has an expert trajectory"), a missing default suite ("give --suite DIR"),
// or an embedding model that does not load or embed (the default one not
// pulled: "give --embed-model FILE").
Result<RetrievalEvalReport> EvaluateSuiteRetrieval(const RetrievalEvalOptions& options);

}  // namespace regrapht
