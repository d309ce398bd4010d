// `regrapht graph ...`: build, inspect and convert reasoning graphs.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>

#include "cli/backend_flags.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "construct/build_relabeler.h"
#include "construct/graph_build.h"
#include "construct/prebuild.h"
#include "construct/step_verifier.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/progress.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "graph/dot.h"
#include "graph/graph_json.h"
#include "graph/relabel.h"
#include "graph/stats.h"
#include "graph/taxonomy.h"
#include "graph/trajectory_import.h"
#include "search/prompts.h"

namespace regrapht::cli {
namespace {

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

// Says on stderr what the import did with each trajectory (errors, cuts, how
// labels not given verbatim got their technique) and what it skipped;
// returns the examples added and already present and the trajectories cut.
struct ImportCounts {
  size_t added = 0, duplicate = 0, cut = 0;
};
ImportCounts ReportImportItems(const ImportReport& report) {
  ImportCounts n;
  for (const auto& item : report.items) {
    if (!item.status.ok()) {
      std::fprintf(stderr, "error: %s\n", item.status.message().c_str());
      continue;
    }
    n.added += item.merge.examples_added;
    n.duplicate += item.merge.examples_duplicate;
    if (item.cut_at != std::string::npos) {
      ++n.cut;
      std::fprintf(stderr, "%s: cut before step %zu (%s)\n", item.kernel_id.c_str(), item.cut_at + 1,
                   item.cut_reason.c_str());
    }
    // Say how every label that was not given verbatim got its technique.
    for (size_t i = 0; i < item.labels.size(); ++i) {
      const LabelDecision& d = item.labels[i];
      if (d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) continue;
      std::fprintf(stderr, "%s: steps[%zu] \"%s\": %s\n", item.kernel_id.c_str(), i, d.method.c_str(),
                   d.Describe().c_str());
    }
  }
  for (const auto& dir : report.skipped) {
    std::fprintf(stderr, "skipped %s (no trajectory.json)\n", dir.string().c_str());
  }
  return n;
}

// The verification log, and with --write-records the records written back.
Status ReportStepVerification(const ImportArgs& a, const construct::HarnessStepVerifier& step_verifier) {
  for (const auto& line : step_verifier.log()) std::printf("verify  %s\n", line.c_str());
  if (!a.write_records) return Status::Ok();
  for (const auto& [dir, records] : step_verifier.records()) {
    RG_RETURN_IF_ERROR(construct::WriteStepRecords(dir, records));
  }
  std::fprintf(stderr, "wrote verification records into %zu trajectory.json files\n", step_verifier.records().size());
  return Status::Ok();
}

// Writes the graph unless trajectories failed (without --skip-bad); the
// summary, --json, and --fail-on-cut.
int FinishImport(const ImportArgs& a, const ImportReport& report, const ImportCounts& n, const Graph& graph,
                 GraphFormat out_format) {
  std::fprintf(stderr, "imported %zu of %zu trajectories: %zu examples added, %zu already present\n",
               report.merged(), report.items.size(), n.added, n.duplicate);
  if (report.failed() > 0 && !a.skip_bad) {
    std::fprintf(stderr, "%zu trajectories failed; nothing written (use --skip-bad to write the rest)\n",
                 report.failed());
    return kExitError;
  }
  Status s = SaveGraph(graph, a.out, out_format);
  if (!s.ok()) return Fail(s);
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"trajectories", report.items.size()},
                         {"imported", report.merged()},
                         {"failed", report.failed()},
                         {"cut", n.cut},
                         {"examples_added", n.added},
                         {"examples_already_present", n.duplicate},
                         {"graph", StatsToJson(ComputeStats(graph), graph)}});
  }
  if (n.cut > 0 && a.fail_on_cut) {
    std::fprintf(stderr, "%zu trajectories were cut at a failing step (--fail-on-cut)\n", n.cut);
    return kExitError;
  }
  return kExitOk;
}

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
  std::unique_ptr<Verifier> verifier = NewVerifier(*vopts);
  construct::HarnessStepVerifier step_verifier(
      verifier.get(), a.verify == "full" ? construct::StepCheck::kFull : construct::StepCheck::kCompile);
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
    construct::PrebuildOptions po;
    po.compile_only = a.verify == "compile";
    po.timing = vopts->timing;
    po.jobs = a.jobs;
    auto pre = construct::PrebuildSteps(roots, po, &step_verifier, verifier.get());
    if (!pre.ok()) return Fail(pre.status());
    std::fprintf(stderr, "%s %zu steps with %d jobs\n", pre->precomputed ? "verified" : "built", pre->steps,
                 pre->jobs);
  }
  auto report = ImportTrajectories(roots, options, &graph);
  if (!report.ok()) return Fail(report.status());
  const ImportCounts n = ReportImportItems(*report);
  if (Status rs = ReportStepVerification(a, step_verifier); !rs.ok()) return Fail(rs);
  return FinishImport(a, *report, n, graph, *out_format);
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

// The large model of `graph build`, behind the response cache unless --no-cache.
Result<std::unique_ptr<LlmBackend>> MakeBuildBackend(const BuildArgs& a) {
  if (a.backend.UseHttp() && a.backend.model_name.empty()) {
    return Status::InvalidArgument("--endpoint needs --model-name NAME (the served model)");
  }
  RG_ASSIGN_OR_RETURN(std::unique_ptr<LlmBackend> backend, a.backend.Make());
  if (a.no_cache) return backend;
  return NewCachedBackend(std::move(backend), CacheDir() / "llm-cache.db");
}

// The build's options from the flags (without taxonomy, relabeler, verifier
// and progress), with the settings recorded in its checkpoint (config).
construct::GraphBuildOptions BuildOptionsOf(const BuildArgs& a, const PromptLibrary& prompts, LlmBackend* backend) {
  construct::GraphBuildOptions o;
  o.llm = backend;
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
  return o;
}

// A failed build's error, pointing at the checkpoint this run wrote (the
// state checks themselves fail with FailedPrecondition before any work).
Status WithCheckpoint(const Status& error, const fs::path& state_path) {
  std::error_code ec;
  if (error.code() == Status::Code::kFailedPrecondition || !fs::exists(state_path, ec)) return error;
  return error.WithContext("graph build (the last checkpoint is in " + state_path.string() +
                           "; rerun with --resume)");
}

// After the build: the labels not given verbatim (for review), the
// verification log, the summary, and the graph written unless it stopped.
int FinishBuild(const BuildArgs& a, const construct::GraphBuildReport& report, const fs::path& state_path,
                const construct::HarnessStepVerifier& step_verifier, const Graph& graph) {
  for (const auto& r : report.kernels) {
    for (size_t i = 0; i < r.labels.size(); ++i) {
      const LabelDecision& d = r.labels[i];
      if (d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) continue;
      std::fprintf(stderr, "%s: steps[%zu] \"%s\": %s\n", r.kernel_id.c_str(), i, d.method.c_str(),
                   d.Describe().c_str());
    }
  }
  for (const auto& line : step_verifier.log()) std::fprintf(stderr, "verify  %s\n", line.c_str());
  std::string summary = construct::FormatBuildSummary(report, graph);
  std::fwrite(summary.data(), 1, summary.size(), stdout);
  if (report.stopped) {
    std::fprintf(stderr,
                 "stopped: %s; nothing written to %s. The finished kernels are in %s: rerun "
                 "with --resume to continue.\n",
                 report.stop_reason.c_str(), a.out.c_str(), state_path.string().c_str());
    return kExitError;
  }
  std::string stats = FormatStats(ComputeStats(graph), graph);
  std::printf("\n%s", stats.c_str());
  Status s = SaveGraph(graph, a.out, GraphFormat::kNative);
  if (!s.ok()) return Fail(s);
  std::error_code ec;
  fs::remove(state_path, ec);  // the build is complete
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"kernels", report.kernels.size()},
                         {"resumed", report.resumed},
                         {"graph", StatsToJson(ComputeStats(graph), graph)}});
  }
  return kExitOk;
}

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
  auto backend = MakeBuildBackend(a);
  if (!backend.ok()) return Fail(backend.status());

  // Relabel: the taxonomy's names, then the model for what they cannot place.
  construct::BuildRelabelerOptions ro;
  ro.unknown = a.unknown == "reject" ? UnknownLabelPolicy::kReject : UnknownLabelPolicy::kFlagNew;
  ro.threshold = a.threshold;
  auto relabel_prompt = prompts.Render("relabel_system.txt", {});
  if (!relabel_prompt.ok()) return Fail(relabel_prompt.status());
  ro.system_prompt = *relabel_prompt;
  std::unique_ptr<Relabeler> relabeler = construct::NewBuildRelabeler(&*tax, backend->get(), ro);

  // Verification.
  auto vopts = a.flags.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  std::unique_ptr<Verifier> verifier = NewVerifier(*vopts);
  construct::HarnessStepVerifier step_verifier(
      verifier.get(), a.verify == "full" ? construct::StepCheck::kFull : construct::StepCheck::kCompile);

  construct::GraphBuildOptions o = BuildOptionsOf(a, prompts, backend->get());
  o.taxonomy = &*tax;
  o.relabeler = relabeler.get();
  if (a.verify != "none") o.verifier = &step_verifier;
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
               kernels->size(), (*backend)->ModelId().c_str(), a.jobs, a.verify.c_str());
  auto report = construct::BuildGraph(*kernels, o, &graph);
  if (!report.ok()) return Fail(WithCheckpoint(report.status(), o.state_path));
  return FinishBuild(a, *report, o.state_path, step_verifier, graph);
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

namespace {

// graph import's subcommand and flags (into *a).
CLI::App* AddImportCommand(CLI::App* sub, ImportArgs* a) {
  CLI::App* imp = sub->add_subcommand(
      "import", "Build a graph from authored trajectory folders (docs/trajectory-format.md)");
  imp->add_option("dirs", a->dirs, "Trajectory folders, or folders of them")
      ->required();
  imp->add_option("-o,--output", a->out, "Graph file to write (required)");
  AddOldSpelling(imp, "--out", "-o/--output", &a->out);
  imp->add_option("--into", a->into, "Start from this graph (native or official)");
  AddRelabelFlags(imp, &a->taxonomy, &a->unknown, &a->threshold);
  imp->add_flag("--skip-bad", a->skip_bad,
                "Write the graph even if some trajectories failed (they are reported)");
  imp->add_flag("--fail-on-cut", a->fail_on_cut,
                "Exit with an error when a step fails verification and its trajectory is cut (a CI gate)");
  imp->add_option("--format", a->format, "Output format: native or official")
      ->check(CLI::IsMember({"native", "official"}))
      ->capture_default_str();
  imp->add_option("--verify", a->verify,
                  "Check every step with the harness: none, compile (device code for every --arch) or full "
                  "(correctness and speedup on a GPU); steps from the first failing one are cut")
      ->check(CLI::IsMember({"none", "compile", "full"}))
      ->capture_default_str();
  AddNumber(imp, "--jobs", &a->jobs, {0, 1024}, "Parallel builds before verifying (0: all cores)");
  imp->add_flag("--write-records", a->write_records,
                "Write each step's verification record back into its trajectory.json");
  AddJsonFlag(imp, &a->json, "the import's counts and the graph's stats");
  a->flags.Add(imp, "sm_80,sm_90");

  return imp;
}

// graph build's subcommand and flags (into *a).
CLI::App* AddBuildCommand(CLI::App* sub, BuildArgs* a) {
  CLI::App* bld = sub->add_subcommand(
      "build", "Build a graph with a large model: ask it for optimization trajectories, relabel, "
               "verify each step, merge (docs/graph.md)");
  bld->add_option("--kernels", a->kernels,
                  "Text file listing problem or trajectory folders, one per line ('#' comments)")
      ->required();
  AddOldSpelling(bld, "--out", "-o/--output", &a->out);
  bld->add_option("-o,--output", a->out,
                  "Graph file to write (required); progress is checkpointed to OUT.state");
  bld->add_option("--into", a->into, "Start from this graph (native or official)");
  bld->add_option("--verify", a->verify,
                  "Check every step: none, compile (device code for every --arch) or full "
                  "(correctness and speedup on a GPU); steps from the first failing one are cut")
      ->check(CLI::IsMember({"none", "compile", "full"}))
      ->capture_default_str();
  AddNumber(bld, "--jobs", &a->jobs, {1, 256}, "Kernels in flight (requests and verification)");
  AddNumber(bld, "--checkpoint-every", &a->checkpoint_every, {1, 1000000}, "Write OUT.state every N kernels");
  bld->add_flag("--resume", a->resume,
                "Continue the build recorded in OUT.state, skipping its finished kernels");
  AddNumber(bld, "--max-endpoint-errors", &a->max_endpoint_errors, {0, 1000000},
            "Stop (resumably) after this many endpoint errors in a row (0: never)");
  bld->add_option("--save-trajectories", a->save_trajectories,
                  "Write each merged trajectory here in the authored layout (for `graph import`)");
  AddRelabelFlags(bld, &a->taxonomy, &a->unknown, &a->threshold);
  bld->add_option("--prompts", a->prompts,
                  "Folder of prompt templates overriding the built-in ones (trajectory_system.txt, "
                  "trajectory_user.txt, relabel_system.txt)");
  bld->add_flag("--no-cache", a->no_cache, "Do not use or fill the model response cache");
  AddNumber(bld, "--temperature", &a->temperature, kTemperatureRange, "Sampling temperature");
  AddNumber(bld, "--top-p", &a->top_p, kTopPRange, "Nucleus sampling");
  AddNumber(bld, "--max-tokens", &a->max_tokens, kMaxTokensRange, "Tokens per reply");
  AddNumber(bld, "--seed", &a->seed, kSeedRange, "Base seed (each kernel's request gets its own)");
  bld->add_flag("-q,--quiet", a->no_progress, "No progress lines on stderr");
  AddOldSpelling(bld, "--no-progress", "-q/--quiet", &a->no_progress);
  AddJsonFlag(bld, &a->json, "the build's counts and the graph's stats");
  a->backend.ctx_size = 16384;
  a->backend.Add(bld);
  a->flags.Add(bld, "sm_80,sm_90");

  return bld;
}

// The subcommands that read a graph: stats, show, export (flags into *a).
struct GraphViewCommands {
  CLI::App* stats;
  CLI::App* show;
  CLI::App* exp;
};
GraphViewCommands AddViewCommands(CLI::App* sub, const std::shared_ptr<GraphArgs>& graph_args) {
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

  return {stats, show, exp};
}

// graph techniques and graph relabel (flags into *tax_args).
std::pair<CLI::App*, CLI::App*> AddTaxonomyCommands(CLI::App* sub, TaxonomyArgs* tax_args) {
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

  return {tech, rel};
}

}  // namespace

std::function<int()> GraphCommand(CLI::App* sub) {
  sub->require_subcommand(1);
  auto import_args = std::make_shared<ImportArgs>();
  auto graph_args = std::make_shared<GraphArgs>();
  auto tax_args = std::make_shared<TaxonomyArgs>();
  CLI::App* imp = AddImportCommand(sub, import_args.get());
  auto build_args = std::make_shared<BuildArgs>();
  CLI::App* bld = AddBuildCommand(sub, build_args.get());
  const GraphViewCommands views = AddViewCommands(sub, graph_args);
  CLI::App *stats = views.stats, *show = views.show, *exp = views.exp;
  const auto taxonomy_commands = AddTaxonomyCommands(sub, tax_args.get());
  CLI::App *tech = taxonomy_commands.first, *rel = taxonomy_commands.second;
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
