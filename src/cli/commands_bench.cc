// regrapht bench / report / suite
#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "cli/commands_overlap.h"
#include "cli/build_info.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/search_flags.h"
#include "cli/verify_flags.h"
#include "regrapht/bench.h"
#include "regrapht/files.h"
#include "regrapht/overlap.h"
#include "regrapht/results.h"
#include "regrapht/suite.h"

namespace regrapht::cli {
namespace {

// "a, b, c".
std::string JoinNames(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

// regrapht bench merge OUT IN...
int RunMerge(const std::string& out, const std::vector<std::string>& inputs, bool json) {
  auto stats = MergeResults(out, inputs);
  if (!stats.ok()) return Fail(stats.status());
  std::printf(
      "merged %d database(s) into %s: %lld row(s) added, %lld already there; %lld rows in all\n",
      stats->inputs, out.c_str(), static_cast<long long>(stats->rows_added),
      static_cast<long long>(stats->rows_same), static_cast<long long>(stats->rows));
  std::printf("tables: regrapht report --db %s\n", out.c_str());
  if (json) {
    EmitJson(OrderedJson{{"output", out},
                         {"inputs", inputs},
                         {"rows_added", stats->rows_added},
                         {"rows_already_there", stats->rows_same},
                         {"rows", stats->rows}});
  }
  return kExitOk;
}

// regrapht bench repair --db IN -o OUT
int RunRepair(const std::string& in, const std::string& out, bool json) {
  auto stats = RepairResults(in, out);
  if (!stats.ok()) return Fail(stats.status());
  for (const auto& n : stats->notes) std::printf("  %s\n", n.c_str());
  std::printf(
      "repaired %s into %s: %lld row(s) copied, %lld invalid row(s) left out, %lld unreadable row "
      "id(s), %lld plan entries\n",
      in.c_str(), out.c_str(), static_cast<long long>(stats->rows_copied),
      static_cast<long long>(stats->rows_invalid), static_cast<long long>(stats->rows_unreadable),
      static_cast<long long>(stats->plan_entries));
  std::printf("resume with: regrapht bench --db %s ... (the missing samples are run again)\n",
              out.c_str());
  if (json) {
    EmitJson(OrderedJson{{"input", in},
                         {"output", out},
                         {"rows_copied", stats->rows_copied},
                         {"rows_invalid", stats->rows_invalid},
                         {"rows_unreadable", stats->rows_unreadable},
                         {"plan_entries", stats->plan_entries},
                         {"notes", stats->notes}});
  }
  return kExitOk;
}

}  // namespace

namespace {

struct BenchState {
  std::string suite, method = "reference", db = "regrapht-results.sqlite", shard = "0/1", pareval_prompts;
  int samples = 1, jobs = 2, seeds = 1;
  std::string merge_out;
  std::vector<std::string> merge_in;
  std::string repair_in, repair_out;
  bool no_resume = false, quiet = false, json = false, merge_json = false, repair_json = false;
  VerifyFlags flags;
  SearchFlags search;
  CLI::App* merge = nullptr;
  CLI::App* repair = nullptr;
};

// Adds `bench merge` and `bench repair` (st->merge, st->repair).
void AddMergeAndRepair(CLI::App* sub, BenchState* st) {
  CLI::App* merge = st->merge = sub->add_subcommand(
      "merge", "Merge results databases (e.g. one per shard) into one: the same row twice is one row, "
               "conflicting rows are an error naming both files");
  merge->add_option("-o,--output", st->merge_out, "the merged database (created, or added to); required");
  merge->add_option("inputs", st->merge_in,
                    "databases to merge into it (read only); the old form `bench merge OUT IN...` (no -o) still "
                    "works for one release, with a warning")
      ->required();
  AddJsonFlag(merge, &st->merge_json, "the counts (rows added, already there, in all)");
  CLI::App* repair = st->repair = sub->add_subcommand("repair",
                                                      "Copy the readable, valid rows of a damaged results "
                                                      "database (one `bench` and `report` refuse) to a new file");
  repair->add_option("--db", st->repair_in, "the damaged database (read only)")->required();
  repair->add_option("-o,--output", st->repair_out, "the new database (must not exist); required");
  AddOldSpelling(repair, "--out", "-o/--output", &st->repair_out);
  AddJsonFlag(repair, &st->repair_json, "the counts (rows copied, left out, unreadable) and notes");
  sub->require_subcommand(0, 1);
}

// Adds the flags of the run itself.
void AddBenchFlags(CLI::App* sub, BenchState* st) {
  sub->add_option("--suite", st->suite, "suite folder (suite.json + problem folders); required");
  sub->add_option("--method", st->method,
                  "reference (the suite's expert solutions) or a search method: " +
                      JoinNames(ReasonerNames(), ", "))
      ->capture_default_str();
  AddNumber(sub, "--samples", &st->samples, {1, 100000}, "samples per problem (k)");
  AddNumber(sub, "--seeds", &st->seeds, {1, 1000},
            "search methods: run the whole configuration this many times, with --seed, --seed + 1, ...; "
            "`report` shows the mean and spread across them (a seed other than 1 is part of the config)");
  sub->add_option("--shard", st->shard,
                  "i/n: run every n-th problem starting at i; auto: this task's shard of a Slurm job array "
                  "(SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _MAX; scripts/slurm/bench.sbatch)")
      ->capture_default_str();
  sub->add_flag("--no-resume", st->no_resume, "redo samples already in the database");
  sub->add_option("--db", st->db,
                  "SQLite results database; {shard} and {shards} become the shard index and count, so that each "
                  "shard writes its own file (needed on NFS/Lustre: merge them with `bench merge`)")
      ->capture_default_str();
  AddNumber(sub, "--jobs", &st->jobs, kJobsRange,
            "parallel compile jobs and verifications at once (--method reference; a search method's "
            "samples at once: --max-in-flight); timed phases never overlap");
  sub->add_flag("-q,--quiet", st->quiet, "no progress bar");
  AddJsonFlag(sub, &st->json, "the run's summary (counts, stop reason, database)");
  sub->add_option("--pareval-prompts", st->pareval_prompts,
                  "with --form kernel and a search method: ParEval's generation-prompts.json; each problem's "
                  "\"cuda\" prompt is the task shown to the model (without it: the problem's description and "
                  "kernel signature)");
  st->flags.Add(sub);
  st->search.Add(sub, /*with_method=*/false);
}

// bench merge / bench repair, once parsed.
int RunMergeOrRepair(BenchState& st) {
  if (st.merge->parsed()) {
    if (st.merge_out.empty()) {
      if (st.merge_in.size() < 2) {
        std::fprintf(stderr, "regrapht bench merge: -o OUT is required (bench merge -o OUT IN...)\n");
        return kExitUsage;
      }
      // The old positional form: OUT first.
      std::fprintf(stderr, "regrapht: warning: `bench merge OUT IN...` is deprecated; use `bench merge -o OUT "
                           "IN...`\n");
      st.merge_out = st.merge_in.front();
      st.merge_in.erase(st.merge_in.begin());
    }
    return RunMerge(st.merge_out, st.merge_in, st.merge_json);
  }
  if (st.repair_out.empty()) {
    std::fprintf(stderr, "regrapht bench repair: -o/--output NEW.sqlite is required\n");
    return kExitUsage;
  }
  return RunRepair(st.repair_in, st.repair_out, st.repair_json);
}

// The run's notes on stderr.
class StderrNotes final : public BenchListener {
 public:
  void Note(const std::string& line) override { std::fprintf(stderr, "%s\n", line.c_str()); }
};

// The library's options from the flags; a search method's environment is
// made from them when the run asks (MakeSearchEnv) and kept with the run.
BenchOptions ToBenchOptions(BenchState& st, const VerifyOptions& verify) {
  BenchOptions o;
  o.suite_dir = st.suite;
  o.method = st.method;
  o.db = st.db;
  o.shard = st.shard;
  o.samples = st.samples;
  o.resume = !st.no_resume;
  o.progress = !st.quiet;
  o.jobs = st.jobs;
  o.verify = verify;
  // Ctrl-C kills the compile or run in progress, and a wait for the GPU lock.
  o.cancel = InterruptFlag();
  o.interrupted = []() -> std::string {
    return InterruptFlag()->load() ? "interrupted (" + InterruptName() + ")" : "";
  };
  o.command = InvocationCommandLine();
  o.version = kBuildVersion;
  o.commit = BuildCommit();
  o.pareval_prompts = st.pareval_prompts;
  o.search.options.seed = st.search.seed;
  o.max_endpoint_failures = st.search.max_endpoint_failures;
  o.max_in_flight = st.search.max_in_flight;
  if (st.method == "reference" || st.method == "rules") return o;
  st.search.method = st.method;
  o.search = st.search.Experiment("");
  auto env = std::make_shared<std::unique_ptr<SearchEnv>>();
  o.open_search = [&st, env]() -> Result<BenchSearchEnv> {
    RG_ASSIGN_OR_RETURN(*env, MakeSearchEnv(st.search));
    const SearchEnv& e = **env;
    return BenchSearchEnv{e.graph.get(), e.index.get(), e.llm.get(), &e.prompts};
  };
  return o;
}

// The run's summary on stdout (the notes, the counts, where the rows are).
void PrintBenchSummary(const Bench& bench, const std::string& method, const BenchSummary& r) {
  for (const auto& [problem, n] : r.changed) {
    std::printf("note: %s changed since %d of its row(s) were stored (problem.json, reference.cpp, "
                "description.md or its expert solutions): those rows were run again\n",
                problem.c_str(), n);
  }
  if (r.unhashed_kept > 0) {
    std::printf("note: %d row(s) from before problem hashes were kept as they are (their problem cannot be "
                "compared; --no-resume redoes them)\n",
                r.unhashed_kept);
  }
  std::printf("%s / %s: %d samples (%d already done): %d correct, %d failed, %d unverified (no GPU) in %.1f s\n",
              bench.suite().c_str(), method.c_str(), r.tasks, r.skipped, r.correct, r.failed, r.unverified,
              r.wall_s);
  if (!r.stop_reason.empty() || r.incomplete > 0) {
    std::printf("STOPPED EARLY: %s; %d sample(s) stored, %d not finished (not stored), %d not started; run the "
                "same command again to do the rest (finished rows are kept)\n",
                r.stop_reason.empty() ? "some samples did not finish" : r.stop_reason.c_str(), r.done,
                r.incomplete, r.not_started);
    for (const auto& why : r.incomplete_reasons) std::printf("  not finished: %s\n", why.c_str());
  }
  if (bench.shard_count() > 1) {
    const int n = bench.problems(), i = bench.shard_index(), c = bench.shard_count();
    std::printf("shard %d of %d: %d of the suite's %d problems (those whose index mod %d is %d)\n", i, c,
                (n - i + c - 1) / c, n, c, i);
  }
  std::printf("results in %s; tables: regrapht report --db %s\n", bench.db().c_str(), bench.db().c_str());
  if (r.unverified > 0) {
    std::printf("NOTE: no GPU here: %d sample(s) were compiled only; nothing about them was verified.\n",
                r.unverified);
  }
  if (!r.cache_line.empty()) std::printf("%s\n", r.cache_line.c_str());
}

// bench --json: the run's summary.
void EmitBenchJson(const Bench& bench, const std::string& method, const BenchSummary& r) {
  OrderedJson j = {{"suite", bench.suite()},
                   {"method", method},
                   {"db", bench.db()},
                   {"samples", r.tasks},
                   {"already_done", r.skipped},
                   {"correct", r.correct},
                   {"failed", r.failed},
                   {"unverified", r.unverified},
                   {"wall_s", r.wall_s},
                   {"stopped_early", !r.stop_reason.empty() || r.incomplete > 0},
                   {"stop_reason", r.stop_reason.empty() ? OrderedJson(nullptr) : OrderedJson(r.stop_reason)},
                   {"stored", r.done},
                   {"not_finished", r.incomplete},
                   {"not_started", r.not_started},
                   {"not_finished_reasons", r.incomplete_reasons},
                   {"shard", {{"index", bench.shard_index()}, {"count", bench.shard_count()}}}};
  EmitJson(j);
}

// One bench run (one seed): checks, runs, prints, records its exit status.
int RunBenchOnce(BenchState& st) {
  if (st.suite.empty()) {
    std::fprintf(stderr, "regrapht bench: --suite DIR is required (or: regrapht bench merge -o OUT IN...)\n");
    return kExitUsage;
  }
  auto opts = st.flags.ToOptions();
  if (!opts.ok()) return Fail(opts.status());
  if (Status sb = RequireSandbox(*opts); !sb.ok()) return Fail(sb);
  StderrNotes notes;
  auto bench = Bench::Open(ToBenchOptions(st, *opts), &notes);
  if (!bench.ok()) return Fail(bench.status());
  InstallInterruptHandler();
  auto r = (*bench)->Run();
  if (!r.ok()) {
    if (InterruptFlag()->load()) {
      std::fprintf(stderr, "regrapht: %s\nregrapht: interrupted (%s); finished rows are in %s\n",
                   r.status().ToString().c_str(), InterruptName().c_str(), (*bench)->db().c_str());
      return InterruptExitCode();
    }
    return Fail(r.status());
  }
  PrintBenchSummary(**bench, st.method, *r);
  if (st.json) EmitBenchJson(**bench, st.method, *r);
  int rc = r->unverified > 0 && r->correct == 0 && r->failed == 0 ? kExitUnverified : kExitOk;
  if (r->endpoint_failed) rc = kExitEndpointFailed;
  if (InterruptSignal() != 0) rc = InterruptExitCode();
  if (Status fs = (*bench)->Finish(rc); !fs.ok()) {
    std::fprintf(stderr, "regrapht: warning: the rows do not record the exit status: %s\n", fs.ToString().c_str());
  }
  return rc;
}

// --seeds N: the whole run N times, with seeds --seed, --seed + 1, ... (each
// a configuration of its own); stops at the first run that does not finish.
int RunBenchSeeds(BenchState& st) {
  if (st.method == "reference") {
    std::fprintf(stderr, "note: --seeds: the reference method has no seed; one run\n");
    return RunBenchOnce(st);
  }
  if (st.json) {
    std::fprintf(stderr, "regrapht bench: --json prints one run's summary; with --seeds %d run each seed with "
                         "--seed instead\n", st.seeds);
    return kExitUsage;
  }
  const uint64_t first = st.search.seed;
  int last = kExitOk;
  for (int s = 0; s < st.seeds; ++s) {
    st.search.seed = first + static_cast<uint64_t>(s);
    std::printf("seed %llu (%d of %d)\n", static_cast<unsigned long long>(st.search.seed), s + 1, st.seeds);
    std::fflush(stdout);
    last = RunBenchOnce(st);
    if (last != kExitOk && last != kExitUnverified) break;
  }
  st.search.seed = first;
  return last;
}

}  // namespace

std::function<int()> BenchCommand(CLI::App* sub) {
  auto st = std::make_shared<BenchState>();
  AddMergeAndRepair(sub, st.get());
  AddBenchFlags(sub, st.get());
  return [st]() -> int {
    if (st->merge->parsed() || st->repair->parsed()) return RunMergeOrRepair(*st);
    if (st->seeds <= 1) return RunBenchOnce(*st);
    return RunBenchSeeds(*st);
  };
}

namespace {

struct ReportState {
  ReportOptions o;  // the flags bind into it (regrapht/results.h)
  std::string output;
  bool json = false;
  CLI::Option* format_opt = nullptr;
};

// Adds report's flags into `st`.
void AddReportFlags(CLI::App* sub, ReportState* st) {
  sub->add_option("--db", st->o.dbs,
                  "SQLite results database; repeat it (or bench merge first) for several, e.g. one per shard")
      ->required()
      ->allow_extra_args(false);
  sub->add_option("--format", st->o.format,
                  "md, csv, json, or html (one self-contained page: tables, figures, per-problem table with the "
                  "candidates' sources, environments; docs/bench.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"md", "csv", "json", "html"}));
  st->format_opt = sub->get_option("--format");
  AddJsonFlag(sub, &st->json, "the report (the same as --format json)");
  sub->add_option("-o,--output", st->output, "write the report here instead of stdout");
  sub->add_flag("--per-problem", st->o.per_problem,
                "md, csv or json: one row per problem and experiment (verdict, best speedup and its evidence) "
                "in place of the metrics tables (the html page always has this table, beside the metrics)");
  sub->add_option("--suite", st->o.suite,
                  "a suite folder: its experiments only, and its problems are the expected set the report checks "
                  "for missing rows (without it: the plan the runs recorded); or a suite name: only that suite");
  sub->add_option("--method", st->o.method, "only this method");
  AddNumbers(sub, "--k", &st->o.ks, {1, 1000000}, "k values for pass@k and speedup@k, e.g. 1,10");
  AddNumber(sub, "--bootstrap", &st->o.bootstrap, {0, 1000000}, "bootstrap resamples for the 95% intervals");
  sub->add_option("--timing", st->o.timing,
                  "call: speed metrics of the whole drop-in call, transfers included (the paper's), with the "
                  "kernel-only figures beside them; kernel: every speed metric from kernel-only time "
                  "(ParEval's measure; rows without a kernel time count as untimed)")
      ->capture_default_str()
      ->check(CLI::IsMember({"call", "kernel"}));
  sub->add_flag("--paper", st->o.paper,
                "our rows in the layout of the paper's Table 1 and 2 beside its published numbers (Markdown), "
                "each saying whether it is comparable (same problems, same protocol) and why not");
  sub->add_option("--paper-data", st->o.paper_data,
                  "the paper's numbers (default: the shipped data/paper/regrapht-2510.19873.json)");
}

// Usage errors of flags that exclude each other (exit 2 when false);
// --json becomes --format json.
bool CheckReportFlags(ReportState& st) {
  if (st.o.paper && (st.o.format != "md" || st.json || st.o.per_problem)) {
    std::fprintf(stderr, "regrapht report: --paper prints Markdown; it cannot be combined with --format %s, "
                         "--json or --per-problem\n", st.json ? "json" : st.o.format.c_str());
    return false;
  }
  if (st.json) {
    if (st.format_opt->count() > 0 && st.o.format != "json") {
      std::fprintf(stderr, "regrapht report: --json is --format json; it cannot be combined with --format %s\n",
                   st.o.format.c_str());
      return false;
    }
    st.o.format = "json";
  }
  return true;
}

// regrapht report, once its flags are parsed.
int RunReport(ReportState& st) {
  if (!CheckReportFlags(st)) return kExitUsage;
  auto text = RenderReport(st.o);
  if (!text.ok()) return Fail(text.status());
  if (st.output.empty()) {
    if (st.json) {
      EmitJsonText(*text);
    } else {
      std::fputs(text->c_str(), stdout);
    }
    return kExitOk;
  }
  Status ws = WriteFileAtomic(st.output, *text);
  if (!ws.ok()) return Fail(ws);
  std::fprintf(stderr, "report written to %s\n", st.output.c_str());
  return kExitOk;
}

}  // namespace

std::function<int()> ReportCommand(CLI::App* sub) {
  auto st = std::make_shared<ReportState>();
  AddReportFlags(sub, st.get());
  return [st]() -> int { return RunReport(*st); };
}

struct CalibrateArgs {
  std::string dir;
  double target_ms = 100;
  int max_steps = 8;
  int64_t param_max = 64;
  int64_t max_mib = 1024;
  std::vector<std::string> only;
  bool write = false, json = false;
  VerifyFlags flags;
};

// One problem's row of the calibration table (and of `rows`, the JSON).
void PrintCalibration(const TimingCalibration& c, OrderedJson* rows) {
  if (!c.error.empty()) {
    std::printf("| %s | %s | - | - | - | FAILED: %s |\n", c.problem.c_str(), c.old_sizes.c_str(),
                c.error.c_str());
    rows->push_back({{"problem", c.problem}, {"old_sizes", c.old_sizes}, {"error", c.error}});
    return;
  }
  std::printf("| %s | %s | %.1f | %s | %.1f | %s |\n", c.problem.c_str(), c.old_sizes.c_str(),
              c.old_ms, c.changed ? c.new_sizes.c_str() : "(same)", c.new_ms, c.note.c_str());
  rows->push_back({{"problem", c.problem},
                   {"old_sizes", c.old_sizes},
                   {"old_ms", c.old_ms},
                   {"new_sizes", c.new_sizes},
                   {"new_ms", c.new_ms},
                   {"changed", c.changed},
                   {"note", c.note}});
  std::fflush(stdout);
}

// regrapht suite calibrate DIR: timing sizes at which the -O3 reference takes
// at least --target-ms here; --write puts them into the specs.
int RunCalibrate(const CalibrateArgs& a) {
  auto opts = a.flags.ToOptions();
  if (!opts.ok()) return Fail(opts.status());
  TimingCalibratorOptions co;
  co.target_ms = a.target_ms;
  co.max_steps = a.max_steps;
  co.param_max = a.param_max;
  co.max_bytes = a.max_mib << 20;
  co.only = a.only;
  co.verify = *opts;
  auto calibrator = TimingCalibrator::Open(a.dir, co);
  if (!calibrator.ok()) return Fail(calibrator.status());
  TimingCalibrator& cal = **calibrator;
  std::printf("calibrating the timing sizes of %s: the -O3 reference's median >= %.0f ms on %s\n\n",
              a.dir.c_str(), a.target_ms, cal.cpu().c_str());
  std::printf("| problem | old sizes | old ms | new sizes | new ms | note |\n|---|---|---|---|---|---|\n");
  int failed = 0, written = 0;
  OrderedJson rows = OrderedJson::array();
  while (true) {
    if (InterruptSignal() != 0) return InterruptExitCode();
    auto c = cal.Next();
    if (!c.ok()) return Fail(c.status());
    if (!*c) break;
    PrintCalibration(**c, &rows);
    if (!(*c)->error.empty()) {
      ++failed;
      continue;
    }
    if (!a.write || !(*c)->changed) continue;
    if (Status ws = cal.WriteLast(); !ws.ok()) return Fail(ws);
    ++written;
  }
  std::printf("\n%d problem(s), %d failed%s\n", cal.problems(), failed,
              a.write ? fmt::format(", {} spec(s) rewritten", written).c_str()
                      : " (--write rewrites the specs)");
  if (a.json) {
    EmitJson(OrderedJson{{"dir", a.dir},
                         {"target_ms", a.target_ms},
                         {"cpu", cal.cpu()},
                         {"problems", rows},
                         {"failed", failed},
                         {"rewritten", written}});
  }
  return failed ? kExitError : kExitOk;
}

namespace {

struct SuiteState {
  std::string suite;
  bool no_build = false, device_only = false, check_json = false, overlap_json = false;
  int check_jobs = 0;
  VerifyFlags flags;
  std::vector<std::string> benchmark, corpus;
  std::string names;
  OverlapTokenOptions near;  // kgram, window, threshold (the folders from the flags above)
  int show = 5;
  MeaningArgs meaning;
};

// Adds the flags of `suite calibrate` into `cal`.
void AddCalibrateFlags(CLI::App* calibrate, CalibrateArgs* cal) {
  calibrate->add_option("dir", cal->dir, "a suite folder, or a folder of problem folders (problems/)")->required();
  AddNumber(calibrate, "--target-ms", &cal->target_ms, {0.001, 1e7},
            "the reference's median at the timing size must reach this");
  AddNumber(calibrate, "--max-steps", &cal->max_steps, {1, 100}, "reference runs per problem after the first");
  AddNumber(calibrate, "--param-max", &cal->param_max, {int64_t{0}, int64_t{1} << 40},
            "timing sizes at most this are parameters (radius, iterations, k) and never scale");
  AddNumber(calibrate, "--max-mib", &cal->max_mib, {int64_t{0}, int64_t{6} << 10},
            "largest timing input per copy in MiB (the driver holds five copies; 0: the spec's 6 GiB)");
  calibrate->add_option("--only", cal->only, "only this problem (repeatable)");
  calibrate->add_flag("--write", cal->write, "rewrite the timing entry of each changed problem.json in place");
  AddJsonFlag(calibrate, &cal->json, "each problem's old and new sizes and times");
  cal->flags.Add(calibrate);
}

// Adds the flags of `suite check` and `suite overlap` into `st`.
void AddCheckAndOverlapFlags(CLI::App* check, CLI::App* overlap, SuiteState* st) {
  check->add_option("suite", st->suite, "suite folder")->required();
  check->add_flag("--no-build", st->no_build, "only parse and validate the files");
  AddCheckJobsOption(check, &st->check_jobs);
  check->add_flag("--device-only", st->device_only,
                  "compile solutions to device code only (no link): the quick compile gate of CI");
  AddJsonFlag(check, &st->check_json, "the suite's tiers and each problem's result");
  st->flags.Add(check, "sm_80,sm_90");
  overlap->add_option("--benchmark", st->benchmark, "benchmark folders (searched recursively)")->required();
  overlap->add_option("--corpus", st->corpus, "training corpus folders (searched recursively)")->required();
  overlap->add_option("--names", st->names, "file of forbidden names (e.g. suites/pareval-names.txt)");
  AddNumber(overlap, "--kgram", &st->near.kgram, {1, 1000}, "near duplicates: tokens per k-gram");
  AddNumber(overlap, "--window", &st->near.window, {1, 1000}, "near duplicates: winnowing window (1: every k-gram)");
  AddNumber(overlap, "--threshold", &st->near.threshold, {0.0, 1.0},
            "near duplicates: a pair at or above this similarity fails the check");
  AddNumber(overlap, "--show", &st->show, {0, 1000000}, "also print the N most similar pairs below the threshold");
  AddMeaningFlags(overlap, &st->meaning);
  AddJsonFlag(overlap, &st->overlap_json, "the overlaps, near duplicates, shown pairs and score quantiles");
}

// regrapht suite check SUITE.
int RunSuiteCheck(const SuiteState& st) {
  auto suite = ReadSuite(st.suite);
  if (!suite.ok()) return Fail(suite.status());
  std::map<std::string, int> tiers;
  std::vector<std::string> dirs;
  for (const auto& p : suite->problems) {
    ++tiers[p.tier];
    dirs.push_back(p.dir);
  }
  std::printf("suite %s: %zu problems", suite->name.c_str(), suite->problems.size());
  for (const auto& [t, n] : tiers) std::printf(", %s %d", t.empty() ? "untiered" : t.c_str(), n);
  std::printf("\n");
  OrderedJson results = OrderedJson::array();
  int failed = CheckProblemDirs(dirs, st.no_build, st.flags, st.device_only, st.check_json ? &results : nullptr,
                                st.check_jobs);
  if (st.check_json) {
    OrderedJson tier_json = OrderedJson::object();
    for (const auto& [t, n] : tiers) tier_json[t.empty() ? "untiered" : t] = n;
    EmitJson(OrderedJson{{"suite", suite->name}, {"tiers", tier_json}, {"problems", results}, {"failed", failed}});
  }
  return failed ? kExitError : kExitOk;
}

// Prints each overlap found; returns them as JSON.
OrderedJson PrintOverlaps(const std::vector<OverlapFound>& found) {
  OrderedJson overlaps = OrderedJson::array();
  for (const auto& o : found) {
    const std::string corpus = o.corpus.dir.empty() ? o.corpus.name : o.corpus.dir.string();
    overlaps.push_back({{"reason", o.reason},
                        {"benchmark", o.benchmark.dir.string()},
                        {"benchmark_function", o.benchmark.function},
                        {"corpus", corpus},
                        {"corpus_function", o.corpus.function}});
    std::printf("OVERLAP (%s): %s [%s] and %s [%s]\n", o.reason.c_str(), o.benchmark.dir.string().c_str(),
                o.benchmark.function.c_str(), corpus.c_str(), o.corpus.function.c_str());
  }
  return overlaps;
}

// Prints the near duplicates and the --show pairs below the threshold (into
// `near_json` too) and the similarity quantiles.
void PrintNearDuplicates(const SuiteState& st, const OverlapTokenReport& r, OrderedJson* near_json) {
  auto print_pair = [&](const char* label, const OverlapNearPair& p) {
    const auto& a = r.benchmark_items[p.benchmark];
    const auto& b = r.corpus_items[p.corpus];
    std::printf("%s %.3f: %s [%s] ~ %s [%s] (%zu shared %d-grams)\n", label, p.similarity, a.dir.string().c_str(),
                p.benchmark_file.c_str(), b.dir.string().c_str(), p.corpus_file.c_str(), p.shared, st.near.kgram);
    near_json->push_back({{"similarity", p.similarity},
                          {"near_duplicate", p.similarity >= st.near.threshold},
                          {"benchmark", a.dir.string()},
                          {"benchmark_file", p.benchmark_file},
                          {"corpus", b.dir.string()},
                          {"corpus_file", p.corpus_file},
                          {"shared_kgrams", p.shared}});
  };
  size_t shown = 0;
  for (const auto& p : r.pairs) {
    if (p.similarity >= st.near.threshold) {
      print_pair("NEAR-DUPLICATE", p);
    } else if (shown < static_cast<size_t>(st.show)) {
      print_pair("below threshold", p);
      ++shown;
    }
  }
  std::printf(
      "near duplicates: %zu x %zu code files, k-gram %d, window %d, threshold %.3f; similarity "
      "over "
      "%zu pairs: median %.3f, p99 %.3f, p99.9 %.3f, max %.3f\n",
      r.files_benchmark, r.files_corpus, st.near.kgram, st.near.window, st.near.threshold, r.pairs.size(), r.median,
      r.p99, r.p999, r.max);
}

// regrapht suite overlap --benchmark ... --corpus ...
int RunSuiteOverlap(SuiteState& st) {
  OverlapTokenOptions options = st.near;
  options.benchmark.assign(st.benchmark.begin(), st.benchmark.end());
  options.corpus.assign(st.corpus.begin(), st.corpus.end());
  options.names = st.names;
  auto r = CheckOverlapByTokens(options);
  if (!r.ok()) return Fail(r.status());
  OrderedJson overlaps = PrintOverlaps(r->overlaps), near_json = OrderedJson::array();
  PrintNearDuplicates(st, *r, &near_json);
  std::printf("%zu benchmark problems, %zu corpus kernels: %zu overlap(s), %zu near duplicate(s)\n",
              r->benchmark_items.size(), r->corpus_items.size(), r->overlaps.size(), r->near_duplicates);
  OrderedJson meaning_json;
  int unexplained = 0;
  if (st.meaning.enabled) {
    st.meaning.show = st.show;
    auto m = RunMeaningCheck(st.meaning, r->benchmark_items, r->corpus_items, &meaning_json);
    if (!m.ok()) return Fail(m.status());
    unexplained = *m;
  }
  if (st.overlap_json) {
    EmitJson(OrderedJson{{"benchmark_problems", r->benchmark_items.size()},
                         {"corpus_kernels", r->corpus_items.size()},
                         {"overlaps", overlaps},
                         {"near_duplicates", r->near_duplicates},
                         {"pairs", near_json},
                         {"kgram", st.near.kgram},
                         {"window", st.near.window},
                         {"threshold", st.near.threshold},
                         {"similarity", {{"pairs", r->pairs.size()},
                                         {"median", r->median},
                                         {"p99", r->p99},
                                         {"p999", r->p999},
                                         {"max", r->max}}},
                         {"meaning", meaning_json}});
  }
  return r->overlaps.empty() && r->near_duplicates == 0 && unexplained == 0 ? kExitOk : kExitError;
}

}  // namespace

std::function<int()> SuiteCommand(CLI::App* sub) {
  sub->require_subcommand(1);
  CLI::App* check = sub->add_subcommand("check", "Validate a suite: tiers, every problem, expert solutions compile");
  CLI::App* overlap = sub->add_subcommand("overlap", "Fail if benchmark problems appear in the training corpus");
  CLI::App* calibrate = sub->add_subcommand(
      "calibrate", "Propose timing sizes at which the -O3 reference takes at least --target-ms here (--write: into the specs)");
  auto cal = std::make_shared<CalibrateArgs>();
  AddCalibrateFlags(calibrate, cal.get());
  auto st = std::make_shared<SuiteState>();
  AddCheckAndOverlapFlags(check, overlap, st.get());
  return [st, check, calibrate, cal]() -> int {
    if (calibrate->parsed()) return RunCalibrate(*cal);
    if (check->parsed()) return RunSuiteCheck(*st);
    return RunSuiteOverlap(*st);
  };
}

}  // namespace regrapht::cli
