#include "search/search_run.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <utility>

#include "core/hash.h"
#include "core/parallel.h"
#include "core/strings.h"
#include "graph/retrieval.h"
#include "llm/extract.h"
#include "llm/shape.h"
#include "verify/build/kernel_form.h"

namespace regrapht {

std::string_view AttemptVerdictName(const Attempt& a) {
  return a.interrupted ? std::string_view("interrupted") : VerdictName(a.verdict);
}

double SearchReward(const VerifyResult& r) {
  if (Unverified(r.verdict)) return 0.0;
  return Reward(r);
}

namespace {

class VerifierEvaluator final : public CandidateEvaluator {
 public:
  explicit VerifierEvaluator(Verifier* v) : v_(v) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override {
    return v_->Verify(problem, code);
  }

 private:
  Verifier* v_;
};

// Characters a prompt may take: a conservative 3 characters per token for
// code, minus room for the reply.
size_t CharBudget(const SearchOptions& o) {
  long reply = std::min<long>(o.sampling.max_tokens, o.context_tokens / 2);
  return static_cast<size_t>(std::max(0L, static_cast<long>(o.context_tokens) - reply) * 3);
}

size_t Size(const std::vector<ChatMessage>& m) {
  size_t n = 0;
  for (const auto& x : m) n += x.content.size();
  return n;
}

}  // namespace

std::unique_ptr<CandidateEvaluator> NewVerifierEvaluator(Verifier* verifier) {
  return std::make_unique<VerifierEvaluator>(verifier);
}

namespace search {

SearchRun::SearchRun(const SearchTask& task, const SearchContext& context, const SearchOptions& options,
                     std::string method)
    : task_(task),
      context_(context),
      options_(options),
      method_(std::move(method)),
      clock_(context.clock ? context.clock : SystemClock::Get()),
      start_s_(clock_->NowSeconds()),
      budget_(options.budget, clock_, start_s_) {
  if (options_.pipeline > 1) {
    lookahead_ = std::make_unique<Lookahead>(method_, options_, task_, context_.prompts);
    pipeline_ = std::make_unique<Pipeline>(context_.llm, options_.max_in_flight);
  }
}

SearchRun::~SearchRun() {
  if (pipeline_) pipeline_->Stop();
}

std::atomic<int>& SearchRun::InARow() const {
  return context_.endpoint_failures_in_a_row ? *context_.endpoint_failures_in_a_row : own_in_a_row_;
}

bool SearchRun::EndpointLimitReached() const {
  return options_.max_endpoint_failures >= 0 && InARow().load() > options_.max_endpoint_failures;
}

bool SearchRun::Exhausted(std::string* why) const {
  auto say = [&](std::string s) {
    if (why) *why = std::move(s);
    return true;
  };
  if (Interrupted()) return say("interrupted");
  if (!harness_error_.ok()) return say("the harness failed: " + harness_error_.ToString());
  if (EndpointLimitReached()) {
    return say("endpoint: more than " + std::to_string(options_.max_endpoint_failures) +
               " failed model requests in a row" +
               (endpoint_errors_.empty() ? std::string() : "; last: " + endpoint_errors_.back()));
  }
  if (auto spent = budget_.Check({generations_, verifications_})) return say(std::move(*spent));
  return false;
}

uint64_t SearchRun::NextSeed() {
  uint64_t s = options_.seed * 0x9e3779b97f4a7c15ULL + (++seed_counter_);
  return Hash64(std::to_string(s), options_.seed);
}

std::string SearchRun::TechniqueName(NodeId node) const {
  return task_.graph ? task_.graph->node(node).name : "";
}

std::string SearchRun::TechniqueId(NodeId node) const {
  if (!task_.graph) return "";
  const Node& n = task_.graph->node(node);
  return n.technique.empty() ? n.name : n.technique;
}

Result<std::string> SearchRun::SystemPrompt() const {
  const ProblemSpec& spec = task_.problem->spec;
  std::string libs = spec.libraries.empty()
                         ? "Do not call libraries such as cuBLAS, Thrust or CUB."
                         : "You may use: " + Join(spec.libraries, ", ") + ".";
  if (task_.kernel_form && spec.kernel) {
    return context_.prompts->Render("system_kernel.txt", {{"signature", verify::KernelSignature(spec)},
                                                          {"launch", verify::LaunchContract(spec)},
                                                          {"arch", options_.arch},
                                                          {"libraries_rule", libs}});
  }
  return context_.prompts->Render("system.txt", {{"signature", spec.Signature()},
                                                 {"arch", options_.arch},
                                                 {"libraries_rule", libs}});
}

Result<std::vector<ChatMessage>> SearchRun::Messages(const std::string& template_name,
                                                     std::map<std::string, std::string> vars) const {
  RG_ASSIGN_OR_RETURN(std::string system, SystemPrompt());
  RG_ASSIGN_OR_RETURN(std::string user, context_.prompts->Render(template_name, vars));
  std::vector<ChatMessage> m = {{Role::kSystem, system}, {Role::kUser, user}};
  if (Size(m) > CharBudget(options_)) {
    return Status::InvalidArgument("the prompt (" + std::to_string(Size(m)) + " characters) does not fit a " +
                                   std::to_string(options_.context_tokens) +
                                   "-token context: raise --context or shorten the function");
  }
  return m;
}

Result<std::vector<ChatMessage>> SearchRun::StepMessages(const std::string& code, NodeId technique,
                                                         std::vector<ShownExample> examples,
                                                         const std::string& failure) const {
  const Node& node = task_.graph->node(technique);
  RG_ASSIGN_OR_RETURN(std::string system, SystemPrompt());
  std::string failure_text;
  if (!failure.empty()) {
    RG_ASSIGN_OR_RETURN(failure_text, context_.prompts->Render("failure.txt", {{"failure", failure}}));
  }
  // Truncation rule: drop examples from the last; then cut the remaining
  // example's before/after in the middle; the current code is never cut.
  size_t budget = CharBudget(options_);
  size_t cut_to = 0;  // 0: no cut
  while (true) {
    std::string shown;
    for (const auto& ex : examples) {
      auto clip = [&](const std::string& s) { return cut_to ? TruncateMiddle(s, cut_to) : s; };
      RG_ASSIGN_OR_RETURN(std::string block,
                          context_.prompts->Render("example.txt", {{"from", ex.from},
                                                                   {"to", ex.to},
                                                                   {"think", ex.think},
                                                                   {"detail", ex.detail},
                                                                   {"before", clip(ex.before)},
                                                                   {"after", clip(ex.after)}}));
      shown += block;
    }
    RG_ASSIGN_OR_RETURN(std::string user,
                        context_.prompts->Render(
                            "step.txt", {{"technique", node.name},
                                         {"technique_description", node.description},
                                         {"code", code},
                                         {"examples", shown},
                                         {"failure", failure_text},
                                         {"follow_example", examples.empty() ? "" : ", following the example"}}));
    std::vector<ChatMessage> m = {{Role::kSystem, system}, {Role::kUser, user}};
    size_t size = Size(m);
    if (size <= budget) return m;
    if (examples.size() > 1) {
      examples.pop_back();
    } else if (!examples.empty() && (cut_to == 0 || cut_to > 400)) {
      size_t over = size - budget;
      size_t longest = std::max(examples[0].before.size(), examples[0].after.size());
      size_t current = cut_to ? cut_to : longest;
      cut_to = current > over / 2 + 200 ? current - over / 2 - 100 : 400;
    } else if (!examples.empty()) {
      examples.clear();
    } else {
      return Status::InvalidArgument("the step prompt (" + std::to_string(size) +
                                     " characters without examples) does not fit a " +
                                     std::to_string(options_.context_tokens) + "-token context");
    }
  }
}

std::vector<ShownExample> SearchRun::EdgeExamples(const std::string& code, EdgeId edge, int k) const {
  std::vector<ShownExample> out;
  if (!task_.examples || k <= 0) return out;
  const Edge& e = task_.graph->edge(edge);
  for (const auto& s : task_.examples->TopKOnEdge(code, edge, static_cast<size_t>(k), options_.seed)) {
    const Example& ex = e.examples[s.ref.index];
    out.push_back({task_.graph->node(e.from).name, task_.graph->node(e.to).name, ex.think, ex.detail,
                   ex.before, ex.after});
  }
  return out;
}

std::vector<ShownExample> SearchRun::PoolExamples(const std::string& code, int k) const {
  std::vector<ShownExample> out;
  if (!task_.examples || k <= 0) return out;
  for (const auto& s : task_.examples->TopKGlobal(code, static_cast<size_t>(k), options_.seed)) {
    const Edge& e = task_.graph->edge(s.ref.edge);
    const Example& ex = e.examples[s.ref.index];
    out.push_back({task_.graph->node(e.from).name, task_.graph->node(e.to).name, ex.think, ex.detail,
                   ex.before, ex.after});
  }
  return out;
}

std::vector<ShownExample> SearchRun::SimilarKernels(const std::string& code, int k) const {
  std::vector<ShownExample> out;
  if (!task_.examples || k <= 0) return out;
  const Graph& g = *task_.graph;
  // Candidates: examples leaving the init node, whose `before` is a kernel's
  // sequential source; rank those by similarity to `code`.
  auto ranked = task_.examples->TopKGlobal(code, g.num_examples(), options_.seed);
  for (const auto& s : ranked) {
    const Edge& e = g.edge(s.ref.edge);
    if (e.from != kInitNode) continue;
    const Example& first = e.examples[s.ref.index];
    // Follow the kernel's chain of steps (after -> before) to its final code.
    std::string current = first.after;
    std::vector<std::string> techniques = {g.node(e.to).name};
    for (int hops = 0; hops < 16; ++hops) {
      bool moved = false;
      for (const auto& edge : g.edges()) {
        for (const auto& ex : edge.examples) {
          if (ex.kernel == first.kernel && ex.before == current && ex.after != current) {
            current = ex.after;
            techniques.push_back(g.node(edge.to).name);
            moved = true;
            break;
          }
        }
        if (moved) break;
      }
      if (!moved) break;
    }
    out.push_back({"", Join(techniques, " -> "), "", "", first.before, current});
    if (static_cast<int>(out.size()) >= k) break;
  }
  return out;
}

void SearchRun::Emit(int iteration, const std::string& action) {
  last_iteration_ = iteration;
  if (!context_.on_event) return;
  SearchEvent ev;
  ev.generation = generations_;
  ev.iteration = iteration;
  ev.action = action;
  if (!attempts_.empty()) {
    const Attempt& last = attempts_.back();
    ev.verdict = std::string(AttemptVerdictName(last));
    ev.detail = last.detail;
    ev.tokens_generated = last.tokens_generated;
    ev.by_rules = last.by_rules;
    ev.reply_cached = last.reply_cached;
  }
  for (const auto& a : attempts_) {
    if (a.verdict == Verdict::kCorrect && a.speedup > ev.best_speedup) ev.best_speedup = a.speedup;
  }
  ev.best_verdict = ev.best_speedup > 0 ? "correct" : "";
  context_.on_event(ev);
}

void SearchRun::NoteReply(const ChatRequest& request, const Result<ChatResponse>& reply) {
  if (!lookahead_) return;
  std::lock_guard<std::mutex> lock(lookahead_mu_);
  lookahead_->RecordReply(request, reply);
}

void SearchRun::SendAhead() {
  std::vector<ChatRequest> next;
  {
    std::lock_guard<std::mutex> lock(lookahead_mu_);
    next = lookahead_->Predict(options_.pipeline - 1);
  }
  pipeline_->Speculate(std::move(next));
}

Result<ChatResponse> SearchRun::Ask(ChatRequest req) {
  if (pipeline_) {
    auto ahead = pipeline_->Claim({RequestKey(req)}, context_.cancel);
    if (ahead[0]) {
      NoteReply(req, *ahead[0]);
      return std::move(*ahead[0]);
    }
  }
  Result<ChatResponse> r = AskModel(req);
  NoteReply(req, r);
  return r;
}

Result<ChatResponse> SearchRun::AskModel(ChatRequest req) const {
  req.cancel = context_.cancel;
  if (!req.on_progress) req.on_progress = context_.on_generation;
  Result<ChatResponse> r = context_.llm->Chat(req);
  if (!r.ok() && Interrupted()) {
    // A backend that reports the cancellation as an error: the same as a
    // reply cut short.
    ChatResponse cut;
    cut.choices.push_back({"", FinishReason::kCancelled, 0, 0, {}});
    return cut;
  }
  return r;
}

void SearchRun::NoteEndpointResult(const Status& status) {
  if (status.ok()) {
    InARow().store(0);
    return;
  }
  ++endpoint_failures_;
  endpoint_errors_.push_back(status.ToString());
  InARow().fetch_add(1);
}

Result<std::string> SearchRun::ChatText(const std::vector<ChatMessage>& messages) {
  ChatRequest req;
  req.messages = messages;
  req.sampling = options_.sampling;
  req.sampling.seed = NextSeed();
  Result<ChatResponse> resp = Ask(std::move(req));
  ++generations_;
  NoteEndpointResult(resp.status());
  if (!resp.ok()) return std::string();  // counted; the caller goes on without the text
  tokens_prompt_ += resp->tokens_prompt;
  tokens_generated_ += resp->tokens_generated;
  return resp->choices.empty() ? std::string() : resp->choices[0].text;
}

OutputShape SearchRun::CodeShape() const {
  if (!options_.shape.any()) return {};
  const ProblemSpec& spec = task_.problem->spec;
  llm::CodeShape shape;
  const bool kernel = task_.kernel_form && spec.kernel;
  shape.signature = kernel ? verify::KernelSignature(spec) : spec.Signature();
  // A drop-in reply starts with its kernel; in the kernel form the kernel is the head.
  if (!kernel) shape.opener = "\n__global__ void " + spec.function + "_kernel(";
  shape.max_tokens = options_.sampling.max_tokens;
  shape.require_launch = !kernel;
  return llm::MakeOutputShape(shape, options_.shape);
}

Result<int> SearchRun::Generate(const std::vector<ChatMessage>& messages, int parent, const std::string& action,
                                int graph_node) {
  ChatRequest req;
  req.messages = messages;
  req.sampling = options_.sampling;
  req.sampling.seed = NextSeed();
  req.shape = CodeShape();
  return Consume(Ask(std::move(req)), parent, action, graph_node);
}

Result<int> SearchRun::RecordEndpointFailure(const Status& status, int parent, const std::string& action,
                                             int graph_node) {
  ++generations_;
  Attempt a;
  a.parent = parent;
  a.action = action;
  a.graph_node = graph_node;
  a.endpoint_error = true;
  a.verdict = Verdict::kCompileError;
  a.detail = "the model request failed: " + status.ToString();
  a.reward = -1;
  a.result.verdict = Verdict::kCompileError;
  a.result.detail = a.detail;
  return Record(std::move(a));
}

int SearchRun::GenerationsLeft() const {
  const int max = options_.budget.max_generations;
  return max > 0 ? std::max(0, max - generations_) : -1;
}

std::vector<Result<ChatResponse>> SearchRun::AskMany(const std::vector<ChatMessage>& messages, int count) {
  std::vector<ChatRequest> all(std::max(0, count));
  const OutputShape shape = CodeShape();
  for (auto& req : all) {
    req.messages = messages;
    req.sampling = options_.sampling;
    req.sampling.seed = NextSeed();
    req.shape = shape;
  }
  // Replies the pipeline generated ahead; the others are asked for here.
  std::vector<std::optional<Result<ChatResponse>>> replies(all.size());
  if (pipeline_ && !all.empty()) {
    std::vector<std::string> keys;
    for (const auto& req : all) keys.push_back(RequestKey(req));
    replies = pipeline_->Claim(keys, context_.cancel);
  }
  std::vector<size_t> todo;
  std::vector<ChatRequest> requests;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!replies[i]) {
      todo.push_back(i);
      requests.push_back(all[i]);
    }
  }
  if (options_.max_in_flight <= 1 && requests.size() > 1) {
    // One call: the embedded backend decodes the samples together (same
    // prompt, separate sequences); others answer them one after another.
    // A batch fails as a whole: each of its requests is then a failed
    // generation with the batch's error (a cancellation, a reply cut short).
    for (auto& req : requests) {
      req.cancel = context_.cancel;
      req.on_progress = context_.on_generation;
    }
    auto batch = context_.llm->ChatBatch(requests);
    for (size_t i = 0; i < requests.size(); ++i) {
      if (batch.ok()) {
        replies[todo[i]] = std::move((*batch)[i]);
      } else if (Interrupted()) {
        ChatResponse cut;
        cut.choices.push_back({"", FinishReason::kCancelled, 0, 0, {}});
        replies[todo[i]] = std::move(cut);
      } else {
        replies[todo[i]] = batch.status();
      }
    }
  } else {
    auto asked = ParallelMap(requests.size(), options_.max_in_flight,
                             [&](size_t i) { return AskModel(requests[i]); });
    for (size_t i = 0; i < asked.size(); ++i) replies[todo[i]] = std::move(asked[i]);
  }
  // Failures are counted as Consume() meets them, in seed order, so that the
  // count in a row is that of one request at a time.
  std::vector<Result<ChatResponse>> out;
  for (size_t i = 0; i < all.size(); ++i) {
    NoteReply(all[i], *replies[i]);
    out.push_back(std::move(*replies[i]));
  }
  return out;
}

Result<int> SearchRun::Consume(Result<ChatResponse> reply, int parent, const std::string& action,
                               int graph_node) {
  NoteEndpointResult(reply.status());
  // Pipelining: the model generates what comes next while this reply is
  // checked (its verdict assumed to be a failure until it is known).
  if (pipeline_ && !Interrupted()) SendAhead();
  if (!reply.ok()) return RecordEndpointFailure(reply.status(), parent, action, graph_node);
  ChatResponse& resp = *reply;
  Attempt a;
  a.parent = parent;
  a.action = action;
  a.graph_node = graph_node;
  a.tokens_prompt = resp.tokens_prompt;
  a.tokens_generated = resp.tokens_generated;
  a.reply_cached = resp.from_cache;
  a.time_generation_ms = resp.time_prompt_ms + resp.time_generation_ms;
  tokens_prompt_ += resp.tokens_prompt;
  tokens_generated_ += resp.tokens_generated;
  std::string text = resp.choices.empty() ? std::string() : resp.choices[0].text;
  if (!resp.choices.empty() && resp.choices[0].finish_reason == FinishReason::kCancelled && Interrupted()) {
    // Not a generation: the reply never finished.
    a.interrupted = true;
    a.verdict = Verdict::kCompileError;
    a.detail = "interrupted: the model's reply was cut short";
    a.reward = -1;
    a.result.verdict = Verdict::kCompileError;
    a.result.detail = a.detail;
    return Record(std::move(a));
  }
  ++generations_;
  llm::ExtractOptions eo;
  eo.function_name = task_.kernel_form && task_.problem->spec.kernel ? task_.problem->spec.kernel->function
                                                                     : task_.problem->spec.function;
  llm::Extraction ex = llm::ExtractCode(text, eo);
  if (!ex.found()) {
    a.verdict = Verdict::kCompileError;
    a.detail = "no code in the model's reply: " + ex.reason;
    a.reward = -1;
    a.result.verdict = Verdict::kCompileError;
    a.result.detail = a.detail;
    a.result.log = TruncateMiddle(text, 2000);
    return Record(std::move(a));
  }
  a.code = ex.code;
  return Check(std::move(a));
}

Result<int> SearchRun::Seed(const std::string& action, int graph_node) {
  Attempt a;
  a.action = action;
  a.graph_node = graph_node;
  a.by_rules = true;
  a.code = task_.seed_code;
  return Check(std::move(a));
}

Result<int> SearchRun::Check(Attempt a) {
  a.code_hash = HashHex(a.code);
  if (auto it = by_hash_.find(a.code_hash); it != by_hash_.end()) {
    const Attempt& prev = attempts_[it->second];
    a.result = prev.result;
    a.reused = true;
  } else {
    double t0 = clock_->NowSeconds();
    Result<VerifyResult> checked = Interrupted() ? Result<VerifyResult>(Status::Cancelled("interrupted"))
                                                 : context_.evaluator->Evaluate(*task_.problem, a.code);
    if (lookahead_ && checked.ok()) {
      std::lock_guard<std::mutex> lock(lookahead_mu_);
      lookahead_->RecordVerdict(a.code, checked);
    }
    // Not verified, or its check was cut short (the harness says Cancelled):
    // no verdict about the code. A check that finished keeps its verdict
    // even when the interruption came meanwhile.
    const bool cut = !checked.ok() && checked.status().code() == Status::Code::kCancelled;
    if (cut) {
      a.interrupted = true;
      a.verdict = Verdict::kCompileError;
      a.detail = "interrupted before its verification finished";
      a.reward = -1;
      a.result = VerifyResult();
      a.result.verdict = Verdict::kCompileError;
      a.result.detail = a.detail;
      a.code_hash.clear();  // not a verified hash: never reused
      return Record(std::move(a));
    }
    if (!checked.ok()) {
      // The harness itself failed (nvcc missing, disk full): no verdict
      // about the code, and the search stops (Exhausted) with what it found.
      harness_error_ = checked.status();
      a.verdict = Verdict::kCompileError;
      a.detail = "the harness failed: " + checked.status().ToString();
      a.reward = -1;
      a.result = VerifyResult();
      a.result.verdict = Verdict::kCompileError;
      a.result.detail = a.detail;
      a.code_hash.clear();
      return Record(std::move(a));
    }
    a.result = std::move(*checked);
    a.time_verify_ms = (clock_->NowSeconds() - t0) * 1000;
    ++verifications_;
  }
  a.verdict = a.result.verdict;
  a.detail = a.result.detail;
  a.speedup = a.result.speedup;
  a.reward = SearchReward(a.result);
  return Record(std::move(a));
}

Result<int> SearchRun::Record(Attempt a) {
  a.id = static_cast<int>(attempts_.size());
  if (!a.code_hash.empty() && !by_hash_.count(a.code_hash)) by_hash_[a.code_hash] = a.id;
  attempts_.push_back(std::move(a));
  Emit(last_iteration_, attempts_.back().action);
  return attempts_.back().id;
}

bool SearchRun::Failed(int attempt) const { return attempts_[attempt].reward <= -1.0; }

SearchOutcome SearchRun::Finish(std::string tree_json, std::string stop_reason) {
  SearchOutcome o;
  if (pipeline_) {
    pipeline_->Stop();  // what was generated ahead and not used is discarded
    PipelineStats p = pipeline_->stats();
    o.pipeline_speculated = p.speculated;
    o.pipeline_used = p.used;
    o.discarded_generations = p.discarded;
    o.tokens_discarded = p.tokens_discarded;
  }
  o.method = method_;
  o.attempts = attempts_;
  o.tree_json = std::move(tree_json);
  o.generations = generations_;
  o.verifications = verifications_;
  o.tokens_prompt = tokens_prompt_;
  o.tokens_generated = tokens_generated_;
  o.wall_s = clock_->NowSeconds() - start_s_;
  o.stop_reason = std::move(stop_reason);
  o.endpoint_failures = endpoint_failures_;
  o.endpoint_errors = endpoint_errors_;
  // An early stop is the real reason, whatever the method was doing then.
  std::string early;
  if (Interrupted() || EndpointLimitReached() || !harness_error_.ok()) Exhausted(&early);
  o.error = harness_error_;
  o.interrupted = Interrupted();
  o.endpoint_stopped = !o.interrupted && EndpointLimitReached();
  if (!early.empty()) o.stop_reason = early;
  auto depth = [&](int i) {
    int d = 0;
    for (int p = i; p >= 0; p = attempts_[p].parent) ++d;
    return d;
  };
  // The attempt with verdict `v` and the most optimization steps on its
  // path, earliest on ties; -1 when there is none.
  auto deepest = [&](Verdict v) {
    int best = -1;
    for (const auto& a : attempts_) {
      bool match = a.verdict == v || (v == Verdict::kCompiledOnly && a.verdict == Verdict::kNotEmulated);
      if (match && (best < 0 || depth(a.id) > depth(best))) best = a.id;
    }
    return best;
  };
  // Rule 1: the correct candidate with the highest measured speedup
  // (earliest on ties).
  for (const auto& a : attempts_) {
    if (a.verdict == Verdict::kCorrect && a.speedup > 0 &&
        (o.best < 0 || a.speedup > attempts_[o.best].speedup)) {
      o.best = a.id;
    }
  }
  if (o.best >= 0) {
    o.best_verified = true;
    o.best_rule = "the correct candidate with the highest speedup";
  } else if ((o.best = deepest(Verdict::kCorrect)) >= 0) {
    // Rule 1b (timing off, or the CPU emulator): correct, speed unknown.
    o.best_verified = true;
    o.best_rule = "speed not measured (timing off or the CPU emulator): the correct candidate with the most "
                  "optimization steps on its path (earliest on ties)";
  } else if ((o.best = deepest(Verdict::kCompiledOnly)) >= 0) {
    // Rule 2 (no GPU, or not emulated): nothing about it is verified.
    o.best_rule = "no GPU: the compiled candidate with the most optimization steps on its path "
                  "(earliest on ties); NOT verified";
  } else {
    o.best_rule = "no candidate compiled and passed";
  }
  for (int p = o.best; p >= 0; p = attempts_[p].parent) o.best_path.insert(o.best_path.begin(), p);
  return o;
}

}  // namespace search
}  // namespace regrapht
