#include "graph/retrieval_eval.h"

#include <algorithm>
#include <map>
#include <set>

namespace regrapht {
namespace {

const std::string& TechniqueOf(const Graph& g, NodeId n) {
  return g.node(n).technique.empty() ? g.node(n).name : g.node(n).technique;
}

struct Overlap {
  bool first = false;
  double jaccard = 0, recall = 0;
};

Overlap Compare(const std::vector<std::string>& expert, const std::vector<std::string>& got) {
  Overlap o;
  o.first = !expert.empty() && !got.empty() && expert.front() == got.front();
  std::set<std::string> a(expert.begin(), expert.end()), b(got.begin(), got.end());
  size_t common = 0;
  for (const auto& t : a) common += b.count(t);
  const size_t all = a.size() + b.size() - common;
  o.jaccard = all ? static_cast<double>(common) / static_cast<double>(all) : 0.0;
  o.recall = a.empty() ? 0.0 : static_cast<double>(common) / static_cast<double>(a.size());
  return o;
}

}  // namespace

std::vector<CorpusKernel> CorpusKernels(const Graph& g) {
  // Each kernel's examples, to follow its chain (after -> next before).
  std::map<std::string, std::vector<std::pair<EdgeId, uint32_t>>> by_kernel;
  for (const Edge& e : g.edges()) {
    for (uint32_t i = 0; i < e.examples.size(); ++i) by_kernel[e.examples[i].kernel].emplace_back(e.id, i);
  }
  std::vector<CorpusKernel> out;
  for (const Edge& e : g.edges()) {
    if (e.from != kInitNode) continue;
    for (uint32_t i = 0; i < e.examples.size(); ++i) {
      CorpusKernel k;
      k.kernel = e.examples[i].kernel;
      k.first = {e.id, i};
      k.techniques.push_back(TechniqueOf(g, e.to));
      std::string current = e.examples[i].after;
      for (int hops = 0; hops < 32; ++hops) {
        bool moved = false;
        for (const auto& [eid, idx] : by_kernel[k.kernel]) {
          const Example& ex = g.edge(eid).examples[idx];
          if (ex.before == current && ex.after != current) {
            current = ex.after;
            k.techniques.push_back(TechniqueOf(g, g.edge(eid).to));
            moved = true;
            break;
          }
        }
        if (!moved) break;
      }
      out.push_back(std::move(k));
    }
  }
  return out;
}

Graph KernelStarts(const Graph& g) {
  Graph out;
  for (const Node& n : g.nodes()) {
    if (n.id == kInitNode) continue;
    NodeSpec spec;
    spec.name = n.name;
    spec.technique = n.technique;
    (void)out.AddNode(spec);
  }
  for (const Edge& e : g.edges()) {
    if (e.from != kInitNode) continue;
    auto id = out.AddEdge(e.from, e.to);
    if (!id.ok()) continue;
    for (const Example& ex : e.examples) out.AddExample(*id, ex);
  }
  return out;
}

RetrievalQuality EvaluateRetrieval(const Graph& g, const Graph& starts, const ExampleIndex& index,
                                   const std::vector<RetrievalQuery>& queries, uint64_t seed) {
  RetrievalQuality q;
  const std::vector<CorpusKernel> corpus = CorpusKernels(g);
  std::map<std::string, const CorpusKernel*> by_kernel;
  for (const auto& k : corpus) by_kernel[k.kernel] = &k;
  if (queries.empty() || corpus.empty()) return q;
  for (const RetrievalQuery& query : queries) {
    // As rag's SimilarKernels: the kernels' sequential sources ranked, the first taken.
    const CorpusKernel* top = nullptr;
    for (const ScoredExample& s : index.TopKGlobal(query.code, index.num_examples(), seed)) {
      const Edge& e = starts.edge(s.ref.edge);
      if (e.from != kInitNode) continue;
      auto it = by_kernel.find(e.examples[s.ref.index].kernel);
      if (it != by_kernel.end()) {
        top = it->second;
        break;
      }
    }
    RetrievalHit hit;
    hit.query = query.name;
    if (top) {
      hit.kernel = top->kernel;
      hit.techniques = top->techniques;
      Overlap o = Compare(query.techniques, top->techniques);
      hit.first_match = o.first;
      hit.jaccard = o.jaccard;
      hit.recall = o.recall;
    }
    q.first_match += hit.first_match;
    q.jaccard += hit.jaccard;
    q.recall += hit.recall;
    for (const auto& k : corpus) {
      Overlap o = Compare(query.techniques, k.techniques);
      q.chance_first_match += o.first;
      q.chance_jaccard += o.jaccard;
      q.chance_recall += o.recall;
    }
    q.hits.push_back(std::move(hit));
  }
  const double n = static_cast<double>(queries.size());
  const double nc = n * static_cast<double>(corpus.size());
  q.first_match /= n;
  q.jaccard /= n;
  q.recall /= n;
  q.chance_first_match /= nc;
  q.chance_jaccard /= nc;
  q.chance_recall /= nc;
  return q;
}

}  // namespace regrapht
