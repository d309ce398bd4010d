// `regrapht graph ...`: build, inspect and convert reasoning graphs.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/backend_flags.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "regrapht/construct.h"
#include "regrapht/files.h"
#include "regrapht/graph.h"
#include "regrapht/prompts.h"
#include "regrapht/taxonomy.h"

namespace regrapht::cli {
namespace {

// Reads a graph, saying on stderr what reading the official format repaired.
Result<Graph> ReadGraph(const std::string& path, const std::string& from) {
  RG_ASSIGN_OR_RETURN(GraphFormat format, ParseGraphFormat(from));
  std::vector<std::string> notes;
  auto g = LoadGraph(path, format, &notes);
  for (const auto& line : notes) std::fprintf(stderr, "%s\n", line.c_str());
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

// The graph's stats as JSON, for --json outputs.
OrderedJson StatsJsonOf(const Graph& g) { return OrderedJson::parse(GraphStatsJson(g)); }

StepCheckLevel StepCheckOf(const std::string& verify) {
  if (verify == "full") return StepCheckLevel::kFull;
  if (verify == "compile") return StepCheckLevel::kCompile;
  return StepCheckLevel::kNone;
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
  int jobs = 0;  // parallel builds before verifying; 0: all cores
  bool json = false;
  VerifyFlags flags;
};

// Writes the graph unless trajectories failed (without --skip-bad); the
// summary, --json, and --fail-on-cut.
int FinishImport(const ImportArgs& a, const GraphImportReport& r, GraphFormat out_format) {
  std::fprintf(stderr,
               "imported %zu of %zu trajectories: %zu examples added, %zu already present\n",
               r.imported, r.trajectories, r.examples_added, r.examples_already_present);
  if (r.failed > 0 && !a.skip_bad) {
    std::fprintf(stderr,
                 "%zu trajectories failed; nothing written (use --skip-bad to write the rest)\n",
                 r.failed);
    return kExitError;
  }
  Status s = SaveGraph(r.graph, a.out, out_format);
  if (!s.ok()) return Fail(s);
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(r.graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"trajectories", r.trajectories},
                         {"imported", r.imported},
                         {"failed", r.failed},
                         {"cut", r.cut},
                         {"examples_added", r.examples_added},
                         {"examples_already_present", r.examples_already_present},
                         {"graph", StatsJsonOf(r.graph)}});
  }
  if (r.cut > 0 && a.fail_on_cut) {
    std::fprintf(stderr, "%zu trajectories were cut at a failing step (--fail-on-cut)\n", r.cut);
    return kExitError;
  }
  return kExitOk;
}

int RunImport(const ImportArgs& a) {
  auto out_format = ParseGraphFormat(a.format);
  if (!out_format.ok()) return Fail(out_format.status());
  auto vopts = a.flags.ToOptions();
  if (!vopts.ok()) return Fail(vopts.status());
  GraphImportOptions o;
  o.dirs.assign(a.dirs.begin(), a.dirs.end());
  o.into = a.into;
  o.relabel.taxonomy = a.taxonomy;
  o.relabel.reject_unknown = a.unknown == "reject";
  o.relabel.threshold = a.threshold;
  o.check = StepCheckOf(a.verify);
  o.verify = *vopts;
  o.jobs = a.jobs;
  o.write_records = a.write_records;
  auto report = ImportGraph(o);
  if (!report.ok()) return Fail(report.status());
  for (const auto& line : report->notes) std::fprintf(stderr, "%s\n", line.c_str());
  for (const auto& line : report->verify_log) std::printf("verify  %s\n", line.c_str());
  if (a.write_records) {
    std::fprintf(stderr, "wrote verification records into %zu trajectory.json files\n",
                 report->records_written);
  }
  return FinishImport(a, *report, *out_format);
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

// The settings recorded in the build's checkpoint (a resume must match them).
std::string BuildConfigOf(const BuildArgs& a, const LlmBackend& backend) {
  OrderedJson config = {{"model", backend.ModelId()},   {"verify", a.verify},
                        {"arch", a.flags.arch},         {"unknown", a.unknown},
                        {"threshold", a.threshold},     {"taxonomy", a.taxonomy},
                        {"temperature", a.temperature}, {"top_p", a.top_p},
                        {"max_tokens", a.max_tokens},   {"seed", a.seed},
                        {"prompts", a.prompts},         {"into", a.into}};
  return config.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);  // as JsonLine
}

// The build's request from the flags, the prompts and the model.
Result<GraphBuildRequest> BuildRequestOf(const BuildArgs& a, const PromptLibrary& prompts,
                                         LlmBackend* backend) {
  GraphBuildRequest r;
  r.kernels = a.kernels;
  r.state_path = a.out + ".state";
  r.into = a.into;
  r.llm = backend;
  r.system_template = prompts.templates().at("trajectory_system.txt");
  r.user_template = prompts.templates().at("trajectory_user.txt");
  RG_ASSIGN_OR_RETURN(r.relabel_system_prompt, prompts.Render("relabel_system.txt", {}));
  r.relabel.taxonomy = a.taxonomy;
  r.relabel.reject_unknown = a.unknown == "reject";
  r.relabel.threshold = a.threshold;
  r.check = StepCheckOf(a.verify);
  RG_ASSIGN_OR_RETURN(r.verify, a.flags.ToOptions());
  r.temperature = a.temperature;
  r.top_p = a.top_p;
  r.max_tokens = a.max_tokens;
  r.seed = a.seed;
  r.jobs = a.jobs;
  r.checkpoint_every = a.checkpoint_every;
  r.max_endpoint_errors_in_a_row = a.max_endpoint_errors;
  r.resume = a.resume;
  r.save_trajectories = a.save_trajectories;
  r.config = BuildConfigOf(a, *backend);
  r.show_progress = !a.no_progress;
  r.on_note = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  return r;
}

// After the build: the labels not given verbatim (for review), the
// verification log, the summary, and the graph written unless it stopped.
int FinishBuild(const BuildArgs& a, const GraphBuildResult& r,
                const std::filesystem::path& state_path) {
  for (const auto& line : r.label_notes) std::fprintf(stderr, "%s\n", line.c_str());
  for (const auto& line : r.verify_log) std::fprintf(stderr, "verify  %s\n", line.c_str());
  std::fwrite(r.summary.data(), 1, r.summary.size(), stdout);
  if (r.stopped) {
    std::fprintf(stderr,
                 "stopped: %s; nothing written to %s. The finished kernels are in %s: rerun "
                 "with --resume to continue.\n",
                 r.stop_reason.c_str(), a.out.c_str(), state_path.string().c_str());
    return kExitError;
  }
  std::string stats = GraphStatsText(r.graph);
  std::printf("\n%s", stats.c_str());
  Status s = SaveGraph(r.graph, a.out, GraphFormat::kNative);
  if (!s.ok()) return Fail(s);
  std::error_code ec;
  std::filesystem::remove(state_path, ec);  // the build is complete
  std::fprintf(stderr, "wrote %s: %s\n", a.out.c_str(), GraphSummary(r.graph).c_str());
  if (a.json) {
    EmitJson(OrderedJson{{"output", a.out},
                         {"kernels", r.kernels},
                         {"resumed", r.resumed},
                         {"graph", StatsJsonOf(r.graph)}});
  }
  return kExitOk;
}

int RunBuild(BuildArgs a) {
  // The old spelling: with --endpoint, --model named the served model. In
  // every command --model is a GGUF file and --model-name the served model.
  if (!a.backend.endpoints.empty() && a.backend.model_name.empty() && !a.backend.model.empty()) {
    std::fprintf(stderr,
                 "regrapht: warning: graph build --endpoint URL --model NAME is deprecated; use "
                 "--model-name NAME "
                 "(--model is a GGUF file in every command)\n");
    a.backend.model_name = a.backend.model;
    a.backend.model.clear();
  }
  PromptLibrary prompts;
  if (!a.prompts.empty()) {
    Status s = prompts.LoadOverrides(a.prompts);
    if (!s.ok()) return Fail(s);
  }
  auto backend = MakeBuildBackend(a);
  if (!backend.ok()) return Fail(backend.status());
  auto request = BuildRequestOf(a, prompts, backend->get());
  if (!request.ok()) return Fail(request.status());
  auto result = BuildGraphWithModel(*request);
  if (!result.ok()) return Fail(result.status());
  return FinishBuild(a, *result, request->state_path);
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
  std::string text = a.json ? GraphStatsJson(*g, a.top) : GraphStatsText(*g, a.top);
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
  const std::string ext = std::filesystem::path(a.out).extension().string();
  if (ext == ".svg" || ext == ".png") return ext.substr(1);
  return "dot";
}

int RunShow(const GraphArgs& args) {
  GraphArgs a = args;
  a.format = ShowFormat(args);
  auto full = ReadGraph(a.graph, a.from);
  if (!full.ok()) return Fail(full.status());
  auto g = a.prune.min_examples == 0 && a.prune.top == 0 ? Result<Graph>(*full)
                                                         : PruneGraph(*full, a.prune);
  if (!g.ok()) return Fail(g.status());
  // What the drawing leaves out is said in it, and here.
  const std::string legend = LegendOfPruning(*full, *g, a.prune);
  if (!legend.empty()) std::fprintf(stderr, "%s\n", legend.c_str());
  auto drawing = DrawGraph(*g, a.format, legend, a.graph);
  if (!drawing.ok()) return Fail(drawing.status());
  Status s = WriteOutput(a.out, *drawing);
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
  if (!a.json && !a.list) {
    auto md = TechniquesMarkdown(a.taxonomy);
    if (!md.ok()) return Fail(md.status());
    std::fwrite(md->data(), 1, md->size(), stdout);
    return kExitOk;
  }
  auto techniques = LoadTechniques(a.taxonomy);
  if (!techniques.ok()) return Fail(techniques.status());
  if (a.json) {
    OrderedJson out = OrderedJson::array();
    for (const auto& t : *techniques)
      out.push_back({{"id", t.id}, {"category", t.category}, {"name", t.name}});
    EmitJson(out);
    return kExitOk;
  }
  for (const auto& t : *techniques) {
    std::printf("%-30s %-22s %s\n", t.id.c_str(), t.category.c_str(), t.name.c_str());
  }
  return kExitOk;
}

int RunRelabel(const TaxonomyArgs& a) {
  auto labels = RelabelMethods(a.methods, a.taxonomy, a.threshold);
  if (!labels.ok()) return Fail(labels.status());
  OrderedJson out = OrderedJson::array();
  for (const MethodLabel& d : *labels) {
    if (!a.json) {
      std::printf("%s\t%s\n", d.method.c_str(), d.description.c_str());
      continue;
    }
    OrderedJson j;
    j["method"] = d.method;
    j["outcome"] = d.outcome;
    j["technique"] = d.technique;
    j["rule"] = d.rule;
    j["score"] = d.score;
    j["phrase"] = d.phrase;
    j["closest"] = d.closest;
    out.push_back(std::move(j));
  }
  if (a.json) EmitJson(out);
  return kExitOk;
}

// The relabel flags shared by `graph import` and `graph build`.
void AddRelabelFlags(CLI::App* sub, std::string* taxonomy, std::string* unknown,
                     double* threshold) {
  sub->add_option("--taxonomy", *taxonomy,
                  "Taxonomy JSON (default: the built-in data/taxonomy.json)");
  sub->add_option("--unknown", *unknown,
                  "Techniques outside the taxonomy: flag (new node, needs review) or reject")
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
  imp->add_option("dirs", a->dirs, "Trajectory folders, or folders of them")->required();
  imp->add_option("-o,--output", a->out, "Graph file to write (required)");
  AddOldSpelling(imp, "--out", "-o/--output", &a->out);
  imp->add_option("--into", a->into, "Start from this graph (native or official)");
  AddRelabelFlags(imp, &a->taxonomy, &a->unknown, &a->threshold);
  imp->add_flag("--skip-bad", a->skip_bad,
                "Write the graph even if some trajectories failed (they are reported)");
  imp->add_flag(
      "--fail-on-cut", a->fail_on_cut,
      "Exit with an error when a step fails verification and its trajectory is cut (a CI gate)");
  imp->add_option("--format", a->format, "Output format: native or official")
      ->check(CLI::IsMember({"native", "official"}))
      ->capture_default_str();
  imp->add_option(
         "--verify", a->verify,
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
      "build",
      "Build a graph with a large model: ask it for optimization trajectories, relabel, "
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
  AddNumber(bld, "--checkpoint-every", &a->checkpoint_every, {1, 1000000},
            "Write OUT.state every N kernels");
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
    c->add_option("graph", graph_args->graph,
                  "Graph file (default: the shipped data/graph/regrapht.json)");
    c->add_option("--from", graph_args->from, "Input format: auto, native or official")
        ->check(CLI::IsMember({"auto", "native", "official"}))
        ->capture_default_str();
  };
  CLI::App* stats = sub->add_subcommand("stats", "Print a graph's size, structure and coverage");
  add_graph(stats);
  AddJsonFlag(stats, &graph_args->json, "the stats");
  AddNumber(stats, "--top", &graph_args->top, {size_t{0}, size_t{1000000000}},
            "How many frequent transitions to list");
  stats->add_option("-o,--output", graph_args->out, "Write here instead of stdout");

  CLI::App* show = sub->add_subcommand("show",
                                       "Draw a graph as Graphviz DOT, SVG or PNG (by default its "
                                       "20 strongest transitions, with a legend of "
                                       "what was left out)");
  add_graph(show);
  show->add_option("--format", graph_args->format,
                   "dot, svg or png (svg and png run graphviz `dot`; default: from -o's extension, "
                   "else dot)")
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
      "Then keep only the K transitions with the most examples (0: all; the drawing's legend says "
      "what was left "
      "out)");

  CLI::App* exp =
      sub->add_subcommand("export", "Convert a graph between native and official formats");
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
      "retrieval-eval",
      "How often retrieval's first corpus kernel shares a suite problem's expert technique path "
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
