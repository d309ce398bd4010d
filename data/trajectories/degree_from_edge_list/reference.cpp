// Vertex degrees of an undirected multigraph given as an edge list: every edge
// {src[e], dst[e]} adds one to the degree of each endpoint (a self loop adds
// two to its vertex).
void degrees_from_edges(int n, int m, const int* src, const int* dst, int* degree) {
  for (int v = 0; v < n; ++v) degree[v] = 0;
  for (int e = 0; e < m; ++e) {
    ++degree[src[e]];
    ++degree[dst[e]];
  }
}
