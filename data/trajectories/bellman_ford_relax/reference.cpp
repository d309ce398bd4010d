// One synchronous Bellman-Ford relaxation sweep over a directed edge list
// (src[e] -> dst[e] with positive integer weight[e]): starting from the current
// distances, every vertex's new distance is the smallest of its old distance
// and dist[src] + weight over its incoming edges. Only old distances are read,
// so the result does not depend on the edge order.
void bellman_ford_sweep(int n, int m, const int* src, const int* dst, const int* weight, const int* dist,
                        int* new_dist) {
  for (int v = 0; v < n; ++v) new_dist[v] = dist[v];
  for (int e = 0; e < m; ++e) {
    int cand = dist[src[e]] + weight[e];
    if (cand < new_dist[dst[e]]) new_dist[dst[e]] = cand;
  }
}
