#include "graph/retrieval.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "core/hash.h"
#include "core/rng.h"
#include "core/scanner.h"

namespace regrapht {
namespace {

// Terms are the scanner's code tokens (core/scanner.h), literals and
// comments left out.
using scan::ForEachCodeToken;

}  // namespace

ExampleIndex::ExampleIndex(const Graph& graph, Bm25Options options) : options_(options) {
  edge_docs_.resize(graph.num_edges());
  uint64_t total_length = 0;
  std::vector<uint32_t> counts;   // by term, for the current document
  std::vector<uint32_t> touched;  // terms with counts[term] > 0
  for (const Edge& e : graph.edges()) {
    for (uint32_t k = 0; k < e.examples.size(); ++k) {
      Doc doc;
      doc.ref = {e.id, k};
      ForEachCodeToken(e.examples[k].before, [&](std::string_view tok) {
        auto it = vocab_.find(tok);
        if (it == vocab_.end()) {
          it = vocab_.emplace(std::string(tok), static_cast<uint32_t>(vocab_.size())).first;
          df_.push_back(0);
          counts.push_back(0);
        }
        if (counts[it->second]++ == 0) touched.push_back(it->second);
        ++doc.length;
      });
      std::sort(touched.begin(), touched.end());
      doc.terms.reserve(touched.size());
      for (uint32_t term : touched) {
        doc.terms.emplace_back(term, counts[term]);
        counts[term] = 0;
        ++df_[term];
      }
      touched.clear();
      total_length += doc.length;
      edge_docs_[e.id].push_back(static_cast<uint32_t>(docs_.size()));
      docs_.push_back(std::move(doc));
    }
  }
  // Term ids in token order, not in order of first appearance: scores are
  // summed in term order, so that the sums (and so the ranking) do not
  // depend on the order the graph's examples were imported in.
  std::vector<std::pair<std::string_view, uint32_t>> tokens;
  tokens.reserve(vocab_.size());
  for (const auto& [tok, id] : vocab_) tokens.emplace_back(tok, id);
  std::sort(tokens.begin(), tokens.end());
  std::vector<uint32_t> remap(tokens.size());
  for (uint32_t i = 0; i < tokens.size(); ++i) remap[tokens[i].second] = i;
  for (auto& [tok, id] : vocab_) id = remap[id];
  std::vector<uint32_t> df(df_.size());
  for (size_t t = 0; t < df_.size(); ++t) df[remap[t]] = df_[t];
  df_ = std::move(df);
  for (Doc& doc : docs_) {
    for (auto& term : doc.terms) term.first = remap[term.first];
    std::sort(doc.terms.begin(), doc.terms.end());
    const Example& ex = graph.edge(doc.ref.edge).examples[doc.ref.index];
    doc.content = Hash64(ex.before + '\0' + ex.after + '\0' + ex.think + '\0' + ex.detail);
  }
  avg_length_ = docs_.empty() ? 0 : static_cast<double>(total_length) / docs_.size();
  double n = static_cast<double>(docs_.size());
  idf_.resize(df_.size());
  for (size_t t = 0; t < df_.size(); ++t) {
    double df = static_cast<double>(df_[t]);
    idf_[t] = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
  }
}

std::unordered_map<uint32_t, uint32_t> ExampleIndex::QueryTerms(std::string_view code) const {
  std::unordered_map<uint32_t, uint32_t> q;
  ForEachCodeToken(code, [&](std::string_view tok) {
    auto it = vocab_.find(tok);
    if (it != vocab_.end()) ++q[it->second];
  });
  return q;
}

double ExampleIndex::ScoreDoc(const Doc& doc,
                              const std::unordered_map<uint32_t, uint32_t>& query) const {
  double norm = options_.k1 * (1 - options_.b + options_.b * doc.length / std::max(avg_length_, 1.0));
  double score = 0;
  // Sum in the doc's term order so equal documents get bit-identical scores.
  for (auto [term, tf] : doc.terms) {
    auto it = query.find(term);
    if (it == query.end()) continue;
    score += it->second * idf_[term] * tf * (options_.k1 + 1) / (tf + norm);
  }
  return score;
}

double ExampleIndex::Score(std::string_view code, ExampleRef ref) const {
  auto query = QueryTerms(code);
  for (uint32_t d : edge_docs_[ref.edge]) {
    if (docs_[d].ref == ref) return ScoreDoc(docs_[d], query);
  }
  return 0;
}

std::vector<ScoredExample> ExampleIndex::Rank(std::vector<std::pair<uint32_t, double>> scored,
                                              size_t k, uint64_t seed) const {
  // Ties go by the example's content (seeded), not its position: the same
  // choice whatever order the examples were imported in.
  auto tie_key = [this, seed](uint32_t doc) -> uint64_t {
    if (seed == 0) return docs_[doc].content;
    uint64_t state = seed ^ docs_[doc].content;
    return SplitMix64(state);
  };
  auto better = [&](const std::pair<uint32_t, double>& a, const std::pair<uint32_t, double>& b) {
    if (a.second != b.second) return a.second > b.second;
    uint64_t ka = tie_key(a.first), kb = tie_key(b.first);
    if (ka != kb) return ka < kb;
    return a.first < b.first;
  };
  k = std::min(k, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + k, scored.end(), better);
  std::vector<ScoredExample> out;
  out.reserve(k);
  for (size_t i = 0; i < k; ++i) out.push_back({docs_[scored[i].first].ref, scored[i].second});
  return out;
}

std::vector<ScoredExample> ExampleIndex::TopKOnEdge(std::string_view code, EdgeId edge, size_t k,
                                                    uint64_t seed) const {
  if (embeddings_) {
    std::vector<float> q = QueryVector(code);
    if (!q.empty()) return Rank(CosineScores(q, &edge_docs_[edge]), k, seed);
  }
  auto query = QueryTerms(code);
  std::vector<std::pair<uint32_t, double>> scored;
  scored.reserve(edge_docs_[edge].size());
  for (uint32_t d : edge_docs_[edge]) scored.emplace_back(d, ScoreDoc(docs_[d], query));
  return Rank(std::move(scored), k, seed);
}

std::vector<ScoredExample> ExampleIndex::TopKGlobal(std::string_view code, size_t k,
                                                    uint64_t seed) const {
  if (embeddings_) {
    std::vector<float> q = QueryVector(code);
    if (!q.empty()) return Rank(CosineScores(q, nullptr), k, seed);
  }
  auto query = QueryTerms(code);
  std::vector<std::pair<uint32_t, double>> scored(docs_.size());
  for (uint32_t d = 0; d < docs_.size(); ++d) scored[d] = {d, ScoreDoc(docs_[d], query)};
  return Rank(std::move(scored), k, seed);
}


// ---- embeddings ---------------------------------------------------------------------

struct ExampleIndex::Embeddings {
  EmbedFn embed;
  size_t dim = 0;
  std::vector<std::vector<float>> docs;  // unit vectors, by doc
  std::mutex mu;
  std::unordered_map<std::string, std::vector<float>> queries;  // code -> unit vector (or empty)
};

namespace {

// Scales `v` to unit length; false for a zero or non-finite vector.
bool Normalize(std::vector<float>* v) {
  double n = 0;
  for (float x : *v) n += static_cast<double>(x) * x;
  if (!(n > 0) || !std::isfinite(n)) return false;
  const double inv = 1.0 / std::sqrt(n);
  for (float& x : *v) x = static_cast<float>(x * inv);
  return true;
}

}  // namespace

Status ExampleIndex::UseEmbeddings(const Graph& graph, EmbedFn embed, size_t batch) {
  auto e = std::make_shared<Embeddings>();
  e->embed = std::move(embed);
  e->docs.reserve(docs_.size());
  batch = std::max<size_t>(1, batch);
  for (size_t start = 0; start < docs_.size(); start += batch) {
    std::vector<std::string> texts;
    for (size_t d = start; d < std::min(docs_.size(), start + batch); ++d) {
      const ExampleRef& r = docs_[d].ref;
      texts.push_back(graph.edge(r.edge).examples[r.index].before);
    }
    auto vecs = e->embed(texts);
    if (!vecs.ok()) return vecs.status().WithContext("embedding the graph's examples");
    if (vecs->size() != texts.size()) {
      return Status::Internal("embedding the graph's examples: " + std::to_string(texts.size()) +
                              " texts gave " + std::to_string(vecs->size()) + " vectors");
    }
    for (auto& v : *vecs) {
      if (e->dim == 0) e->dim = v.size();
      if (v.empty() || v.size() != e->dim || !Normalize(&v)) {
        return Status::Internal("embedding the graph's examples: an empty, zero or mismatched vector (length " +
                                std::to_string(v.size()) + ", expected " + std::to_string(e->dim) + ")");
      }
      e->docs.push_back(std::move(v));
    }
  }
  embeddings_ = std::move(e);
  return Status::Ok();
}

std::vector<float> ExampleIndex::QueryVector(std::string_view code) const {
  Embeddings& e = *embeddings_;
  std::string key(code);
  {
    std::lock_guard<std::mutex> lock(e.mu);
    if (auto it = e.queries.find(key); it != e.queries.end()) return it->second;
  }
  std::vector<float> v;
  auto got = e.embed({key});
  if (got.ok() && got->size() == 1) {
    v = std::move((*got)[0]);
    if (v.size() != e.dim || !Normalize(&v)) v.clear();
  }
  std::lock_guard<std::mutex> lock(e.mu);
  e.queries[key] = v;
  return v;
}

std::vector<std::pair<uint32_t, double>> ExampleIndex::CosineScores(const std::vector<float>& q,
                                                                     const std::vector<uint32_t>* docs) const {
  const Embeddings& e = *embeddings_;
  auto cosine = [&](uint32_t d) {
    double s = 0;
    const auto& v = e.docs[d];
    for (size_t i = 0; i < q.size(); ++i) s += static_cast<double>(q[i]) * v[i];
    return s;
  };
  std::vector<std::pair<uint32_t, double>> scored;
  if (docs) {
    scored.reserve(docs->size());
    for (uint32_t d : *docs) scored.emplace_back(d, cosine(d));
  } else {
    scored.reserve(docs_.size());
    for (uint32_t d = 0; d < docs_.size(); ++d) scored.emplace_back(d, cosine(d));
  }
  return scored;
}

}  // namespace regrapht
