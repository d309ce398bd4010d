// Roots and depths in a forest stored as parent offsets, the layout union-find
// structures, merge trees and hierarchical clusterings leave behind: vertex
// i's parent is i - hop[i] when 0 < hop[i] <= i, and i is a root otherwise
// (hop[i] == 0 or a hop past vertex 0). Parents always precede their
// children, so one pass in index order suffices: root[i] is the root of i's
// tree and depth[i] the number of parent steps from i to it.
void forestRootDepth(int n, const int* hop, int* root, int* depth) {
  for (int i = 0; i < n; ++i) {
    int h = hop[i];
    if (h <= 0 || h > i) {
      root[i] = i;
      depth[i] = 0;
    } else {
      int p = i - h;
      root[i] = root[p];
      depth[i] = depth[p] + 1;
    }
  }
}
