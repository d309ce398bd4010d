#include <vector>

// 0/1 knapsack: the largest total value of a subset of the n_items items whose
// total weight is at most capacity (each item used at most once). Classic
// one-row dynamic programme over capacities, iterated item by item.
int knapsack_best_value(int n_items, int capacity, const int* weights, const int* values) {
  std::vector<int> best(capacity + 1, 0);
  for (int i = 0; i < n_items; ++i) {
    int w = weights[i], v = values[i];
    for (int c = capacity; c >= w; --c) {
      int take = best[c - w] + v;
      if (take > best[c]) best[c] = take;
    }
  }
  return best[capacity];
}
