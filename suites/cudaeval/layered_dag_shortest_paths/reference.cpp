// Shortest paths through a layered DAG (a trellis, a staged pipeline, a
// multistage network): vertex (l, i), stored at index l * width + i, sits in
// layer l of `layers` layers of `width` vertices. Its incoming edges are the
// CSR row of that index: col_idx[k] names a vertex i' of the previous layer,
// weight[k] >= 0 the edge's cost (rows of layer 0 are ignored). Layer 0 holds
// the sources, reached at cost source_cost[i]. dist[l * width + i] is the
// cheapest total cost of a path from a source, or kUnreachable (1e30) when
// no path reaches the vertex. The layers are processed in order, a pull-style
// relaxation of each vertex over its incoming edges.
void layeredDagShortestPaths(int layers, int width, const int* row_ptr, const int* col_idx, const float* weight,
                             const float* source_cost, float* dist) {
  const float kUnreachable = 1e30f;
  if (layers <= 0) return;
  for (int i = 0; i < width; ++i) dist[i] = source_cost[i];
  for (int l = 1; l < layers; ++l) {
    const float* prev = dist + static_cast<long long>(l - 1) * width;
    for (int i = 0; i < width; ++i) {
      long long v = static_cast<long long>(l) * width + i;
      float best = kUnreachable;
      for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
        float d = prev[col_idx[k]];
        if (d >= kUnreachable) continue;
        float c = d + weight[k];
        if (c < best) best = c;
      }
      dist[v] = best;
    }
  }
}
