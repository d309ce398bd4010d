#include <vector>

// Number of ways to pay `amount` with unlimited coins of the given
// denominations (order of coins does not matter), modulo 1e9+7. Entries of
// `coins` are treated as distinct denominations even if values repeat.
int coin_change_count(int amount, const std::vector<int>& coins) {
  const int MOD = 1000000007;
  std::vector<int> ways(amount + 1, 0);
  ways[0] = 1;
  for (int c : coins) {
    for (int a = c; a <= amount; ++a) {
      ways[a] += ways[a - c];
      if (ways[a] >= MOD) ways[a] -= MOD;
    }
  }
  return ways[amount];
}
