#include "graph/stats.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace regrapht {
namespace {

using Adjacency = std::vector<std::vector<NodeId>>;

// Tarjan's strongly connected components, iterative (a path of a million
// nodes must not overflow the stack) and reusable: Run() touches only the
// nodes it reaches, Reset() forgets exactly those, so that many small runs
// on a big graph cost what they visit, not the graph's size each.
class Tarjan {
 public:
  explicit Tarjan(const Adjacency& adj)
      : adj_(adj), comp_(adj.size(), -1), index_(adj.size(), -1), low_(adj.size(), 0), on_stack_(adj.size(), 0) {}

  // Components of the nodes with inside(v) reachable from `root` (not yet
  // seen since the last Reset); adds the edges looked at to *work.
  template <typename Inside>
  void Run(NodeId root, const Inside& inside, size_t* work) {
    if (!inside(root) || index_[root] >= 0) return;
    Enter(root);
    while (!calls_.empty()) {
      const NodeId v = calls_.back().first;
      size_t& k = calls_.back().second;
      if (k < adj_[v].size()) {
        const NodeId w = adj_[v][k++];
        ++*work;
        if (!inside(w)) continue;
        if (index_[w] < 0) {
          Enter(w);
        } else if (on_stack_[w]) {
          low_[v] = std::min(low_[v], index_[w]);
        }
        continue;
      }
      calls_.pop_back();
      if (!calls_.empty()) low_[calls_.back().first] = std::min(low_[calls_.back().first], low_[v]);
      if (low_[v] != index_[v]) continue;
      NodeId w;
      do {
        w = stack_.back();
        stack_.pop_back();
        on_stack_[w] = 0;
        comp_[w] = count_;
      } while (w != v);
      ++count_;
    }
  }

  void Reset() {
    for (NodeId v : touched_) {
      comp_[v] = index_[v] = -1;
      low_[v] = 0;
    }
    touched_.clear();
    next_index_ = count_ = 0;
  }

  int comp(NodeId v) const { return comp_[v]; }  // -1: not reached
  int count() const { return count_; }
  const std::vector<int>& comps() const { return comp_; }

 private:
  void Enter(NodeId v) {
    index_[v] = low_[v] = next_index_++;
    stack_.push_back(v);
    on_stack_[v] = 1;
    calls_.push_back({v, 0});
    touched_.push_back(v);
  }

  const Adjacency& adj_;
  std::vector<int> comp_, index_, low_;
  std::vector<char> on_stack_;
  std::vector<NodeId> stack_, touched_;
  std::vector<std::pair<NodeId, size_t>> calls_;  // (node, next edge to look at)
  int next_index_ = 0, count_ = 0;
};

// Johnson's algorithm, iterative, run in each component with a cycle
// (`groups`: their nodes, each list in increasing order; cycles never leave
// a component): counts elementary cycles, stopping at `cap` cycles or once
// it has looked at `budget` edges (*capped: the count is then a lower
// bound). Acyclic parts of the graph cost nothing, and the budget keeps the
// whole linear in the size of the graph, although the number of cycles can
// be exponential in it.
class CycleCounter {
 public:
  CycleCounter(const Adjacency& adj, const std::vector<int>& comp, size_t cap, size_t budget)
      : adj_(adj),
        comp_(comp),
        cap_(cap),
        budget_(budget),
        blocked_(adj.size(), 0),
        self_loop_(adj.size(), 0),
        blockers_(adj.size()),
        sub_(adj) {}

  size_t Count(const std::vector<std::vector<NodeId>>& groups, bool* capped);

 private:
  struct Frame {
    NodeId v;
    size_t next = 0;
    bool found = false;
  };
  // Unblocks u and, transitively, the nodes it blocked.
  void Unblock(NodeId u);
  // Counts the cycles of one group, one starting node at a time.
  void CountGroup(const std::vector<NodeId>& group);
  // The components of the group's nodes >= group[first]: the index of the
  // least node of one with a cycle (Johnson's order), or group.size().
  size_t LeastCyclic(const std::vector<NodeId>& group, size_t first);
  // Counts the cycles through t among the nodes >= t of t's component
  // (of the nodes >= s in s's), then clears what the search blocked.
  void Circuits(NodeId s, NodeId t);

  const Adjacency& adj_;
  const std::vector<int>& comp_;
  const size_t cap_, budget_;
  size_t count_ = 0, work_ = 0;
  bool capped_ = false;
  std::vector<char> blocked_, self_loop_;
  std::vector<std::vector<NodeId>> blockers_;
  Tarjan sub_;
  std::vector<size_t> sizes_;
  std::vector<Frame> frames_;
  std::vector<NodeId> pending_, seen_;
};

void CycleCounter::Unblock(NodeId u) {
  pending_.push_back(u);
  while (!pending_.empty()) {
    const NodeId x = pending_.back();
    pending_.pop_back();
    blocked_[x] = 0;
    for (NodeId w : blockers_[x]) {
      ++work_;
      if (blocked_[w]) pending_.push_back(w);
    }
    blockers_[x].clear();
  }
}

size_t CycleCounter::LeastCyclic(const std::vector<NodeId>& group, size_t first) {
  const NodeId s = group[first];
  auto inside = [&](NodeId v) { return v >= s && comp_[v] == comp_[s]; };
  sub_.Reset();
  for (size_t k = first; k < group.size(); ++k) sub_.Run(group[k], inside, &work_);
  work_ += group.size() - first;
  sizes_.assign(static_cast<size_t>(sub_.count()), 0);
  for (size_t k = first; k < group.size(); ++k) ++sizes_[static_cast<size_t>(sub_.comp(group[k]))];
  size_t least = first;
  while (least < group.size() && sizes_[static_cast<size_t>(sub_.comp(group[least]))] < 2 &&
         !self_loop_[group[least]]) {
    ++least;
  }
  return least;
}

void CycleCounter::Circuits(NodeId s, NodeId t) {
  auto in = [&](NodeId v) {
    return v >= t && sub_.comp(v) == sub_.comp(t) && v >= s && comp_[v] == comp_[s];
  };
  frames_.push_back({t});
  blocked_[t] = 1;
  seen_.assign(1, t);
  while (!frames_.empty() && !capped_) {
    Frame& f = frames_.back();
    if (f.next < adj_[f.v].size()) {
      const NodeId w = adj_[f.v][f.next++];
      if (++work_ > budget_) capped_ = true;
      if (!in(w)) continue;
      if (w == t) {
        f.found = true;
        if (++count_ >= cap_) capped_ = true;
      } else if (!blocked_[w]) {
        blocked_[w] = 1;
        seen_.push_back(w);
        frames_.push_back({w});
      }
      continue;
    }
    const Frame done = f;
    frames_.pop_back();
    if (done.found) {
      Unblock(done.v);
    } else {
      for (NodeId w : adj_[done.v]) {
        if (in(w)) blockers_[w].push_back(done.v);
      }
      work_ += adj_[done.v].size();
    }
    if (!frames_.empty()) frames_.back().found = frames_.back().found || done.found;
  }
  frames_.clear();
  for (NodeId v : seen_) {
    blocked_[v] = 0;
    blockers_[v].clear();
    for (NodeId w : adj_[v]) blockers_[w].clear();
  }
}

void CycleCounter::CountGroup(const std::vector<NodeId>& group) {
  size_t first = 0;
  while (first < group.size() && !capped_) {
    if (work_ > budget_) {
      capped_ = true;
      break;
    }
    const size_t least = LeastCyclic(group, first);
    if (least == group.size()) break;
    Circuits(group[first], group[least]);
    first = least + 1;
  }
}

size_t CycleCounter::Count(const std::vector<std::vector<NodeId>>& groups, bool* capped) {
  for (const auto& group : groups) {
    for (NodeId v : group) {
      for (NodeId w : adj_[v]) self_loop_[v] = self_loop_[v] || w == v;
    }
  }
  for (const auto& group : groups) {
    CountGroup(group);
    if (capped_) break;
  }
  *capped = capped_;
  return count_;
}

size_t CountCycles(const Adjacency& adj, const std::vector<int>& comp,
                   const std::vector<std::vector<NodeId>>& groups, size_t cap, size_t budget,
                   bool* capped) {
  return CycleCounter(adj, comp, cap, budget).Count(groups, capped);
}

std::string Percent(size_t part, size_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * part / whole : 0.0);
  return buf;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string SummaryText(const CountSummary& s) {
  return "min " + Num(s.min) + ", median " + Num(s.median) + ", max " + Num(s.max);
}

OrderedJson SummaryJson(const CountSummary& s) {
  OrderedJson j;
  j["min"] = s.min;
  j["median"] = s.median;
  j["max"] = s.max;
  return j;
}

}  // namespace

CountSummary SummarizeCounts(std::vector<double> v) {
  CountSummary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  size_t m = v.size() / 2;
  s.median = v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  return s;
}

namespace {

// Counts the graph's nodes, edges, examples and their verification records
// into *st (degrees, examples per edge, speedups, the top transitions).
// Returns the graph's adjacency lists.
Adjacency TallyGraph(const Graph& graph, size_t top_transitions, GraphStats* st) {
  st->nodes = graph.num_nodes();
  st->technique_nodes = st->nodes - 1;
  st->edges = graph.num_edges();
  st->examples = graph.num_examples();
  Adjacency adj(st->nodes);
  std::vector<double> in, out, per_edge, speedups;
  for (const Node& n : graph.nodes()) {
    if (n.needs_review) ++st->review_nodes;
    in.push_back(static_cast<double>(n.in.size()));
    out.push_back(static_cast<double>(n.out.size()));
  }
  std::vector<Transition> transitions;
  for (const Edge& e : graph.edges()) {
    adj[e.from].push_back(e.to);
    if (e.from == e.to) ++st->self_loops;
    per_edge.push_back(static_cast<double>(e.examples.size()));
    transitions.push_back({e.id, e.examples.size()});
    for (const Example& x : e.examples) {
      if (!x.verification) continue;
      const StepVerification& v = *x.verification;
      ++st->with_record;
      if (v.verifier == "authored") ++st->authored_records;
      if (v.compiled) ++st->compiled;
      if (v.correctness == Correctness::kCorrect) ++st->correct;
      if (v.correctness == Correctness::kCorrect && v.verifier.find("--emulate") != std::string::npos) {
        ++st->correct_emulated;
      }
      if (v.correctness == Correctness::kWrong) ++st->wrong;
      if (v.speedup) {
        ++st->with_speedup;
        speedups.push_back(*v.speedup);
      }
    }
  }
  st->examples_per_edge = SummarizeCounts(per_edge);
  st->in_degree = SummarizeCounts(in);
  st->out_degree = SummarizeCounts(out);
  if (!speedups.empty()) st->speedup = SummarizeCounts(speedups);
  if (st->examples) {
    st->fraction_compiled = static_cast<double>(st->compiled) / st->examples;
    st->fraction_correct = static_cast<double>(st->correct) / st->examples;
  }
  std::stable_sort(transitions.begin(), transitions.end(),
                   [](const Transition& a, const Transition& b) { return a.examples > b.examples; });
  if (transitions.size() > top_transitions) transitions.resize(top_transitions);
  st->top_transitions = std::move(transitions);
  return adj;
}

// The number of nodes the init node does not reach.
size_t UnreachableNodes(const Adjacency& adj) {
  std::vector<bool> seen(adj.size(), false);
  std::queue<NodeId> queue;
  queue.push(kInitNode);
  seen[kInitNode] = true;
  while (!queue.empty()) {
    NodeId v = queue.front();
    queue.pop();
    for (NodeId w : adj[v]) {
      if (!seen[w]) {
        seen[w] = true;
        queue.push(w);
      }
    }
  }
  return static_cast<size_t>(std::count(seen.begin(), seen.end(), false));
}

// The strongly connected components and the cycles, into *st.
void ComponentStats(const Graph& graph, const Adjacency& adj, GraphStats* st) {
  size_t work = 0;
  Tarjan all(adj);
  for (NodeId v = 0; v < st->nodes; ++v)
    all.Run(
        v, [](NodeId) { return true; }, &work);
  const std::vector<int>& comp = all.comps();
  const int num = all.count();
  st->components = static_cast<size_t>(num);
  std::vector<size_t> size(num, 0);
  std::vector<bool> cyclic(num, false);
  for (NodeId v = 0; v < st->nodes; ++v) ++size[comp[v]];
  for (const Edge& e : graph.edges()) {
    if (e.from == e.to) cyclic[comp[e.from]] = true;
  }
  for (int c = 0; c < num; ++c) {
    if (size[c] > 1) cyclic[c] = true;
    if (cyclic[c]) ++st->cyclic_components;
    st->largest_component = std::max(st->largest_component, size[c]);
  }
  // Some tens of edge visits per edge at most: linear in the graph.
  const size_t budget = 64 * (st->nodes + st->edges) + 20000000;
  std::vector<std::vector<NodeId>> groups;  // the nodes of each component with a cycle, in order
  std::vector<int> group_of(static_cast<size_t>(num), -1);
  for (NodeId v = 0; v < st->nodes; ++v) {
    const int c = comp[v];
    if (!cyclic[c]) continue;
    if (group_of[c] < 0) {
      group_of[c] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[group_of[c]].push_back(v);
  }
  st->cycles = CountCycles(adj, comp, groups, kCycleCountCap, budget, &st->cycles_capped);
}

}  // namespace

GraphStats ComputeStats(const Graph& graph, size_t top_transitions) {
  GraphStats st;
  Adjacency adj = TallyGraph(graph, top_transitions, &st);
  // Reachability from the init node.
  st.unreachable_nodes = UnreachableNodes(adj);
  // Strongly connected components and cycles.
  ComponentStats(graph, adj, &st);
  return st;
}

std::string FormatStats(const GraphStats& st, const Graph& graph) {
  std::string s;
  auto line = [&](const char* key, const std::string& value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%-16s", key);
    s += buf + value + "\n";
  };
  line("nodes", std::to_string(st.nodes) + " (" + std::to_string(st.technique_nodes) +
                    " techniques, " + std::to_string(st.review_nodes) + " flagged for review)");
  line("edges", std::to_string(st.edges) + " (" + std::to_string(st.self_loops) +
                    (st.self_loops == 1 ? " self-loop)" : " self-loops)"));
  line("examples", std::to_string(st.examples));
  line("examples/edge", SummaryText(st.examples_per_edge));
  line("in-degree", SummaryText(st.in_degree));
  line("out-degree", SummaryText(st.out_degree));
  line("reachable", st.unreachable_nodes == 0
                        ? "every node from the init node"
                        : std::to_string(st.unreachable_nodes) + " nodes not from the init node");
  line("cycles", (st.cycles_capped ? "at least " : "") + std::to_string(st.cycles) +
                     " elementary cycles; " + std::to_string(st.cyclic_components) + " of " +
                     std::to_string(st.components) +
                     " strongly connected components have a cycle (largest component " +
                     std::to_string(st.largest_component) +
                     (st.largest_component == 1 ? " node)" : " nodes)"));
  std::string ver = std::to_string(st.with_record) + " of " + std::to_string(st.examples) +
                    " examples have a record (" + std::to_string(st.authored_records) +
                    " authored, not rechecked)";
  line("verification", ver);
  line("  compiled", std::to_string(st.compiled) + " (" + Percent(st.compiled, st.examples) + ")");
  line("  correct", std::to_string(st.correct) + " (" + Percent(st.correct, st.examples) + ")" +
                        (st.correct_emulated ? ", " + std::to_string(st.correct_emulated) +
                                                   " of them in the CPU emulator only (not on a GPU)"
                                             : std::string()) +
                        ", wrong " + std::to_string(st.wrong));
  line("  speedup", st.speedup ? std::to_string(st.with_speedup) + " measured: " +
                                     SummaryText(*st.speedup)
                               : std::string("none measured"));
  s += "top transitions (examples)\n";
  for (const Transition& t : st.top_transitions) {
    const Edge& e = graph.edge(t.edge);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%8zu  ", t.examples);
    s += buf + graph.node(e.from).name + " -> " + graph.node(e.to).name + "\n";
  }
  return s;
}

OrderedJson StatsToJson(const GraphStats& st, const Graph& graph) {
  OrderedJson j;
  j["nodes"] = st.nodes;
  j["technique_nodes"] = st.technique_nodes;
  j["review_nodes"] = st.review_nodes;
  j["edges"] = st.edges;
  j["self_loops"] = st.self_loops;
  j["examples"] = st.examples;
  j["examples_per_edge"] = SummaryJson(st.examples_per_edge);
  j["in_degree"] = SummaryJson(st.in_degree);
  j["out_degree"] = SummaryJson(st.out_degree);
  j["unreachable_nodes"] = st.unreachable_nodes;
  j["components"] = st.components;
  j["cyclic_components"] = st.cyclic_components;
  j["largest_component"] = st.largest_component;
  j["cycles"] = st.cycles;
  j["cycles_capped"] = st.cycles_capped;
  OrderedJson v;
  v["with_record"] = st.with_record;
  v["authored_records"] = st.authored_records;
  v["compiled"] = st.compiled;
  v["correct"] = st.correct;
  v["correct_emulated"] = st.correct_emulated;
  v["wrong"] = st.wrong;
  v["with_speedup"] = st.with_speedup;
  v["speedup"] = st.speedup ? SummaryJson(*st.speedup) : OrderedJson(nullptr);
  v["fraction_compiled"] = st.fraction_compiled;
  v["fraction_correct"] = st.fraction_correct;
  j["verification"] = std::move(v);
  OrderedJson top = OrderedJson::array();
  for (const Transition& t : st.top_transitions) {
    const Edge& e = graph.edge(t.edge);
    OrderedJson jt;
    jt["edge"] = t.edge;
    jt["from"] = graph.node(e.from).name;
    jt["to"] = graph.node(e.to).name;
    jt["examples"] = t.examples;
    top.push_back(std::move(jt));
  }
  j["top_transitions"] = std::move(top);
  return j;
}

std::string GraphStatsText(const Graph& graph, size_t top) {
  return FormatStats(ComputeStats(graph, top), graph);
}

std::string GraphStatsJson(const Graph& graph, size_t top) {
  return DumpJson(StatsToJson(ComputeStats(graph, top), graph));
}

}  // namespace regrapht
