#include "cli/commands_overlap.h"

#include <cstdio>

#include "cli/number_flags.h"

namespace regrapht::cli {
namespace {

// Prints each flagged pair, explained or not; returns them as JSON.
OrderedJson PrintMeaningFlags(const OverlapMeaningReport& report) {
  OrderedJson flagged = OrderedJson::array();
  for (const OverlapMeaningFlag& f : report.flagged) {
    const std::string state = f.explained ? "explained: " + *f.explained : "UNEXPLAINED";
    std::printf("MEANING %s ~ %s: %s [%s]\n", f.benchmark_dir.string().c_str(),
                f.corpus_dir.string().c_str(), f.Why().c_str(), state.c_str());
    flagged.push_back(
        {{"benchmark", f.benchmark},
         {"benchmark_dir", f.benchmark_dir.string()},
         {"corpus", f.corpus},
         {"corpus_dir", f.corpus_dir.string()},
         {"equal_outputs", f.equal_outputs},
         {"mapping", f.mapping},
         {"structure", f.structure ? OrderedJson(*f.structure) : OrderedJson(nullptr)},
         {"explained", f.explained ? OrderedJson(*f.explained) : OrderedJson(nullptr)}});
  }
  return flagged;
}

}  // namespace

void AddMeaningFlags(CLI::App* overlap, MeaningArgs* a) {
  overlap->add_flag(
      "--meaning", a->enabled,
      "also compare what the code computes: run each corpus reference with a compatible signature "
      "on the benchmark's tests (sandboxed, cached), and compare normalised loop nests");
  overlap->add_option(
      "--explained", a->explained,
      "explained-pairs file (suites/overlap-explained.tsv): a flagged pair not in it fails");
  overlap->add_flag_callback(
      "--no-behaviour", [a] { a->behaviour = false; },
      "meaning: the structure check alone, without running references (the slow part on a cold "
      "cache: minutes)");
  AddNumber(overlap, "--structure-threshold", &a->structure_threshold, {0.0, 1.0},
            "meaning: a pair whose loop-nest similarity is at or above this is flagged");
  AddNumber(overlap, "--mappings", &a->mappings, {1, 720},
            "meaning: argument bindings tried per compatible pair");
  AddNumber(overlap, "--run-timeout", &a->run_timeout_s, {0.1, 600.0},
            "meaning: seconds one stand-in run may take");
}

Result<int> RunMeaningCheck(const MeaningArgs& args, const std::vector<OverlapItem>& bench_items,
                            const std::vector<OverlapItem>& corpus_items, OrderedJson* json) {
  OverlapMeaningOptions o;
  o.behaviour = args.behaviour;
  o.explained = args.explained;
  o.structure_threshold = args.structure_threshold;
  o.mappings = args.mappings;
  o.run_timeout_s = args.run_timeout_s;
  o.show = args.show > 0 ? static_cast<size_t>(args.show) : 0;
  o.on_behaviour_progress = [](size_t done, size_t total) {
    if (done % 20 == 0 || done == total)
      std::fprintf(stderr, "meaning: %zu/%zu compatible pairs run\n", done, total);
  };
  RG_ASSIGN_OR_RETURN(OverlapMeaningReport r, CheckOverlapByMeaning(bench_items, corpus_items, o));
  OrderedJson flagged = PrintMeaningFlags(r);
  for (const auto& p : r.below_threshold) {
    std::printf("structure below threshold %.3f: %s ~ %s\n", p.similarity,
                p.benchmark_dir.string().c_str(), p.corpus_dir.string().c_str());
  }
  for (const auto& e : r.not_flagged_now) {
    std::printf("explained pair not flagged now (%s): %s ~ %s: %s\n", e.verdict.c_str(),
                e.benchmark.c_str(), e.corpus.c_str(), e.action.c_str());
  }
  std::printf(
      "meaning: behaviour: %zu compatible pairs, %zu runs (%zu cached), %zu with equal outputs; "
      "structure: %zu "
      "pairs (%zu references parsed), median %.3f, p99 %.3f, max %.3f, %zu at or above %.3f; %zu "
      "flagged, %d "
      "unexplained\n",
      r.compatible_pairs, r.runs, r.cached_runs, r.equal_outputs, r.structure_pairs,
      r.references_parsed, r.structure_median, r.structure_p99, r.structure_max,
      r.flagged_by_structure, args.structure_threshold, r.flagged.size(), r.unexplained);
  if (json) {
    *json = OrderedJson{{"compatible_pairs", r.compatible_pairs},
                        {"runs", r.runs},
                        {"cached_runs", r.cached_runs},
                        {"equal_outputs", r.equal_outputs},
                        {"structure_threshold", args.structure_threshold},
                        {"structure_pairs", r.structure_pairs},
                        {"structure_median", r.structure_median},
                        {"structure_p99", r.structure_p99},
                        {"structure_max", r.structure_max},
                        {"flagged", flagged},
                        {"unexplained", r.unexplained}};
  }
  return r.unexplained;
}

}  // namespace regrapht::cli
