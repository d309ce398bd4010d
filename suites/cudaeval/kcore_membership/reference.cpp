#include <cstdint>
#include <vector>

// k-core of an undirected multigraph given as an edge list (edge e joins
// src[e] and dst[e]; parallel edges count separately, self loops are
// ignored): the largest subgraph in which every vertex has degree >= k. It is
// found by peeling: repeatedly delete a vertex of degree < k together with
// its edges. in_core[v] is 1 for the vertices that survive, 0 for the others;
// core_degree[v] is a survivor's degree inside the core (0 for deleted
// vertices). The core does not depend on the deletion order.
void kCoreMembership(int n, int m, const int* src, const int* dst, int k, uint8_t* in_core, int* core_degree) {
  std::vector<std::vector<int>> adj(n);
  std::vector<int> deg(n, 0);
  for (int e = 0; e < m; ++e) {
    int a = src[e], b = dst[e];
    if (a == b) continue;
    adj[a].push_back(b);
    adj[b].push_back(a);
    ++deg[a];
    ++deg[b];
  }
  std::vector<char> removed(n, 0);
  std::vector<int> queue;
  for (int v = 0; v < n; ++v)
    if (deg[v] < k) queue.push_back(v);
  while (!queue.empty()) {
    int v = queue.back();
    queue.pop_back();
    if (removed[v]) continue;
    removed[v] = 1;
    for (int u : adj[v]) {
      if (removed[u]) continue;
      --deg[u];
      if (deg[u] < k) queue.push_back(u);
    }
  }
  for (int v = 0; v < n; ++v) {
    in_core[v] = removed[v] ? 0 : 1;
    core_degree[v] = removed[v] ? 0 : deg[v];
  }
}
