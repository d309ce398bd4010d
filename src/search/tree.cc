#include "search/tree.h"

#include <algorithm>
#include <cmath>

namespace regrapht::search {

void NodeStats::Add(double value) {
  ++visits;
  value_sum += value;
  value_max = std::max(value_max, value);
}

void SearchTree::Reset(std::string root_code) {
  nodes_.clear();
  table_.clear();
  TreeNode root;
  root.code = std::move(root_code);
  nodes_.push_back(std::move(root));
}

int SearchTree::Add(TreeNode node) {
  node.id = static_cast<int>(nodes_.size());
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

std::string SearchTree::Key(int action, std::string_view code_hash) {
  return std::to_string(action) + ":" + std::string(code_hash);
}

std::optional<int> SearchTree::Find(const std::string& key) const {
  auto it = table_.find(key);
  if (it == table_.end()) return std::nullopt;
  return it->second;
}

double UcbScore(const SearchTree& tree, const TreeNode& n, const TreeEdge& e, double c) {
  if (e.visits == 0) return 1e9 + e.prior;
  double ln_n = std::log(std::max(1, n.stats.visits));
  return tree.EdgeQ(e) + c * std::sqrt(ln_n / e.visits);
}

int SelectPucb(const SearchTree& tree, const TreeNode& n, double c,
               const std::function<bool(const TreeEdge&)>& skip) {
  int best = -1;
  double best_score = -std::numeric_limits<double>::infinity();
  uint64_t best_tie = 0;
  for (size_t i = 0; i < n.edges.size(); ++i) {
    const TreeEdge& e = n.edges[i];
    if (skip && skip(e)) continue;
    double score = UcbScore(tree, n, e, c);
    if (best < 0 || score > best_score || (score == best_score && e.tie > best_tie)) {
      best = static_cast<int>(i);
      best_score = score;
      best_tie = e.tie;
    }
  }
  return best;
}

int SelectUct(const SearchTree& tree, const TreeNode& n, double c,
              const std::function<bool(const TreeEdge&)>& skip) {
  int best = -1;
  double best_score = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < n.edges.size(); ++i) {
    if (skip && skip(n.edges[i])) continue;
    double score = UcbScore(tree, n, n.edges[i], c);
    if (best < 0 || score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

int RolloutEdge(const SearchTree& tree, const TreeNode& n, double epsilon, double lambda,
                Rng& rng) {
  if (rng.Uniform() < epsilon) return static_cast<int>(rng.Below(n.edges.size()));
  std::vector<int> best;
  double best_v = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < n.edges.size(); ++i) {
    const TreeEdge& e = n.edges[i];
    double v = tree.EdgeQ(e) - lambda * e.visits;
    if (v > best_v + 1e-12) {
      best_v = v;
      best.assign(1, static_cast<int>(i));
    } else if (v >= best_v - 1e-12) {
      best.push_back(static_cast<int>(i));
    }
  }
  return best.size() == 1 ? best[0] : best[rng.Below(best.size())];
}

void BackupMean(SearchTree& tree, const std::vector<PathStep>& path, double value) {
  for (const PathStep& s : path) {
    TreeNode& n = tree.node(s.node);
    n.stats.Add(value);
    ++n.edges[static_cast<size_t>(s.edge)].visits;
  }
}

std::vector<double> SuffixMax(const SearchTree& tree, const std::vector<int>& rollout) {
  std::vector<double> out(rollout.size());
  double m = -std::numeric_limits<double>::infinity();
  for (size_t i = rollout.size(); i-- > 0;) {
    m = std::max(m, tree.node(rollout[i]).reward);
    out[i] = m;
  }
  return out;
}

}  // namespace regrapht::search
