// `regrapht graph ...`: build, inspect and convert reasoning graphs.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/backend_flags.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "construct/graph_build.h"
#include "construct/step_verifier.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "graph/dot.h"
#include "graph/graph_json.h"
#include "graph/llm_relabeler.h"
#include "graph/relabel.h"
#include "graph/stats.h"
#include "graph/taxonomy.h"
#include "graph/trajectory_import.h"
#include "search/prompts.h"
#include "verify/build/batch_compile.h"

namespace regrapht::cli {
namespace {

// Stable-sorts `items` by the include lines of their sources (verify::
// BatchUnitOf; a source that cannot share a call sorts first), so that
// sources that may share an nvcc call are next to each other.
template <typename T, typename SourceOf>
void SortByIncludes(std::vector<T>* items, SourceOf source_of) {
  std::vector<std::pair<std::string, size_t>> keys;
  for (size_t i = 0; i < items->size(); ++i) {
    auto unit = verify::BatchUnitOf(source_of((*items)[i]));
    keys.emplace_back(unit ? "+" + Join(unit->includes, "\n") : std::string(), i);
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<T> sorted;
  sorted.reserve(items->size());
  for (const auto& [key, i] : keys) sorted.push_back(std::move((*items)[i]));
  *items = std::move(sorted);
}

Result<Taxonomy> LoadTaxonomy(const std::string& path) {
  if (path.empty()) return Taxonomy::Builtin();
  return Taxonomy::Load(path);
}

// Reads a graph, saying on stderr what reading the official format repaired.
Result<Graph> ReadGraph(const std::string& path, const std::string& from) {
  RG_ASSIGN_OR_RETURN(GraphFormat format, ParseGraphFormat(from));
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  if (format == GraphFormat::kAuto) {
    format = j.is_object() && j.contains("format") ? GraphFormat::kNative : GraphFormat::kOfficial;
  }
  if (format == GraphFormat::kNative) return NativeGraphFromJson(j, path);
  OfficialReadReport report;
  RG_ASSIGN_OR_RETURN(Graph g, OfficialGraphFromJson(j, path, &report));
  if (report.edges_recovered) {
    std::fprintf(stderr,
                 "%s: recovered %zu edges listed only in nodes' in/out (the official writer drops "
                 "them; their examples are lost)\n",
                 path.c_str(), report.edges_recovered);
  }
  if (report.duplicate_edges_merged) {
    std::fprintf(stderr, "%s: merged %zu repeated edges\n", path.c_str(),
                 report.duplicate_edges_merged);
  }
  if (report.duplicate_examples_dropped) {
    std::fprintf(stderr, "%s: dropped %zu duplicate examples\n", path.c_str(),
                 report.duplicate_examples_dropped);
  }
  return g;
}

Status WriteOutput(const std::string& path, std::string_view data) {
  if (path.empty() || path == "-") {
    std::fwrite(data.data(), 1, data.size(), stdout);
    return Status::Ok();
  }
  return WriteFileAtomic(path, data);
}

std::string GraphSummary(const Graph& g) {
  return std::to_string(g.num_nodes()) + " nodes, " + std::to_string(g.num_edges()) + " edges, " +
         std::to_string(g.num_examples()) + " examples";
}

// ---- graph import --------------------------------------------------------------

struct ImportArgs {
  std::vector<std::string> dirs;
  std::string out;
  std::string into;
  std::string taxonomy;
  std::string unknown = "flag";
  double threshold = 0.6;
  bool skip_bad = false;
  bool fail_on_cut = false;
  std::string format = "native";
  std::string verify = "none";  // none | compile | full
  bool write_records = false;
  int jobs = 0;                 // parallel builds before verifying; 0: all cores
  bool json = false;
  VerifyFlags flags;
};

int RunImport(const ImportArgs& a) {
  auto tax = LoadTaxonomy(a.taxonomy);
  if (!tax.ok()) return Fail(tax.status());
  auto out_format = ParseGraphFormat(a.format);
  if (!out_format.ok()) return Fail(out_format.status());
  DeterministicRelabelerOptions ro;
  ro.threshold = a.threshold;
  ro.unknown = a.unknown == "reject" ? UnknownLabelPolicy::kReject : UnknownLabelPolicy::kFlagNew;
  DeterministicRelabeler relabeler(&*tax, ro);
  ImportOptions options;
  options.taxonomy = &*tax;
  options.relabeler = &relabeler;
  auto vopts = a.flags.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  Verifier verifier(*vopts);
  construct::HarnessStepVerifier step_verifier(
      &verifier, a.verify == "full" ? construct::StepCheck::kFull : construct::StepCheck::kCompile);
  if (a.verify != "none") options.verifier = &step_verifier;

  Graph graph;
  if (!a.into.empty()) {
    auto g = ReadGraph(a.into, "auto");
    if (!g.ok()) return Fail(g.status());
    graph = std::move(g).value();
  }
  std::vector<fs::path> roots(a.dirs.begin(), a.dirs.end());
  if (a.verify != "none") {
    // Build every step in parallel first; the import then verifies one step
    // at a time from the build cache, so no compile disturbs a timing.
    auto dirs = FindTrajectoryDirs(roots);
    if (!dirs.ok()) return Fail(dirs.status());
    struct Work {
      Problem problem;
      std::shared_ptr<Trajectory> trajectory;
      size_t index;
    };
    std::vector<Work> work;
    for (const auto& d : *dirs) {
      auto t = ReadTrajectoryDir(d);
      auto p = LoadProblem(d);
      if (!t.ok() || !p.ok()) continue;  // reported by the import itself
      auto shared = std::make_shared<Trajectory>(std::move(*t));
      for (size_t i = 0; i < shared->steps.size(); ++i) work.push_back({*p, shared, i});
    }
    // Compile checks and correctness-only checks (which may share the GPU) are
    // done here, in parallel, and their records reused by the import. Timed
    // checks are only built here and run one at a time below.
    bool precompute = a.verify == "compile" || !vopts->timing;
    int jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Compile checks go in two chunks per job, whose compiles share nvcc
    // invocations where that cannot change a verdict
    // (Verifier::CompileOnlyMany): larger chunks find more steps that may
    // share, two per job keep every job busy. Only sources with the same
    // include lines may share a call, so steps are ordered by theirs first
    // (verdicts are kept by step, not by position). The nvcc calls per chunk
    // size: docs/performance.md, "Compile checks".
    const size_t per_job = (work.size() + 2 * jobs - 1) / (2 * jobs);
    const size_t chunk = a.verify == "compile" ? std::max<size_t>(8, per_job) : 1;
    if (chunk > 1) {
      SortByIncludes(&work, [](const Work& w) -> const std::string& {
        return w.trajectory->steps[w.index].code;
      });
    }
    ParallelFor((work.size() + chunk - 1) / chunk, jobs, [&](size_t c) {
      const size_t begin = c * chunk;
      if (chunk > 1) {
        std::vector<std::pair<const Trajectory*, size_t>> steps;
        for (size_t i = begin; i < std::min(work.size(), begin + chunk); ++i) {
          steps.emplace_back(work[i].trajectory.get(), work[i].index);
        }
        (void)step_verifier.PrecomputeMany(steps);  // a step it could not do is checked by the import
        return;
      }
      const Work& w = work[begin];
      const std::string& code = w.trajectory->steps[w.index].code;
      if (precompute) (void)step_verifier.Precompute(*w.trajectory, w.index);
      else (void)verifier.Prepare(w.problem, code);
    });
    std::fprintf(stderr, "%s %zu steps with %d jobs\n", precompute ? "verified" : "built", work.size(), jobs);
  }
  auto report = ImportTrajectories(roots, options, &graph);
  if (!report.ok()) return Fail(report.status());

  size_t added = 0, duplicate = 0, cut = 0;
  for (const auto& item : report->items) {
    if (!item.status.ok()) {
      std::fprintf(stderr, "error: %s\n", item.status.message().c_str());
      continue;
    }
    added += item.merge.examples_added;
    duplicate += item.merge.examples_duplicate;
    if (item.cut_at != std::string::npos) {
      ++cut;
      std::fprintf(stderr, "%s: cut before step %zu (%s)\n", item.kernel_id.c_str(), item.cut_at + 1,
                   item.cut_reason.c_str());
    }
    // Say how every label that was not given verbatim got its technique.
    for (size_t i = 0; i < item.labels.size(); ++i) {
      const LabelDecision& d = item.labels[i];
      if (d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) continue;
      std::fprintf(stderr, "%s: steps[%zu] \"%s\": %s\n", item.kernel_id.c_str(), i,
                   d.method.c_str(), d.Describe().c_str());
    }
  }
  for (const auto& dir : report->skipped) {
    std::fprintf(stderr, "skipped %s (no trajectory.json)\n", dir.string().c_str());
  }
  for (const auto& line : step_verifier.log()) std::printf("verify  %s\n", line.c_str());
  if (a.write_records) {
    for (const auto& [dir, records] : step_verifier.records()) {
      Status ws = construct::WriteStepRecords(dir, records);
      if (!ws.ok()) return Fail(ws);
    }
    std::fprintf(stderr, "wrote verification records into %zu trajectory.json files\n",
                 step_verifier.records().size());
  }
  std::fprintf(stderr, "imported %zu of %zu trajectories: %zu examples added, %zu already present\n",
               report->merged(), report->items.size(), added, duplicate);
  if (report->failed() > 0 && !a.skip_bad) {
    std::fprintf(stderr, "%zu trajectories failed; nothing written (use --skip-bad to write the rest)\n",
                 report->failed());
    return kExitError;
  }
  Status s = SaveGraph(graph, a.out, *out_format);
  if (!s.ok()) return Fail(s);
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"trajectories", report->items.size()},
                         {"imported", report->merged()},
                         {"failed", report->failed()},
                         {"cut", cut},
                         {"examples_added", added},
                         {"examples_already_present", duplicate},
                         {"graph", StatsToJson(ComputeStats(graph), graph)}});
  }
  if (cut > 0 && a.fail_on_cut) {
    std::fprintf(stderr, "%zu trajectories were cut at a failing step (--fail-on-cut)\n", cut);
    return kExitError;
  }
  return kExitOk;
}

// ---- graph build ----------------------------------------------------------------

struct BuildArgs {
  std::string kernels;
  std::string out;
  std::string into;
  std::string taxonomy;
  std::string unknown = "flag";
  double threshold = 0.6;
  std::string verify = "compile";  // none | compile | full
  int jobs = 2;
  int checkpoint_every = 5;
  int max_endpoint_errors = 3;
  bool resume = false;
  std::string save_trajectories;
  std::string prompts;
  bool no_cache = false;
  float temperature = 0.7f;
  float top_p = 0.9f;
  int max_tokens = 8192;
  uint64_t seed = 0;
  bool no_progress = false, json = false;
  BackendFlags backend;
  VerifyFlags flags;
};

int RunBuild(BuildArgs a) {
  // The old spelling: with --endpoint, --model named the served model. In
  // every command --model is a GGUF file and --model-name the served model.
  if (!a.backend.endpoints.empty() && a.backend.model_name.empty() && !a.backend.model.empty()) {
    std::fprintf(stderr,
                 "regrapht: warning: graph build --endpoint URL --model NAME is deprecated; use --model-name NAME "
                 "(--model is a GGUF file in every command)\n");
    a.backend.model_name = a.backend.model;
    a.backend.model.clear();
  }
  auto tax = LoadTaxonomy(a.taxonomy);
  if (!tax.ok()) return Fail(tax.status());
  auto kernels = construct::ReadKernelList(a.kernels);
  if (!kernels.ok()) return Fail(kernels.status());
  PromptLibrary prompts;
  if (!a.prompts.empty()) {
    Status s = prompts.LoadOverrides(a.prompts);
    if (!s.ok()) return Fail(s);
  }

  // The large model.
  if (a.backend.UseHttp() && a.backend.model_name.empty()) {
    return Fail(Status::InvalidArgument("--endpoint needs --model-name NAME (the served model)"));
  }
  auto llm = a.backend.Make();
  if (!llm.ok()) return Fail(llm.status());
  std::unique_ptr<LlmBackend> backend = std::move(*llm);
  if (!a.no_cache) {
    auto cached = NewCachedBackend(std::move(backend), CacheDir() / "llm-cache.db");
    if (!cached.ok()) return Fail(cached.status());
    backend = std::move(*cached);
  }

  // Relabel: the taxonomy's names, then the model for what they cannot place.
  UnknownLabelPolicy policy =
      a.unknown == "reject" ? UnknownLabelPolicy::kReject : UnknownLabelPolicy::kFlagNew;
  DeterministicRelabelerOptions ro;
  ro.threshold = a.threshold;
  ro.unknown = policy;
  DeterministicRelabeler deterministic(&*tax, ro);
  LlmRelabelerOptions lo;
  lo.unknown = policy;
  auto relabel_prompt = prompts.Render("relabel_system.txt", {});
  if (!relabel_prompt.ok()) return Fail(relabel_prompt.status());
  lo.system_prompt = *relabel_prompt;
  LlmRelabeler by_model(backend.get(), &*tax, lo);
  ChainRelabeler relabeler(&deterministic, &by_model);

  // Verification.
  auto vopts = a.flags.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  Verifier verifier(*vopts);
  construct::HarnessStepVerifier step_verifier(
      &verifier, a.verify == "full" ? construct::StepCheck::kFull : construct::StepCheck::kCompile);

  construct::GraphBuildOptions o;
  o.taxonomy = &*tax;
  o.llm = backend.get();
  o.relabeler = &relabeler;
  if (a.verify != "none") o.verifier = &step_verifier;
  o.system_template = prompts.templates().at("trajectory_system.txt");
  o.user_template = prompts.templates().at("trajectory_user.txt");
  o.sampling.temperature = a.temperature;
  o.sampling.top_p = a.top_p;
  o.sampling.max_tokens = a.max_tokens;
  o.sampling.seed = a.seed;
  o.jobs = a.jobs;
  o.checkpoint_every = a.checkpoint_every;
  o.max_endpoint_errors_in_a_row = a.max_endpoint_errors;
  o.state_path = a.out + ".state";
  o.resume = a.resume;
  o.save_trajectories = a.save_trajectories;
  OrderedJson config = {{"model", backend->ModelId()},  {"verify", a.verify},
                        {"arch", a.flags.arch},          {"unknown", a.unknown},
                        {"threshold", a.threshold},      {"taxonomy", a.taxonomy},
                        {"temperature", a.temperature},  {"top_p", a.top_p},
                        {"max_tokens", a.max_tokens},    {"seed", a.seed},
                        {"prompts", a.prompts},          {"into", a.into}};
  o.config = JsonLine(config);
  size_t counts[3] = {0, 0, 0};
  CountProgress progress(!a.no_progress, static_cast<int>(kernels->size()), SystemClock::Get());
  o.on_kernel = [&](const construct::KernelResult& r, size_t done) {
    ++counts[static_cast<int>(r.outcome)];
    std::string last = r.kernel_id + ": " + std::string(construct::KernelOutcomeName(r.outcome));
    if (!r.reason.empty()) last += " (" + TruncateMiddle(r.reason.substr(0, r.reason.find('\n')), 120) + ")";
    progress.Update(static_cast<int>(done),
                    "accepted " + std::to_string(counts[0]) + "  cut " + std::to_string(counts[1]) +
                        "  rejected " + std::to_string(counts[2]),
                    last);
  };

  Graph graph;
  if (!a.into.empty()) {
    auto g = ReadGraph(a.into, "auto");
    if (!g.ok()) return Fail(g.status());
    graph = std::move(g).value();
  }
  std::fprintf(stderr, "building from %zu kernels with %s (%d in flight, verify %s)\n",
               kernels->size(), backend->ModelId().c_str(), a.jobs, a.verify.c_str());
  auto report = construct::BuildGraph(*kernels, o, &graph);
  if (!report.ok()) {
    std::error_code ec;
    // A checkpoint this run wrote (the state checks themselves fail with
    // FailedPrecondition before any work) is worth pointing at.
    if (report.status().code() == Status::Code::kFailedPrecondition ||
        !fs::exists(o.state_path, ec)) {
      return Fail(report.status());
    }
    return Fail(report.status().WithContext("graph build (the last checkpoint is in " +
                                            o.state_path.string() + "; rerun with --resume)"));
  }

  // Labels not given verbatim, for review.
  for (const auto& r : report->kernels) {
    for (size_t i = 0; i < r.labels.size(); ++i) {
      const LabelDecision& d = r.labels[i];
      if (d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) continue;
      std::fprintf(stderr, "%s: steps[%zu] \"%s\": %s\n", r.kernel_id.c_str(), i,
                   d.method.c_str(), d.Describe().c_str());
    }
  }
  for (const auto& line : step_verifier.log()) std::fprintf(stderr, "verify  %s\n", line.c_str());
  std::string summary = construct::FormatBuildSummary(*report, graph);
  std::fwrite(summary.data(), 1, summary.size(), stdout);
  if (report->stopped) {
    std::fprintf(stderr,
                 "stopped: %s; nothing written to %s. The finished kernels are in %s: rerun "
                 "with --resume to continue.\n",
                 report->stop_reason.c_str(), a.out.c_str(), o.state_path.string().c_str());
    return kExitError;
  }
  std::string stats = FormatStats(ComputeStats(graph), graph);
  std::printf("\n%s", stats.c_str());
  Status s = SaveGraph(graph, a.out, GraphFormat::kNative);
  if (!s.ok()) return Fail(s);
  std::error_code ec;
  fs::remove(o.state_path, ec);  // the build is complete
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"kernels", report->kernels.size()},
                         {"resumed", report->resumed},
                         {"graph", StatsToJson(ComputeStats(graph), graph)}});
  }
  return kExitOk;
}

// ---- graph stats / show / export -------------------------------------------------

struct GraphArgs {
  std::string graph;
  std::string from = "auto";
  std::string format;
  std::string out;
  bool json = false;
  size_t top = 10;
  PruneOptions prune;  // show and export: --min-examples, --top
};

// The graph of `a`, pruned by --min-examples and --top when given.
Result<Graph> ReadPruned(const GraphArgs& a) {
  RG_ASSIGN_OR_RETURN(Graph g, ReadGraph(a.graph, a.from));
  if (a.prune.min_examples == 0 && a.prune.top == 0) return g;
  return PruneGraph(g, a.prune);
}

int RunStats(const GraphArgs& a) {
  auto g = ReadGraph(a.graph, a.from);
  if (!g.ok()) return Fail(g.status());
  GraphStats st = ComputeStats(*g, a.top);
  std::string text = a.json ? DumpJson(StatsToJson(st, *g)) : FormatStats(st, *g);
  if (a.json && (a.out.empty() || a.out == "-")) {
    EmitJsonText(text);
    return kExitOk;
  }
  Status s = WriteOutput(a.out, text);
  return s.ok() ? kExitOk : Fail(s);
}

// The format of `graph show`: --format, else -o's extension, else DOT.
std::string ShowFormat(const GraphArgs& a) {
  if (!a.format.empty()) return a.format;
  const std::string ext = fs::path(a.out).extension().string();
  if (ext == ".svg" || ext == ".png") return ext.substr(1);
  return "dot";
}

int RunShow(const GraphArgs& args) {
  GraphArgs a = args;
  a.format = ShowFormat(args);
  auto full = ReadGraph(a.graph, a.from);
  if (!full.ok()) return Fail(full.status());
  auto g = a.prune.min_examples == 0 && a.prune.top == 0 ? Result<Graph>(*full) : PruneGraph(*full, a.prune);
  if (!g.ok()) return Fail(g.status());
  // What the drawing leaves out is said in it, and here.
  const std::string legend = LegendOfPruning(*full, *g, a.prune);
  if (!legend.empty()) std::fprintf(stderr, "%s\n", legend.c_str());
  std::string dot = ToDot(*g, legend);
  if (a.format == "dot") {
    Status s = WriteOutput(a.out, dot);
    return s.ok() ? kExitOk : Fail(s);
  }
  if (g->num_edges() > kMaxDrawnEdges) {
    return Fail(Status::InvalidArgument(
        a.graph + ": " + std::to_string(g->num_edges()) + " edges are too many to draw as " + a.format +
        " (graphviz lays out at most about " + std::to_string(kMaxDrawnEdges) +
        " in reasonable time); keep the busiest with --top K or --min-examples N, or write --format dot"));
  }
  SubprocessOptions so;
  so.sandbox = SandboxMode::kNone;  // our own input to a system tool
  so.use_cgroups = false;
  auto runner = NewSubprocessRunner(so);
  auto image = RenderImage(dot, a.format, runner.get());
  if (!image.ok()) return Fail(image.status());
  Status s = WriteOutput(a.out, *image);
  return s.ok() ? kExitOk : Fail(s);
}

int RunExport(const GraphArgs& a) {
  auto g = ReadPruned(a);
  if (!g.ok()) return Fail(g.status());
  auto format = ParseGraphFormat(a.format);
  if (!format.ok()) return Fail(format.status());
  Status s = WriteOutput(a.out, SerializeGraph(*g, *format));
  if (!s.ok()) return Fail(s);
  if (a.out != "-") std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(*g).c_str());
  return kExitOk;
}

// ---- graph techniques / relabel ------------------------------------------------------

struct TaxonomyArgs {
  std::string taxonomy;
  bool list = false;
  std::vector<std::string> methods;
  double threshold = 0.6;
  bool json = false;
};

int RunTechniques(const TaxonomyArgs& a) {
  auto tax = LoadTaxonomy(a.taxonomy);
  if (!tax.ok()) return Fail(tax.status());
  if (a.json) {
    OrderedJson out = OrderedJson::array();
    for (const auto& t : tax->techniques()) out.push_back({{"id", t.id}, {"category", t.category}, {"name", t.name}});
    EmitJson(out);
    return kExitOk;
  }
  if (!a.list) {
    std::string md = tax->ToMarkdown();
    std::fwrite(md.data(), 1, md.size(), stdout);
    return kExitOk;
  }
  for (const auto& t : tax->techniques()) {
    std::printf("%-30s %-22s %s\n", t.id.c_str(), t.category.c_str(), t.name.c_str());
  }
  return kExitOk;
}

int RunRelabel(const TaxonomyArgs& a) {
  auto tax = LoadTaxonomy(a.taxonomy);
  if (!tax.ok()) return Fail(tax.status());
  DeterministicRelabelerOptions ro;
  ro.threshold = a.threshold;
  DeterministicRelabeler relabeler(&*tax, ro);
  OrderedJson out = OrderedJson::array();
  for (const auto& m : a.methods) {
    LabelDecision d = relabeler.Decide(m);
    if (!a.json) {
      std::printf("%s\t%s\n", m.c_str(), d.Describe().c_str());
      continue;
    }
    OrderedJson j;
    j["method"] = d.method;
    j["outcome"] = std::string(LabelOutcomeName(d.outcome));
    j["technique"] = d.technique_id;
    j["rule"] = std::string(LabelRuleName(d.rule));
    j["score"] = d.score;
    j["phrase"] = d.phrase;
    j["closest"] = d.closest;
    out.push_back(std::move(j));
  }
  if (a.json) EmitJson(out);
  return kExitOk;
}

// The relabel flags shared by `graph import` and `graph build`.
void AddRelabelFlags(CLI::App* sub, std::string* taxonomy, std::string* unknown, double* threshold) {
  sub->add_option("--taxonomy", *taxonomy, "Taxonomy JSON (default: the built-in data/taxonomy.json)");
  sub->add_option("--unknown", *unknown, "Techniques outside the taxonomy: flag (new node, needs review) or reject")
      ->check(CLI::IsMember({"flag", "reject"}))
      ->capture_default_str();
  AddNumber(sub, "--threshold", threshold, {0.0, 1.0}, "Token-overlap threshold for relabel");
}

}  // namespace

std::function<int()> GraphCommand(CLI::App* sub) {
  sub->require_subcommand(1);
  auto import_args = std::make_shared<ImportArgs>();
  auto graph_args = std::make_shared<GraphArgs>();
  auto tax_args = std::make_shared<TaxonomyArgs>();

  CLI::App* imp = sub->add_subcommand(
      "import", "Build a graph from authored trajectory folders (docs/trajectory-format.md)");
  imp->add_option("dirs", import_args->dirs, "Trajectory folders, or folders of them")
      ->required();
  imp->add_option("-o,--output", import_args->out, "Graph file to write (required)");
  AddOldSpelling(imp, "--out", "-o/--output", &import_args->out);
  imp->add_option("--into", import_args->into, "Start from this graph (native or official)");
  AddRelabelFlags(imp, &import_args->taxonomy, &import_args->unknown, &import_args->threshold);
  imp->add_flag("--skip-bad", import_args->skip_bad,
                "Write the graph even if some trajectories failed (they are reported)");
  imp->add_flag("--fail-on-cut", import_args->fail_on_cut,
                "Exit with an error when a step fails verification and its trajectory is cut (a CI gate)");
  imp->add_option("--format", import_args->format, "Output format: native or official")
      ->check(CLI::IsMember({"native", "official"}))
      ->capture_default_str();
  imp->add_option("--verify", import_args->verify,
                  "Check every step with the harness: none, compile (device code for every --arch) or full "
                  "(correctness and speedup on a GPU); steps from the first failing one are cut")
      ->check(CLI::IsMember({"none", "compile", "full"}))
      ->capture_default_str();
  AddNumber(imp, "--jobs", &import_args->jobs, {0, 1024}, "Parallel builds before verifying (0: all cores)");
  imp->add_flag("--write-records", import_args->write_records,
                "Write each step's verification record back into its trajectory.json");
  AddJsonFlag(imp, &import_args->json, "the import's counts and the graph's stats");
  import_args->flags.Add(imp, "sm_80,sm_90");

  auto build_args = std::make_shared<BuildArgs>();
  CLI::App* bld = sub->add_subcommand(
      "build", "Build a graph with a large model: ask it for optimization trajectories, relabel, "
               "verify each step, merge (docs/graph.md)");
  bld->add_option("--kernels", build_args->kernels,
                  "Text file listing problem or trajectory folders, one per line ('#' comments)")
      ->required();
  AddOldSpelling(bld, "--out", "-o/--output", &build_args->out);
  bld->add_option("-o,--output", build_args->out,
                  "Graph file to write (required); progress is checkpointed to OUT.state");
  bld->add_option("--into", build_args->into, "Start from this graph (native or official)");
  bld->add_option("--verify", build_args->verify,
                  "Check every step: none, compile (device code for every --arch) or full "
                  "(correctness and speedup on a GPU); steps from the first failing one are cut")
      ->check(CLI::IsMember({"none", "compile", "full"}))
      ->capture_default_str();
  AddNumber(bld, "--jobs", &build_args->jobs, {1, 256}, "Kernels in flight (requests and verification)");
  AddNumber(bld, "--checkpoint-every", &build_args->checkpoint_every, {1, 1000000}, "Write OUT.state every N kernels");
  bld->add_flag("--resume", build_args->resume,
                "Continue the build recorded in OUT.state, skipping its finished kernels");
  AddNumber(bld, "--max-endpoint-errors", &build_args->max_endpoint_errors, {0, 1000000},
            "Stop (resumably) after this many endpoint errors in a row (0: never)");
  bld->add_option("--save-trajectories", build_args->save_trajectories,
                  "Write each merged trajectory here in the authored layout (for `graph import`)");
  AddRelabelFlags(bld, &build_args->taxonomy, &build_args->unknown, &build_args->threshold);
  bld->add_option("--prompts", build_args->prompts,
                  "Folder of prompt templates overriding the built-in ones (trajectory_system.txt, "
                  "trajectory_user.txt, relabel_system.txt)");
  bld->add_flag("--no-cache", build_args->no_cache, "Do not use or fill the model response cache");
  AddNumber(bld, "--temperature", &build_args->temperature, kTemperatureRange, "Sampling temperature");
  AddNumber(bld, "--top-p", &build_args->top_p, kTopPRange, "Nucleus sampling");
  AddNumber(bld, "--max-tokens", &build_args->max_tokens, kMaxTokensRange, "Tokens per reply");
  AddNumber(bld, "--seed", &build_args->seed, kSeedRange, "Base seed (each kernel's request gets its own)");
  bld->add_flag("-q,--quiet", build_args->no_progress, "No progress lines on stderr");
  AddOldSpelling(bld, "--no-progress", "-q/--quiet", &build_args->no_progress);
  AddJsonFlag(bld, &build_args->json, "the build's counts and the graph's stats");
  build_args->backend.ctx_size = 16384;
  build_args->backend.Add(bld);
  build_args->flags.Add(bld, "sm_80,sm_90");

  auto add_graph = [&](CLI::App* c) {
    c->add_option("graph", graph_args->graph, "Graph file (default: the shipped data/graph/regrapht.json)");
    c->add_option("--from", graph_args->from, "Input format: auto, native or official")
        ->check(CLI::IsMember({"auto", "native", "official"}))
        ->capture_default_str();
  };
  CLI::App* stats = sub->add_subcommand("stats", "Print a graph's size, structure and coverage");
  add_graph(stats);
  AddJsonFlag(stats, &graph_args->json, "the stats");
  AddNumber(stats, "--top", &graph_args->top, {size_t{0}, size_t{1000000000}}, "How many frequent transitions to list");
  stats->add_option("-o,--output", graph_args->out, "Write here instead of stdout");

  CLI::App* show = sub->add_subcommand(
      "show", "Draw a graph as Graphviz DOT, SVG or PNG (by default its 20 strongest transitions, with a legend of "
              "what was left out)");
  add_graph(show);
  show->add_option("--format", graph_args->format,
                   "dot, svg or png (svg and png run graphviz `dot`; default: from -o's extension, else dot)")
      ->check(CLI::IsMember({"dot", "svg", "png"}));
  show->add_option("-o,--output", graph_args->out, "Write here instead of stdout");
  auto add_prune = [&](CLI::App* c) {
    AddNumber(c, "--min-examples", &graph_args->prune.min_examples, {size_t{0}, size_t{1000000000}},
              "Keep only transitions with at least N examples (and the techniques they touch)");
    AddNumber(c, "--top", &graph_args->prune.top, {size_t{0}, size_t{1000000000}},
              "Then keep only the K transitions with the most examples (0: all)");
  };
  add_prune(show);
  // A readable picture by default: the shipped graph whole is a 6077 x 3454 pt hairball.
  show->preparse_callback([graph_args](size_t) { graph_args->prune.top = 20; });
  show->get_option("--top")->default_str("20")->description(
      "Then keep only the K transitions with the most examples (0: all; the drawing's legend says what was left "
      "out)");

  CLI::App* exp = sub->add_subcommand("export", "Convert a graph between native and official formats");
  add_graph(exp);
  exp->add_option("--format", graph_args->format, "native or official")
      ->check(CLI::IsMember({"native", "official"}))
      ->required();
  exp->add_option("-o,--output", graph_args->out, "File to write ('-' for stdout)")->required();
  add_prune(exp);

  CLI::App* tech = sub->add_subcommand(
      "techniques", "Print the technique taxonomy as Markdown (docs/techniques.md) or a list");
  tech->add_option("--taxonomy", tax_args->taxonomy, "Taxonomy JSON (default: built-in)");
  tech->add_flag("--list", tax_args->list, "One line per technique instead of Markdown");
  AddJsonFlag(tech, &tax_args->json, "the techniques ([{id, category, name}])");

  CLI::App* rel = sub->add_subcommand("relabel", "Show which technique each method name maps to");
  rel->add_option("methods", tax_args->methods, "Method names as written")->required();
  rel->add_option("--taxonomy", tax_args->taxonomy, "Taxonomy JSON (default: built-in)");
  AddNumber(rel, "--threshold", &tax_args->threshold, {0.0, 1.0}, "Token-overlap threshold");
  AddJsonFlag(rel, &tax_args->json, "each name's decision");

  CLI::App* reval = sub->add_subcommand(
      "retrieval-eval", "How often retrieval's first corpus kernel shares a suite problem's expert technique path "
                        "(BM25 and llama.cpp embeddings)");
  std::function<int()> reval_run = RetrievalEvalCommand(reval);

  return [=]() -> int {
    if (reval->parsed()) return reval_run();
    if ((imp->parsed() && import_args->out.empty()) || (bld->parsed() && build_args->out.empty())) {
      std::fprintf(stderr, "regrapht: -o/--output is required\n");
      return kExitUsage;
    }
    if (imp->parsed()) return RunImport(*import_args);
    if (bld->parsed()) return RunBuild(*build_args);
    if ((stats->parsed() || show->parsed() || exp->parsed()) && graph_args->graph.empty())
      graph_args->graph = (DataDir() / "graph" / "regrapht.json").string();
    if (stats->parsed()) return RunStats(*graph_args);
    if (show->parsed()) return RunShow(*graph_args);
    if (exp->parsed()) return RunExport(*graph_args);
    if (tech->parsed()) return RunTechniques(*tax_args);
    if (rel->parsed()) return RunRelabel(*tax_args);
    return kExitUsage;
  };
}

}  // namespace regrapht::cli
