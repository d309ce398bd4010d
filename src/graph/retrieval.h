// Example retrieval: which worked examples to show the small model.
//
// The search picks an edge (a technique to apply next); this index picks,
// among that edge's examples, the ones whose `before` code looks most like
// the code being optimized, by BM25 over code tokens (scan::CodeTokens:
// identifiers, keywords, numbers, operators; no comments or literals). TopKGlobal ranks the
// whole example pool, for the RAG baseline.
//
// Deterministic: the same graph, code, k and seed give the same list, and
// so does the same graph built in another order (trajectories imported in
// another order, under other names: scores are summed in token order and
// ties go by content, never by position). Ties (equal scores, e.g. no shared
// tokens at all) go by a hash of the example's content (before, after,
// think, detail), with seed != 0 mixed with the seed: a reproducible shuffle
// that spreads the choice when nothing discriminates; identical examples
// last by position.
//
// Thread safety: const methods may be called from several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "regrapht/graph.h"
#include "regrapht/status.h"

namespace regrapht {

struct ExampleRef {
  EdgeId edge = 0;
  uint32_t index = 0;  // position in edge.examples
  bool operator==(const ExampleRef&) const = default;
};

struct ScoredExample {
  ExampleRef ref;
  double score = 0;
};

struct Bm25Options {
  double k1 = 1.2;
  double b = 0.75;
};

class ExampleIndex {
 public:
  // Indexes the `before` code of every example of `graph`, which must outlive
  // the index and gain no examples while it is used (rebuild after merging).
  explicit ExampleIndex(const Graph& graph, Bm25Options options = {});

  // Up to k examples of `edge` (fewer if it has fewer), best first.
  // REQUIRES: edge < graph.num_edges().
  std::vector<ScoredExample> TopKOnEdge(std::string_view code, EdgeId edge, size_t k,
                                        uint64_t seed = 0) const;
  // Up to k examples from every edge, best first.
  std::vector<ScoredExample> TopKGlobal(std::string_view code, size_t k, uint64_t seed = 0) const;

  // Texts -> one embedding vector each (e.g. an LLM backend's Embed).
  using EmbedFn = std::function<Result<std::vector<std::vector<float>>>(const std::vector<std::string>&)>;

  // Ranks by cosine similarity of embeddings instead of BM25: embeds every
  // example's `before` code now (in batches) and each query code once (kept).
  // A query whose embedding fails falls back to BM25 for that query. Fails,
  // leaving BM25 in place, when the examples cannot be embedded or the
  // vectors are empty or of different lengths. `graph` is the indexed graph.
  Status UseEmbeddings(const Graph& graph, EmbedFn embed, size_t batch = 32);
  bool uses_embeddings() const { return embeddings_ != nullptr; }

  // The BM25 score of one example for `code`.
  double Score(std::string_view code, ExampleRef ref) const;

  size_t num_examples() const { return docs_.size(); }

 private:
  struct Doc {
    ExampleRef ref;
    uint32_t length = 0;
    std::vector<std::pair<uint32_t, uint32_t>> terms;  // (term, count), by term
    uint64_t content = 0;  // hash of the example's text: the tie-break
  };
  // Query term -> count, for terms in the vocabulary.
  std::unordered_map<uint32_t, uint32_t> QueryTerms(std::string_view code) const;
  double ScoreDoc(const Doc& doc, const std::unordered_map<uint32_t, uint32_t>& query) const;
  std::vector<ScoredExample> Rank(std::vector<std::pair<uint32_t, double>> scored, size_t k,
                                  uint64_t seed) const;

  // Heterogeneous lookup: tokens are looked up as string_views.
  struct TokenHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  Bm25Options options_;
  std::unordered_map<std::string, uint32_t, TokenHash, std::equal_to<>> vocab_;
  std::vector<double> idf_;                                       // by term
  std::vector<uint32_t> df_;                                      // by term: docs using it
  std::vector<Doc> docs_;                                         // in example order
  std::vector<std::vector<uint32_t>> edge_docs_;                  // edge -> docs
  double avg_length_ = 0;
  struct Embeddings;
  // The query's unit vector, or empty when it could not be embedded.
  std::vector<float> QueryVector(std::string_view code) const;
  std::vector<std::pair<uint32_t, double>> CosineScores(const std::vector<float>& q,
                                                        const std::vector<uint32_t>* docs) const;
  std::shared_ptr<Embeddings> embeddings_;  // null: BM25
};

}  // namespace regrapht
