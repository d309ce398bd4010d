#include "graph/stats.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <queue>

namespace regrapht {
namespace {

using Adjacency = std::vector<std::vector<NodeId>>;

// Tarjan's algorithm over the nodes with keep[v]; returns a component id per
// node (-1 for nodes not kept) and the number of components.
std::pair<std::vector<int>, int> Components(const Adjacency& adj, const std::vector<bool>& keep) {
  size_t n = adj.size();
  std::vector<int> comp(n, -1), index(n, -1), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<NodeId> stack;
  int next_index = 0, count = 0;
  std::function<void(NodeId)> visit = [&](NodeId v) {
    index[v] = low[v] = next_index++;
    stack.push_back(v);
    on_stack[v] = true;
    for (NodeId w : adj[v]) {
      if (!keep[w]) continue;
      if (index[w] < 0) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack[w]) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      NodeId w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        comp[w] = count;
      } while (w != v);
      ++count;
    }
  };
  for (NodeId v = 0; v < n; ++v) {
    if (keep[v] && index[v] < 0) visit(v);
  }
  return {comp, count};
}

// Johnson's algorithm: counts elementary cycles, stopping at `cap`.
size_t CountCycles(const Adjacency& adj, size_t cap, bool* capped) {
  size_t n = adj.size(), count = 0;
  *capped = false;
  std::vector<bool> blocked(n), keep(n);
  std::vector<std::vector<NodeId>> blockers(n);
  for (NodeId s = 0; s < n && !*capped; ++s) {
    // Cycles whose least node is s lie in s's component of the nodes >= s.
    for (NodeId v = 0; v < n; ++v) keep[v] = v >= s;
    auto [comp, num] = Components(adj, keep);
    (void)num;
    std::vector<bool> in(n);
    for (NodeId v = s; v < n; ++v) in[v] = comp[v] == comp[s];
    for (NodeId v = s; v < n; ++v) {
      blocked[v] = false;
      blockers[v].clear();
    }
    std::function<void(NodeId)> unblock = [&](NodeId u) {
      blocked[u] = false;
      auto list = std::move(blockers[u]);
      blockers[u].clear();
      for (NodeId w : list) {
        if (blocked[w]) unblock(w);
      }
    };
    std::function<bool(NodeId)> circuit = [&](NodeId v) -> bool {
      bool found = false;
      blocked[v] = true;
      for (NodeId w : adj[v]) {
        if (*capped) return true;
        if (!in[w]) continue;
        if (w == s) {
          found = true;
          if (++count >= cap) *capped = true;
        } else if (!blocked[w] && circuit(w)) {
          found = true;
        }
      }
      if (found) {
        unblock(v);
      } else {
        for (NodeId w : adj[v]) {
          if (in[w] && std::find(blockers[w].begin(), blockers[w].end(), v) == blockers[w].end()) {
            blockers[w].push_back(v);
          }
        }
      }
      return found;
    };
    circuit(s);
  }
  return count;
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

GraphStats ComputeStats(const Graph& graph, size_t top_transitions) {
  GraphStats st;
  st.nodes = graph.num_nodes();
  st.technique_nodes = st.nodes - 1;
  st.edges = graph.num_edges();
  st.examples = graph.num_examples();
  Adjacency adj(st.nodes);
  std::vector<double> in, out, per_edge, speedups;
  for (const Node& n : graph.nodes()) {
    if (n.needs_review) ++st.review_nodes;
    in.push_back(static_cast<double>(n.in.size()));
    out.push_back(static_cast<double>(n.out.size()));
  }
  std::vector<Transition> transitions;
  for (const Edge& e : graph.edges()) {
    adj[e.from].push_back(e.to);
    if (e.from == e.to) ++st.self_loops;
    per_edge.push_back(static_cast<double>(e.examples.size()));
    transitions.push_back({e.id, e.examples.size()});
    for (const Example& x : e.examples) {
      if (!x.verification) continue;
      const StepVerification& v = *x.verification;
      ++st.with_record;
      if (v.verifier == "authored") ++st.authored_records;
      if (v.compiled) ++st.compiled;
      if (v.correctness == Correctness::kCorrect) ++st.correct;
      if (v.correctness == Correctness::kCorrect && v.verifier.find("--emulate") != std::string::npos) {
        ++st.correct_emulated;
      }
      if (v.correctness == Correctness::kWrong) ++st.wrong;
      if (v.speedup) {
        ++st.with_speedup;
        speedups.push_back(*v.speedup);
      }
    }
  }
  st.examples_per_edge = SummarizeCounts(per_edge);
  st.in_degree = SummarizeCounts(in);
  st.out_degree = SummarizeCounts(out);
  if (!speedups.empty()) st.speedup = SummarizeCounts(speedups);
  if (st.examples) {
    st.fraction_compiled = static_cast<double>(st.compiled) / st.examples;
    st.fraction_correct = static_cast<double>(st.correct) / st.examples;
  }
  std::stable_sort(transitions.begin(), transitions.end(),
                   [](const Transition& a, const Transition& b) { return a.examples > b.examples; });
  if (transitions.size() > top_transitions) transitions.resize(top_transitions);
  st.top_transitions = std::move(transitions);

  // Reachability from the init node.
  std::vector<bool> seen(st.nodes, false);
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
  st.unreachable_nodes = static_cast<size_t>(std::count(seen.begin(), seen.end(), false));

  // Strongly connected components and cycles.
  auto [comp, num] = Components(adj, std::vector<bool>(st.nodes, true));
  st.components = static_cast<size_t>(num);
  std::vector<size_t> size(num, 0);
  std::vector<bool> cyclic(num, false);
  for (NodeId v = 0; v < st.nodes; ++v) ++size[comp[v]];
  for (const Edge& e : graph.edges()) {
    if (e.from == e.to) cyclic[comp[e.from]] = true;
  }
  for (int c = 0; c < num; ++c) {
    if (size[c] > 1) cyclic[c] = true;
    if (cyclic[c]) ++st.cyclic_components;
    st.largest_component = std::max(st.largest_component, size[c]);
  }
  st.cycles = CountCycles(adj, kCycleCountCap, &st.cycles_capped);
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

}  // namespace regrapht
