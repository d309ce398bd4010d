#include "construct/graph_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/parallel.h"
#include "core/scanner.h"
#include "core/strings.h"
#include "core/template.h"
#include "graph/graph_json.h"
#include "graph/label_text.h"
#include "graph/merge.h"
#include "graph/trajectory_import.h"
#include "llm/extract.h"
#include "regrapht/problem.h"

namespace regrapht::construct {
namespace {

constexpr std::string_view kStateFormat = "regrapht-graph-build-state";

// ---- The kernel list ----------------------------------------------------------

Result<KernelEntry> LoadKernel(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::NotFound(dir.string() + ": no such folder");
  for (const char* required : {"problem.json", "reference.cpp"}) {
    if (!fs::is_regular_file(dir / required, ec)) {
      return Status::NotFound(dir.string() + ": no " + required +
                              " (a kernel is a problem or trajectory folder)");
    }
  }
  RG_ASSIGN_OR_RETURN(Problem problem, LoadProblem(dir));
  KernelEntry k;
  k.dir = dir;
  k.kernel_id = dir.filename().string();
  k.function = problem.spec.function;
  k.signature = problem.spec.Signature();
  k.reference = problem.reference_source;
  k.description = problem.description;
  return k;
}

// ---- One kernel, steps 1-4 (on a worker thread) --------------------------------

// What a worker hands to the merge: the result so far and, unless rejected,
// the relabelled, verified, cut trajectory.
struct Prepared {
  KernelResult result;
  std::optional<Trajectory> trajectory;
  Status fatal;  // the tool failed (verifier could not run): stop the build
};

struct Messages {
  std::string system, user;
};

void Reject(KernelResult* r, RejectKind kind, std::string reason) {
  r->outcome = KernelOutcome::kRejected;
  r->reject = kind;
  r->reason = std::move(reason);
  r->kept = 0;
  r->cut_at = std::string::npos;
}

// Why step `i` cannot be kept whatever the verifier says, or "".
std::string StepProblem(const Trajectory& t, size_t i) {
  const TrajectoryStep& s = t.steps[i];
  if (Trim(s.method).empty()) return "no method name";
  if (Trim(s.code).empty()) return "no code";
  if (!IsValidUtf8(s.code)) return "code is not valid UTF-8";
  if (!scan::DefinesFunction(s.code, t.name)) return "the code does not define " + t.name + "()";
  const std::string& before = i == 0 ? t.sequential_source : t.steps[i - 1].code;
  if (Trim(s.code) == Trim(before)) return "the code is the same as before the step";
  return "";
}

std::string StepName(const Trajectory& t, size_t i) {
  const TrajectoryStep& s = t.steps[i];
  std::string label = s.technique_id.empty() ? std::string(Trim(s.method)) : s.technique_id;
  return "step " + std::to_string(i + 1) + " (" + label + ")";
}

// Drops steps from `i` on, recording why; step 0 rejects the kernel.
void CutAt(Prepared* p, size_t i, const std::string& why) {
  Trajectory& t = *p->trajectory;
  std::string what = StepName(t, i) + ": " + why;
  if (i == 0) {
    Reject(&p->result, RejectKind::kFirstStep, what);
    p->trajectory.reset();
    return;
  }
  t.steps.resize(i);
  if (!p->result.labels.empty()) p->result.labels.resize(i);
  p->result.outcome = KernelOutcome::kCut;
  p->result.cut_at = i;
  p->result.reason = what;
}

// The trajectory written by the steps of a reply.
Trajectory TrajectoryFromSteps(const KernelEntry& k, std::vector<llm::CodeStep>* steps) {
  Trajectory t;
  t.kernel_id = k.kernel_id;
  t.name = k.function;
  t.description = k.description;
  t.sequential_source = k.reference;
  t.dir = k.dir;  // the verifier finds problem.json here
  for (auto& s : *steps) {
    TrajectoryStep step;
    step.method = std::string(Trim(s.method));
    step.think = std::move(s.think);
    step.detail = std::move(s.detail);
    step.code = std::move(s.code);
    t.steps.push_back(std::move(step));
  }
  return t;
}

// Step 1: asks the model to reason about kernel k and sets p->trajectory
// from its step list; false (p->result rejected) when there is none.
bool Reason(const KernelEntry& k, const Messages& m, const GraphBuildOptions& o, Prepared* p) {
  KernelResult& r = p->result;
  ChatRequest request;
  request.messages = {{Role::kSystem, m.system}, {Role::kUser, m.user}};
  request.sampling = o.sampling;
  request.sampling.seed = Hash64(k.kernel_id, o.sampling.seed);
  auto response = o.llm->Chat(request);
  if (!response.ok()) {
    Reject(&r, RejectKind::kEndpoint, response.status().ToString());
    return false;
  }
  if (response->choices.empty()) {
    Reject(&r, RejectKind::kEndpoint, "the backend returned no answer");
    return false;
  }
  const Completion& reply = response->choices.front();
  llm::ExtractOptions eo;
  eo.function_name = k.function;
  llm::Extraction ex = llm::ExtractCode(reply.text, eo);
  std::string truncated =
      reply.finish_reason == FinishReason::kLength ? " (the reply hit max_tokens)" : "";
  if (!ex.found()) {
    Reject(&r, RejectKind::kNoCode, ex.reason + truncated);
    return false;
  }
  if (ex.format != llm::ExtractFormat::kJsonSteps) {
    Reject(&r, RejectKind::kNoCode,
           "no step list: the reply holds one " + std::string(llm::ExtractFormatName(ex.format)) +
               " code, not a JSON list of {think, method, detail, code}" + truncated);
    return false;
  }
  p->trajectory = TrajectoryFromSteps(k, &ex.steps);
  r.steps = p->trajectory->steps.size();
  return true;
}

// Step 3: labels p's steps with the graph's methods; false (p rejected,
// its trajectory dropped) when the relabeler fails or its labels do not fit.
bool Relabel(const GraphBuildOptions& o, const std::vector<std::string>& graph_methods,
             Prepared* p) {
  KernelResult& r = p->result;
  RelabelInput input;
  input.trajectory = &*p->trajectory;
  input.graph_methods = graph_methods;
  auto labels = o.relabeler->Relabel(input);
  if (!labels.ok()) {
    Reject(&r, RejectKind::kRelabel, labels.status().message());
    p->trajectory.reset();
    return false;
  }
  Status applied = ApplyLabels(*labels, &*p->trajectory);
  if (!applied.ok()) {
    Reject(&r, RejectKind::kRelabel, applied.message());
    p->trajectory.reset();
    return false;
  }
  r.labels = std::move(labels).value();
  return true;
}

// Step 4: verifies p's steps one by one, cutting at the first failure;
// sets p->fatal when the verifier itself fails.
void VerifySteps(const KernelEntry& k, const GraphBuildOptions& o, Prepared* p) {
  if (o.verifier == nullptr) return;
  for (size_t i = 0; i < p->trajectory->steps.size(); ++i) {
    auto v = o.verifier->Verify(*p->trajectory, i);
    if (!v.ok()) {
      p->fatal = v.status().WithContext(k.kernel_id + ": verifying step " + std::to_string(i + 1));
      return;
    }
    p->trajectory->steps[i].verification = std::move(v).value();
    std::string failure = VerificationFailure(p->trajectory->steps[i].verification);
    if (!failure.empty()) {
      CutAt(p, i, failure);
      return;
    }
  }
}

Prepared PrepareKernel(const KernelEntry& k, const Messages& m, const GraphBuildOptions& o,
                       const std::vector<std::string>& graph_methods) {
  Prepared p;
  KernelResult& r = p.result;
  r.kernel_id = k.kernel_id;
  r.dir = k.dir;

  // 1. Reason.
  if (!Reason(k, m, o, &p)) return p;

  // 2. Check what needs no compiler.
  for (size_t i = 0; i < p.trajectory->steps.size(); ++i) {
    std::string why = StepProblem(*p.trajectory, i);
    if (!why.empty()) {
      CutAt(&p, i, why);
      if (!p.trajectory) return p;
      break;
    }
  }

  // 3. Relabel.
  if (!Relabel(o, graph_methods, &p)) return p;

  // 4. Verify, step by step, up to the first failure.
  VerifySteps(k, o, &p);
  if (!p.fatal.ok()) return p;
  if (p.trajectory) {
    if (r.outcome != KernelOutcome::kCut) r.outcome = KernelOutcome::kAccepted;
    r.kept = p.trajectory->steps.size();
  }
  return p;
}

// ---- Saving a trajectory in the authored layout ---------------------------------

Status SaveTrajectory(const Trajectory& t, const fs::path& root) {
  fs::path dir = root / t.kernel_id;
  RG_RETURN_IF_ERROR(MakeDirs(dir));
  for (const char* name : {"problem.json", "reference.cpp"}) {
    RG_ASSIGN_OR_RETURN(std::string text, ReadFile(t.dir / name));
    RG_RETURN_IF_ERROR(WriteFileAtomic(dir / name, text));
  }
  std::string description = t.description;
  if (Trim(description).empty()) {
    description = "# " + t.kernel_id + "\n\nTrajectory written by `regrapht graph build`.\n";
  }
  RG_RETURN_IF_ERROR(WriteFileAtomic(dir / "description.md", description));
  OrderedJson j;
  j["format"] = std::string(kTrajectoryFormatName);
  j["version"] = 1;
  j["kernel"] = t.kernel_id;
  j["function"] = t.name;
  OrderedJson steps = OrderedJson::array();
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const TrajectoryStep& s = t.steps[i];
    std::string file = "step" + std::to_string(i + 1) + ".cu";
    RG_RETURN_IF_ERROR(WriteFileAtomic(dir / file, s.code));
    OrderedJson step;
    step["method"] = s.method;
    step["think"] = s.think;
    step["detail"] = s.detail;
    step["code"] = file;
    if (s.verification) step["verification"] = VerificationToJson(*s.verification);
    steps.push_back(std::move(step));
  }
  j["steps"] = std::move(steps);
  return WriteFileAtomic(dir / "trajectory.json", DumpJson(j));
}

// ---- The state file ---------------------------------------------------------------

OrderedJson ResultToJson(const KernelResult& r) {
  OrderedJson j;
  j["kernel"] = r.kernel_id;
  j["dir"] = r.dir.string();
  j["outcome"] = std::string(KernelOutcomeName(r.outcome));
  j["reject"] = r.reject == RejectKind::kNone ? "" : std::string(RejectKindName(r.reject));
  j["reason"] = r.reason;
  j["steps"] = r.steps;
  j["kept"] = r.kept;
  j["cut_at"] = r.cut_at == std::string::npos ? OrderedJson() : OrderedJson(r.cut_at);
  j["examples_added"] = r.examples_added;
  j["nodes_added"] = r.nodes_added;
  return j;
}

Result<KernelResult> ResultFromJson(const JsonPath& p) {
  RG_RETURN_IF_ERROR(p.CheckKeys({"kernel", "dir", "outcome", "reject", "reason", "steps", "kept",
                                  "cut_at", "examples_added", "nodes_added"}));
  KernelResult r;
  RG_ASSIGN_OR_RETURN(r.kernel_id, p.GetString("kernel"));
  RG_ASSIGN_OR_RETURN(std::string dir, p.GetString("dir"));
  r.dir = dir;
  RG_ASSIGN_OR_RETURN(std::string outcome, p.GetString("outcome"));
  bool known = false;
  for (auto o : {KernelOutcome::kAccepted, KernelOutcome::kCut, KernelOutcome::kRejected}) {
    if (outcome == KernelOutcomeName(o)) {
      r.outcome = o;
      known = true;
    }
  }
  if (!known) return p.FieldError("outcome", "unknown outcome \"" + outcome + "\"");
  RG_ASSIGN_OR_RETURN(std::string reject, p.GetString("reject"));
  known = reject.empty();
  for (auto k : {RejectKind::kEndpoint, RejectKind::kNoCode, RejectKind::kRelabel,
                 RejectKind::kFirstStep, RejectKind::kMerge}) {
    if (reject == RejectKindName(k)) {
      r.reject = k;
      known = true;
    }
  }
  if (!known) return p.FieldError("reject", "unknown rejection \"" + reject + "\"");
  RG_ASSIGN_OR_RETURN(r.reason, p.GetString("reason"));
  RG_ASSIGN_OR_RETURN(int64_t steps, p.GetInt("steps"));
  RG_ASSIGN_OR_RETURN(int64_t kept, p.GetInt("kept"));
  RG_ASSIGN_OR_RETURN(int64_t added, p.GetInt("examples_added"));
  RG_ASSIGN_OR_RETURN(int64_t nodes, p.GetInt("nodes_added"));
  r.steps = static_cast<size_t>(steps);
  r.kept = static_cast<size_t>(kept);
  r.examples_added = static_cast<size_t>(added);
  r.nodes_added = static_cast<size_t>(nodes);
  if (p.Has("cut_at") && !p.json()["cut_at"].is_null()) {
    RG_ASSIGN_OR_RETURN(int64_t cut, p.GetInt("cut_at"));
    r.cut_at = static_cast<size_t>(cut);
  }
  r.from_checkpoint = true;
  return r;
}

Status WriteState(const fs::path& path, const std::string& config,
                  const std::vector<std::string>& graph_methods,
                  const std::vector<KernelResult>& done, const Graph& graph) {
  OrderedJson j;
  j["format"] = std::string(kStateFormat);
  j["version"] = 1;
  j["config"] = config;
  j["relabel_methods"] = graph_methods;
  OrderedJson kernels = OrderedJson::array();
  for (const auto& r : done) kernels.push_back(ResultToJson(r));
  j["kernels"] = std::move(kernels);
  j["graph"] = NativeGraphToJson(graph);
  return WriteFileAtomic(path, DumpJson(j));
}

struct State {
  std::string config;
  std::vector<std::string> graph_methods;
  std::vector<KernelResult> done;
  Graph graph;
};

Result<State> ReadState(const fs::path& path) {
  RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  JsonPath root(j, path.string());
  RG_RETURN_IF_ERROR(root.ExpectObject());
  RG_RETURN_IF_ERROR(
      root.CheckKeys({"format", "version", "config", "relabel_methods", "kernels", "graph"}));
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != kStateFormat) {
    return root.FieldError("format", "expected \"" + std::string(kStateFormat) + "\"");
  }
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != 1) return root.FieldError("version", "unsupported version");
  State s;
  RG_ASSIGN_OR_RETURN(s.config, root.GetString("config"));
  RG_ASSIGN_OR_RETURN(s.graph_methods, root.GetStringList("relabel_methods"));
  if (!root.Has("kernels")) return root.FieldError("kernels", "required field is missing");
  JsonPath kernels = root["kernels"];
  RG_RETURN_IF_ERROR(kernels.ExpectArray());
  for (size_t i = 0; i < kernels.json().size(); ++i) {
    RG_ASSIGN_OR_RETURN(KernelResult r, ResultFromJson(kernels[i]));
    s.done.push_back(std::move(r));
  }
  if (!root.Has("graph")) return root.FieldError("graph", "required field is missing");
  RG_ASSIGN_OR_RETURN(s.graph, NativeGraphFromJson(j["graph"], path.string() + ": graph"));
  return s;
}

}  // namespace

// ---- Names ------------------------------------------------------------------------

std::string_view KernelOutcomeName(KernelOutcome outcome) {
  switch (outcome) {
    case KernelOutcome::kAccepted:
      return "accepted";
    case KernelOutcome::kCut:
      return "cut";
    case KernelOutcome::kRejected:
      return "rejected";
  }
  return "?";
}

std::string_view RejectKindName(RejectKind kind) {
  switch (kind) {
    case RejectKind::kNone:
      return "none";
    case RejectKind::kEndpoint:
      return "endpoint error";
    case RejectKind::kNoCode:
      return "no code found";
    case RejectKind::kRelabel:
      return "relabel failed";
    case RejectKind::kFirstStep:
      return "first step failed";
    case RejectKind::kMerge:
      return "merge failed";
  }
  return "?";
}

size_t GraphBuildReport::Count(KernelOutcome outcome) const {
  return static_cast<size_t>(std::count_if(kernels.begin(), kernels.end(),
                                            [&](const KernelResult& r) { return r.outcome == outcome; }));
}

// ---- ReadKernelList -------------------------------------------------------------------

Result<std::vector<KernelEntry>> ReadKernelList(const fs::path& file) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(file));
  fs::path base = file.parent_path();
  std::vector<KernelEntry> out;
  std::map<std::string, int> seen;  // kernel id -> line
  std::vector<std::string> lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    int line = static_cast<int>(i + 1);
    std::string where = file.string() + ":" + std::to_string(line);
    std::string_view entry = lines[i];
    if (size_t hash = entry.find('#'); hash != std::string_view::npos) entry = entry.substr(0, hash);
    entry = Trim(entry);
    if (entry.empty()) continue;
    fs::path dir = ExpandUser(entry);
    if (dir.is_relative()) dir = base / dir;
    dir = dir.lexically_normal();
    if (dir.filename().empty()) dir = dir.parent_path();  // "problems/saxpy/"
    auto kernel = LoadKernel(dir);
    if (!kernel.ok()) return kernel.status().WithContext(where);
    kernel->line = line;
    if (auto it = seen.find(kernel->kernel_id); it != seen.end()) {
      return Status::InvalidArgument(where + ": kernel \"" + kernel->kernel_id +
                                     "\" is already listed on line " + std::to_string(it->second));
    }
    seen[kernel->kernel_id] = line;
    out.push_back(std::move(kernel).value());
  }
  if (out.empty()) return Status::InvalidArgument(file.string() + ": lists no kernel");
  return out;
}

// ---- BuildGraph ------------------------------------------------------------------------

namespace {

// Resumes the build recorded at o.state_path when there is one: its graph,
// relabel methods and finished kernels, after checking they are of this
// build (settings and kernel list); refuses to overwrite one without
// o.resume.
Status ResumeBuild(const std::vector<KernelEntry>& kernels, const GraphBuildOptions& o,
                   Graph* graph, std::vector<std::string>* graph_methods,
                   GraphBuildReport* report) {
  std::error_code ec;
  bool have_state = !o.state_path.empty() && fs::exists(o.state_path, ec);
  if (have_state && !o.resume) {
    return Status::FailedPrecondition(o.state_path.string() +
                                      " holds an unfinished build: pass --resume to continue it, "
                                      "or delete it to start over");
  }
  if (!have_state) return Status::Ok();
  RG_ASSIGN_OR_RETURN(State state, ReadState(o.state_path));
  if (state.config != o.config) {
    return Status::FailedPrecondition(o.state_path.string() + ": made with other settings (" +
                                      state.config + "; now " + o.config + ")");
  }
  if (state.done.size() > kernels.size()) {
    return Status::FailedPrecondition(
        o.state_path.string() + ": records " + std::to_string(state.done.size()) +
        " kernels but the list has " + std::to_string(kernels.size()));
  }
  for (size_t i = 0; i < state.done.size(); ++i) {
    if (state.done[i].kernel_id != kernels[i].kernel_id) {
      return Status::FailedPrecondition(o.state_path.string() + ": kernel " +
                                        std::to_string(i + 1) + " was \"" +
                                        state.done[i].kernel_id + "\", the list now has \"" +
                                        kernels[i].kernel_id + "\" (a different kernel list)");
    }
  }
  *graph = std::move(state.graph);
  *graph_methods = std::move(state.graph_methods);
  report->kernels = std::move(state.done);
  report->resumed = report->kernels.size();
  return Status::Ok();
}

// The prompts of kernels[first...] (entries before `first` stay empty).
Result<std::vector<Messages>> RenderPrompts(const std::vector<KernelEntry>& kernels, size_t first,
                                            const GraphBuildOptions& o) {
  std::vector<Messages> messages(kernels.size());
  for (size_t i = first; i < kernels.size(); ++i) {
    const KernelEntry& k = kernels[i];
    std::map<std::string, std::string> vars = {{"function", k.function},
                                               {"signature", k.signature},
                                               {"description", std::string(Trim(k.description))},
                                               {"code", std::string(Trim(k.reference))}};
    RG_ASSIGN_OR_RETURN(messages[i].system,
                        RenderTemplate(o.system_template, vars, "trajectory_system.txt"));
    RG_ASSIGN_OR_RETURN(messages[i].user, RenderTemplate(o.user_template, vars, "trajectory_user.txt"));
  }
  return messages;
}

// Step 5: merges p's trajectory (if any) into the graph, rejecting p when it
// does not merge, and saves it when asked; non-OK only when saving fails.
Status MergePrepared(const GraphBuildOptions& o, Prepared* p, Graph* graph) {
  KernelResult& r = p->result;
  if (!p->trajectory) return Status::Ok();
  auto merged = MergeTrajectory(*p->trajectory, *o.taxonomy, graph);
  if (!merged.ok()) {
    Reject(&r, RejectKind::kMerge, merged.status().message());
    return Status::Ok();
  }
  r.examples_added = merged->examples_added;
  r.nodes_added = merged->nodes_added;
  if (!o.save_trajectories.empty()) {
    Status saved = SaveTrajectory(*p->trajectory, o.save_trajectories);
    if (!saved.ok()) return saved.WithContext("saving the trajectory of " + r.kernel_id);
  }
  return Status::Ok();
}

// The names of the graph's nodes outside the taxonomy (the init node aside).
std::vector<std::string> GraphMethods(const Graph& graph) {
  std::vector<std::string> out;
  for (const Node& n : graph.nodes()) {
    if (n.id != kInitNode && n.technique.empty()) out.push_back(n.name);
  }
  return out;
}

// Why the build stopped after `run` endpoint errors in a row, the last
// `last` (its first line, cut to 200 characters).
std::string EndpointStopReason(size_t run, const std::string& last) {
  return std::to_string(run) + " endpoint errors in a row (last: " +
         TruncateMiddle(last.substr(0, last.find('\n')), 200) + ")";
}

// Writes the build's state (when o.state_path is set), leaving out the last
// `endpoint_run` kernels of the report.
Status Checkpoint(const GraphBuildOptions& o, const std::vector<std::string>& graph_methods,
                  const GraphBuildReport& report, size_t endpoint_run, const Graph& graph) {
  if (o.state_path.empty()) return Status::Ok();
  std::vector<KernelResult> done(report.kernels.begin(),
                                 report.kernels.end() - static_cast<std::ptrdiff_t>(endpoint_run));
  return WriteState(o.state_path, o.config, graph_methods, done, graph);
}

}  // namespace

Result<GraphBuildReport> BuildGraph(const std::vector<KernelEntry>& kernels,
                                    const GraphBuildOptions& o, Graph* graph) {
  GraphBuildReport report;

  // The relabel methods list is fixed for the whole build (the starting
  // graph's nodes outside the taxonomy), so the requests, and with them the
  // labels, do not depend on which kernels finished first.
  std::vector<std::string> graph_methods = GraphMethods(*graph);

  // Resume, or refuse to overwrite a build in progress.
  RG_RETURN_IF_ERROR(ResumeBuild(kernels, o, graph, &graph_methods, &report));

  // Render every prompt first: a template that asks for a value we do not
  // have fails here, before any request.
  RG_ASSIGN_OR_RETURN(std::vector<Messages> messages, RenderPrompts(kernels, report.resumed, o));

  // Workers prepare kernels (steps 1-4) in list order; this thread merges.
  const size_t first = report.resumed;
  OrderedParallelMap<Prepared> pool(
      kernels.size() - first, o.jobs,
      [&](size_t k) { return PrepareKernel(kernels[first + k], messages[first + k], o, graph_methods); },
      [&] { return o.cancel && o.cancel->load(); });
  auto finish = [&] { pool.Join(); };
  // Kernels at the end of report.kernels rejected for endpoint errors; they
  // stay out of checkpoints so a resumed build asks for them again.
  size_t endpoint_run = 0;
  auto checkpoint = [&] { return Checkpoint(o, graph_methods, report, endpoint_run, *graph); };

  // Next() is empty once every kernel is merged, or when a cancel came before
  // the next kernel started.
  while (std::optional<Prepared> next = pool.Next()) {
    Prepared p = std::move(*next);
    if (o.cancel && o.cancel->load()) {
      report.stopped = true;
      report.stop_reason = "cancelled";
      break;
    }
    if (!p.fatal.ok()) {
      finish();
      return p.fatal;
    }
    // 5. Merge.
    if (Status merged = MergePrepared(o, &p, graph); !merged.ok()) {
      finish();
      return merged;
    }
    KernelResult& r = p.result;
    endpoint_run = r.reject == RejectKind::kEndpoint ? endpoint_run + 1 : 0;
    report.kernels.push_back(std::move(r));
    if (o.on_kernel) o.on_kernel(report.kernels.back(), report.kernels.size());
    if (o.max_endpoint_errors_in_a_row > 0 &&
        endpoint_run >= static_cast<size_t>(o.max_endpoint_errors_in_a_row)) {
      report.stopped = true;
      report.stop_reason = EndpointStopReason(endpoint_run, report.kernels.back().reason);
      finish();
      RG_RETURN_IF_ERROR(checkpoint());
      return report;
    }
    if (o.checkpoint_every > 0 &&
        report.kernels.size() % static_cast<size_t>(o.checkpoint_every) == 0) {
      Status s = checkpoint();
      if (!s.ok()) {
        finish();
        return s.WithContext("writing the checkpoint");
      }
    }
  }
  finish();
  if (report.kernels.size() < kernels.size() && !report.stopped) {
    report.stopped = true;
    report.stop_reason = "cancelled";
  }
  if (!report.stopped) RG_RETURN_IF_ERROR(checkpoint());
  return report;
}

// ---- The summary ---------------------------------------------------------------------

std::string FormatBuildSummary(const GraphBuildReport& report, const Graph& graph) {
  size_t width = 6;
  for (const auto& r : report.kernels) width = std::max(width, r.kernel_id.size());
  // Rows without a reason end at the last column, not in trailing blanks.
  auto row = [&](std::string_view kernel, std::string_view outcome, std::string steps,
                 std::string kept, std::string examples, std::string_view why) {
    std::string line = fmt::format("{:<{}}  {:<8}  {:>5}  {:>4}  {:>8}  {}", kernel, width, outcome,
                                   steps, kept, examples, why);
    return std::string(Trim(line)) + "\n";
  };
  std::string out = row("kernel", "outcome", "steps", "kept", "examples", "why");
  std::map<std::string, size_t> rejected_by;
  size_t examples = 0, resumed = 0;
  for (const auto& r : report.kernels) {
    std::string why = r.reason;
    if (r.outcome == KernelOutcome::kRejected) {
      std::string kind(RejectKindName(r.reject));
      if (!StartsWith(r.reason, kind)) why = kind + ": " + r.reason;
      ++rejected_by[kind];
    }
    if (r.from_checkpoint) ++resumed;
    // One line per kernel: long model or compiler messages are cut.
    std::string first_line = FirstLine(why, 160);
    out += row(r.kernel_id, KernelOutcomeName(r.outcome), std::to_string(r.steps),
               std::to_string(r.kept), std::to_string(r.examples_added), first_line);
    examples += r.examples_added;
  }
  std::vector<std::string> kinds;
  for (const auto& [kind, n] : rejected_by) kinds.push_back(fmt::format("{} {}", n, kind));
  out += fmt::format("\n{} kernels: {} accepted, {} cut, {} rejected{}\n", report.kernels.size(),
                     report.Count(KernelOutcome::kAccepted), report.Count(KernelOutcome::kCut),
                     report.Count(KernelOutcome::kRejected),
                     kinds.empty() ? "" : " (" + Join(kinds, ", ") + ")");
  if (resumed > 0) out += fmt::format("finished before the resume: {} of these kernels\n", resumed);
  if (report.stopped) out += "stopped early: " + report.stop_reason + "\n";
  out += fmt::format("graph: {} nodes, {} edges, {} examples ({} added by these kernels)\n",
                     graph.num_nodes(), graph.num_edges(), graph.num_examples(), examples);
  return out;
}

}  // namespace regrapht::construct
