// CheckOverlapByTokens (regrapht/overlap.h): bench/overlap.h's checks over
// the folders a caller names, as `regrapht suite overlap` runs them.
#include "bench/overlap.h"
#include "regrapht/overlap.h"

namespace regrapht {
namespace {

Result<std::vector<OverlapItem>> CollectAll(const std::vector<std::filesystem::path>& dirs) {
  std::vector<OverlapItem> all;
  for (const auto& d : dirs) {
    RG_ASSIGN_OR_RETURN(std::vector<OverlapItem> items, bench::CollectItems(d, d.string()));
    all.insert(all.end(), items.begin(), items.end());
  }
  return all;
}

}  // namespace

Result<OverlapTokenReport> CheckOverlapByTokens(const OverlapTokenOptions& options) {
  OverlapTokenReport r;
  RG_ASSIGN_OR_RETURN(r.benchmark_items, CollectAll(options.benchmark));
  RG_ASSIGN_OR_RETURN(r.corpus_items, CollectAll(options.corpus));
  std::vector<bench::Overlap> found = bench::FindOverlaps(r.benchmark_items, r.corpus_items);
  if (!options.names.empty()) {
    RG_ASSIGN_OR_RETURN(std::set<std::string> names, bench::ReadNames(options.names));
    std::vector<bench::Overlap> named = bench::FindNamed(r.corpus_items, names);
    found.insert(found.end(), named.begin(), named.end());
  }
  for (auto& o : found) r.overlaps.push_back({std::move(o.a), std::move(o.b), std::move(o.reason)});
  bench::NearDuplicateOptions near_options{options.kgram, options.window, options.threshold};
  RG_ASSIGN_OR_RETURN(bench::NearDuplicateReport near,
                      bench::ScoreNearDuplicates(r.benchmark_items, r.corpus_items, near_options));
  for (const auto& p : near.pairs) {
    r.pairs.push_back({p.first, p.second, p.file_first, p.file_second, p.similarity, p.shared});
    if (p.similarity >= options.threshold) ++r.near_duplicates;
  }
  r.files_benchmark = near.files_first;
  r.files_corpus = near.files_second;
  r.median = bench::ScoreQuantile(near, 0.5);
  r.p99 = bench::ScoreQuantile(near, 0.99);
  r.p999 = bench::ScoreQuantile(near, 0.999);
  r.max = bench::ScoreQuantile(near, 1.0);
  return r;
}

}  // namespace regrapht
