// The embedded backend: llama.cpp in-process, one model, one context.
//
// Prefix reuse. The search sends the same system prompt and examples again
// and again, so the backend keeps the tokens whose K/V entries sit in the
// context (cached_, sequence 0, positions 0..n-1):
//
//   cached_:  [ s y s t e m . e x a m p l e s | old question | old answer ]
//   prompt:   [ s y s t e m . e x a m p l e s | new question ]
//              <------------ common ---------->
//
// Only the cells after the common prefix are removed (llama_memory_seq_rm)
// and only the new tokens are evaluated. When the whole prompt is cached
// (another sample of the same request), its last token is evaluated again to
// get fresh logits.
//
// Context overflow: a prompt that leaves no room for one generated token is
// an InvalidArgument Status, never a crash or a silent cut; a generation that
// fills the context ends with FinishReason::kContextFull (the text so far is
// kept).
#include "llm/llama_backend.h"

#include <llama-cpp.h>
#include <llama.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/fs.h"
#include "core/log.h"
#include "core/strings.h"
#include "llm/cpu_cores.h"
#include "llm/shape.h"

namespace regrapht {
namespace llm {

namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Decodes stopped by the abort callback (a cancelled request) in progress:
// llama.cpp logs such a stop as three errors ("graph_compute: ... failed with
// error 1", "failed to compute graph", "failed to decode"), which are not
// errors here, so they go to the debug log while one is unwinding.
std::atomic<int> g_aborting_decodes{0};

void LogFromLlama(ggml_log_level level, const char* text, void*) {
  std::string_view s(text);
  while (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  if (s.empty()) return;
  if (level == GGML_LOG_LEVEL_ERROR && g_aborting_decodes.load() == 0) {
    spdlog::error("llama.cpp: {}", s);
  } else {
    spdlog::debug("llama.cpp: {}", s);
  }
}

bool SameShape(const OutputShape& a, const OutputShape& b) {
  return a.prefill == b.prefill && a.grammar == b.grammar && a.close == b.close &&
         a.wrap_up == b.wrap_up && a.wrap_up_launch == b.wrap_up_launch && a.wrap_up_tokens == b.wrap_up_tokens;
}

// Whether `grammar` allows `token` next (it is not changed).
bool GrammarAllows(llama_sampler* grammar, llama_token token) {
  llama_token_data one{token, 1.0f, 0.0f};
  llama_token_data_array single{&one, 1, -1, false};
  llama_sampler_apply(grammar, &single);
  return one.logit != -INFINITY;
}

// Whether `grammar` (left as it is) takes every one of `tokens` in turn.
bool GrammarTakes(const llama_sampler* grammar, const std::vector<llama_token>& tokens) {
  llama_sampler_ptr probe(llama_sampler_clone(grammar));
  for (llama_token t : tokens) {
    if (!GrammarAllows(probe.get(), t)) return false;
    llama_sampler_accept(probe.get(), t);
  }
  return true;
}

void InitLlamaOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(LogFromLlama, nullptr);
    llama_backend_init();
  });
}

class LlamaBackend final : public LlmBackend {
 public:
  LlamaBackend(const LlamaOptions& options, llama_model_ptr model)
      : options_(options), model_(std::move(model)), vocab_(llama_model_get_vocab(model_.get())) {}

  Status Init();

  Result<ChatResponse> Chat(const ChatRequest& request) override;
  Result<std::vector<ChatResponse>> ChatBatch(const std::vector<ChatRequest>& requests) override;
  std::string Name() const override { return "llama"; }
  std::string ModelId() const override { return model_id_; }
  // Mean-pooled hidden states of the model's last layer, one vector per
  // text (a second context with embeddings on, made on first use; texts
  // longer than its 2,048 tokens are cut to their head).
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;

  const LlamaInfo& info() const { return info_; }
  int64_t decode_calls() const { return decode_calls_.load(); }
  Result<std::vector<llama_token>> Tokenize(const std::string& text, bool add_special);

 private:
  Result<std::string> FormatPrompt(const std::vector<ChatMessage>& messages);
  // Makes the context hold exactly `prompt`, with logits for its last token.
  // Returns the number of tokens evaluated; sets *cancelled if stopped.
  Result<int> EvaluatePrompt(const std::vector<llama_token>& prompt, bool* cancelled);
  // Decodes `n` tokens at positions cached_.size()...; logits for the last.
  Status Decode(const llama_token* tokens, int n, bool* cancelled);
  void ResetCache();
  // A prompt of a batch: its tokens (prefill included) and output shape.
  struct Prompt {
    std::vector<llama_token> tokens;
    const OutputShape* shape;
  };
  // One sample to draw: its prompt (an index into the batch's prompts), its
  // sampling parameters and seed.
  struct SampleSpec {
    int prompt;
    const SamplingParams* sampling;
    uint64_t seed;
  };
  struct SampleRun {
    std::vector<Completion> completions;  // one per spec, in order (fewer if cancelled)
    std::vector<int> tokens_evaluated;    // per prompt
    std::vector<double> time_prompt_ms;   // per prompt
  };
  // Where a prompt of a wave lives: sequence `home` (the first of its
  // samples), whose first `common` cells are copied from sequence `from`
  // (the prompt of this wave sharing the longest prefix with it); the rest
  // is evaluated into `home`. The wave's first prompt is home 0 (the cached
  // sequence; prefix reuse as for one request).
  struct WavePrompt {
    int prompt;
    int home;
    int from = 0;
    size_t common = 0;
  };
  // Formats and tokenizes the prompt (prefill included) and checks it fits.
  Result<std::vector<llama_token>> PromptTokens(const ChatRequest& request);
  // A ChatBatch call waiting for its turn: its requests, their prompts'
  // tokens, and (once done) its responses.
  struct Caller {
    const std::vector<ChatRequest>* requests = nullptr;
    std::vector<std::vector<llama_token>> tokens;  // per request; moved out when run
    Result<std::vector<ChatResponse>> result = Status::Internal("not run");
    bool done = false;
  };
  // Answers the requests of `callers` as one batch (RunSamples), setting
  // each caller's result; non-OK when the batch failed as a whole.
  Status RunCallers(const std::vector<Caller*>& callers);
  // Draws every sample of `specs`: in waves of up to max_sequences sequences
  // decoded together, as many as the context holds with room for each one's
  // max_tokens (a cell shared by several sequences counts once); one at a
  // time when that is 1.
  Result<SampleRun> RunSamples(const std::vector<Prompt>& prompts, const std::vector<SampleSpec>& specs);
  // Generates the samples of one wave: evaluates its prompts (the first into
  // sequence 0 with prefix reuse, each other one into its home sequence from
  // the longest shared prefix, llama_memory_seq_cp), shares each prompt's
  // cells with its other samples' sequences, then decodes one token of every
  // unfinished sequence per llama_decode. Sequences 1..n-1 are removed
  // afterwards; sequence 0 keeps its prompt and answer, as cached_ says.
  Result<std::vector<Completion>> GenerateWave(const std::vector<Prompt>& prompts,
                                               const std::vector<WavePrompt>& plan,
                                               const SampleSpec* specs, int n, SampleRun* run);
  // One sequence of a wave: its samplers, its completion so far, and where
  // it stands (the wrap-up's tokens still to write, and how far it has come).
  struct WaveSeq {
    llama_sampler_ptr chain, grammar;
    Completion out;
    size_t max_stop = 0;
    bool done = false;
    int idx = -1;  // its output in the last decode's batch
    llama_token tok = 0;
    bool has_first = false;  // `first` was sampled right after its prompt
    llama_token first = 0;
    size_t prompt_len = 0;
    const OutputShape* shape = nullptr;
    Clock::time_point t0;
    std::vector<llama_token> forced;
    size_t forced_next = 0;
    WrapUpStage wrap_stage = WrapUpStage::kNone;
  };
  // Makes the n sequences of a wave: samplers per spec, text = the prefill.
  Status InitWaveSeqs(const std::vector<Prompt>& prompts, const SampleSpec* specs, int n,
                      std::vector<WaveSeq>* seqs);
  // Evaluates the wave's prompts into their home sequences, shares each one's
  // cells with its samples' sequences and samples their first tokens. Returns
  // the KV cells in use; sets *cancelled if stopped.
  Result<int> EvaluateWavePrompts(const std::vector<Prompt>& prompts,
                                  const std::vector<WavePrompt>& plan, const SampleSpec* specs,
                                  int n, std::vector<WaveSeq>* seqs, SampleRun* run,
                                  bool* cancelled);
  // Decodes one token of every unfinished sequence per llama_decode until all
  // are done; on a failed decode, drops sequences 1..n-1 and the cache.
  Status DecodeWave(const SampleSpec* specs, int n, int cells, std::vector<WaveSeq>* seqs);
  // Removes sequences 1..n-1 from the context.
  void DropOtherSeqs(int n);
  // Marks q finished for `why`, with its generation time.
  static void FinishSeq(WaveSeq& q, FinishReason why);
  // Takes token `tok` into q (stop strings, closing string, max_tokens);
  // false when q has finished.
  bool TakeToken(WaveSeq& q, const SamplingParams& sp, llama_token tok);
  // The wrap-up (OutputShape::wrap_up): when a sequence's tokens run short,
  // the next token is the wrap-up text's rather than a sampled one, as long
  // as the grammar takes it (else the wrap-up is dropped and sampling goes
  // on). False when there is nothing to force.
  bool ForceWrapUp(WaveSeq& q, const SamplingParams& sp, llama_token* tok);
  // Samples the next token; under the wrap-up, a token that would close the
  // function's body is replaced by llm::BodyCloser's text when the grammar
  // takes it.
  llama_token SampleShaped(WaveSeq& q, const SamplingParams& sp);
  // Decodes `n` tokens into sequence `seq` at positions pos0...; logits for
  // the last. Does not touch cached_ (sequence 0 goes through Decode).
  Status DecodeSeq(int seq, llama_pos pos0, const llama_token* tokens, int n, bool* cancelled);
  // Samples a token from output `idx` of the last decode, under `grammar`
  // when it is not null; accepts it in both samplers.
  llama_token Sample(llama_sampler* chain, llama_sampler* grammar, int idx, bool accept = true);
  // Puts the repetition penalty and DRY samplers of `sp` (when on) at the
  // head of `chain`, before greedy or temperature sampling.
  void AddRepetitionControl(llama_sampler* chain, const SamplingParams& sp) const;

  static bool Abort(void* self) {
    auto* b = static_cast<LlamaBackend*>(self);
    bool abort = b->cancel_ != nullptr && b->cancel_->load(std::memory_order_relaxed);
    if (abort && !b->aborting_.exchange(true)) g_aborting_decodes.fetch_add(1);  // until EndDecode
    return abort;
  }
  // After llama_decode returns: its abort, if any, is over.
  void EndDecode() {
    if (aborting_.exchange(false)) g_aborting_decodes.fetch_sub(1);
  }

  LlamaOptions options_;
  llama_model_ptr model_;
  const llama_vocab* vocab_;
  llama_context_ptr ctx_;
  std::string template_;       // passed to llama_chat_apply_template
  std::string model_id_;
  LlamaInfo info_;
  int n_ctx_ = 0;
  int n_batch_ = 0;
  int n_seq_ = 1;  // sequences a wave may decode together

  // Concurrent ChatBatch calls queue here; the first in line when no batch
  // runs leads the next one and takes the others with it.
  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::deque<Caller*> queue_;
  bool running_ = false;
  bool concurrent_ = false;  // a caller arrived while another was queued or running

  std::mutex mu_;  // guards everything below and the context
  std::vector<llama_token> cached_;
  const std::atomic<bool>* cancel_ = nullptr;  // of the request in progress
  std::atomic<bool> aborting_{false};  // Abort() stopped the decode in progress (counted in g_aborting_decodes)
  // Progress of the request in progress (ChatRequest::on_progress): its
  // callback, the tokens of its finished waves, its token budget, its start.
  struct Progress {
    std::function<void(const GenerationProgress&)> fn;
    int tokens_done = 0, max_tokens = 0;
    Clock::time_point t0, last;
  } progress_;
  // Reports `wave_tokens` more than the finished waves' when a quarter of a
  // second has passed since the last report, or when `force`.
  void ReportProgress(int wave_tokens, bool force);
  std::vector<llama_token_data> candidates_;   // Sample's scratch
  std::atomic<int64_t> decode_calls_{0};        // llama_decode calls so far

  std::mutex embed_mu_;         // guards the embedding context
  llama_context_ptr embed_ctx_;  // embeddings on, mean pooling; null until Embed
  int embed_n_ctx_ = 0;
};

Result<std::vector<std::vector<float>>> LlamaBackend::Embed(const std::vector<std::string>& texts) {
  std::lock_guard<std::mutex> lock(embed_mu_);
  if (!embed_ctx_) {
    llama_context_params cp = llama_context_default_params();
    const int train = llama_model_n_ctx_train(model_.get());
    cp.n_ctx = static_cast<uint32_t>(train > 0 ? std::min(train, 2048) : 2048);
    cp.n_batch = cp.n_ctx;  // a text is one batch: pooling sees all of it
    cp.n_ubatch = cp.n_ctx;
    cp.n_seq_max = 1;
    cp.embeddings = true;
    cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
    const int threads = options_.threads > 0 ? options_.threads : PhysicalCores();
    cp.n_threads = threads;
    cp.n_threads_batch = threads;
    cp.no_perf = true;
    embed_ctx_.reset(llama_init_from_model(model_.get(), cp));
    if (!embed_ctx_) {
      return Status::Internal(options_.model_path.string() + ": llama.cpp could not create an embedding context");
    }
    embed_n_ctx_ = static_cast<int>(llama_n_ctx(embed_ctx_.get()));
  }
  const int n_embd = llama_model_n_embd(model_.get());
  const bool encoder = llama_model_has_encoder(model_.get());
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) {
    RG_ASSIGN_OR_RETURN(std::vector<llama_token> tokens, Tokenize(text, /*add_special=*/true));
    if (tokens.empty()) return Status::InvalidArgument("embedding an empty text");
    if (static_cast<int>(tokens.size()) > embed_n_ctx_) tokens.resize(static_cast<size_t>(embed_n_ctx_));
    llama_memory_clear(llama_get_memory(embed_ctx_.get()), true);
    const int n = static_cast<int>(tokens.size());
    llama_batch batch = llama_batch_init(n, 0, 1);
    for (int i = 0; i < n; ++i) {
      batch.token[i] = tokens[static_cast<size_t>(i)];
      batch.pos[i] = i;
      batch.n_seq_id[i] = 1;
      batch.seq_id[i][0] = 0;
      batch.logits[i] = 1;  // every token's state goes into the pooled mean
    }
    batch.n_tokens = n;
    const int rc = encoder ? llama_encode(embed_ctx_.get(), batch) : llama_decode(embed_ctx_.get(), batch);
    llama_batch_free(batch);
    if (rc != 0) return Status::Internal("llama.cpp could not embed a text (code " + std::to_string(rc) + ")");
    const float* e = llama_get_embeddings_seq(embed_ctx_.get(), 0);
    if (e == nullptr) return Status::Internal("llama.cpp gave no pooled embedding");
    out.emplace_back(e, e + n_embd);
  }
  return out;
}

Status LlamaBackend::Init() {
  llama_context_params cp = llama_context_default_params();
  int threads = options_.threads > 0 ? options_.threads : PhysicalCores();
  cp.n_ctx = options_.context_size > 0 ? options_.context_size : 0;
  cp.n_batch = std::max(1, options_.batch_size);
  cp.n_ubatch = cp.n_batch;
  // Several samples are decoded together as separate sequences sharing the
  // prompt's cells: one unified KV buffer.
  cp.n_seq_max = static_cast<uint32_t>(std::clamp(options_.max_sequences, 1, 64));
  cp.kv_unified = true;
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.abort_callback = &LlamaBackend::Abort;
  cp.abort_callback_data = this;
  cp.no_perf = true;
  ctx_.reset(llama_init_from_model(model_.get(), cp));
  if (!ctx_) {
    return Status::Internal(options_.model_path.string() +
                            ": llama.cpp could not create a context (n_ctx " +
                            std::to_string(cp.n_ctx) + "); see --log-level debug");
  }
  n_ctx_ = static_cast<int>(llama_n_ctx(ctx_.get()));
  n_batch_ = static_cast<int>(cp.n_batch);
  n_seq_ = static_cast<int>(llama_n_seq_max(ctx_.get()));

  // The chat template: an explicit one, else the model's, else chatml.
  // llama_chat_apply_template recognises templates by name or by markers in
  // the Jinja text; one it does not know falls back to chatml (logged).
  const char* model_tmpl = llama_model_chat_template(model_.get(), nullptr);
  if (!options_.chat_template.empty()) {
    template_ = options_.chat_template;
    info_.chat_template = options_.chat_template.size() < 32 ? options_.chat_template : "custom";
  } else if (model_tmpl != nullptr) {
    template_ = model_tmpl;
    info_.chat_template = "model";
  } else {
    template_ = "chatml";
    info_.chat_template = "chatml (model has none)";
  }
  llama_chat_message probe{"user", "x"};
  if (llama_chat_apply_template(template_.c_str(), &probe, 1, true, nullptr, 0) < 0) {
    if (!options_.chat_template.empty()) {
      return Status::InvalidArgument("chat template \"" + options_.chat_template.substr(0, 40) +
                                     "\" is not one llama.cpp knows");
    }
    spdlog::warn("{}: llama.cpp does not recognise the model's chat template; using chatml",
                 options_.model_path.filename().string());
    template_ = "chatml";
    info_.chat_template = "chatml (model's not recognised)";
  }

  char desc[256];
  llama_model_desc(model_.get(), desc, sizeof desc);
  info_.description = desc;
  info_.context_size = n_ctx_;
  info_.threads = threads;
  info_.model_bytes = llama_model_size(model_.get());
  info_.parameters = llama_model_n_params(model_.get());
  std::error_code ec;
  auto size = fs::file_size(options_.model_path, ec);
  model_id_ = options_.model_path.filename().string() + ":" + std::to_string(ec ? 0 : size);
  return Status::Ok();
}

Result<std::string> LlamaBackend::FormatPrompt(const std::vector<ChatMessage>& messages) {
  std::vector<llama_chat_message> msgs;
  msgs.reserve(messages.size());
  size_t total = 0;
  for (const auto& m : messages) {
    msgs.push_back({RoleName(m.role).data(), m.content.c_str()});
    total += m.content.size();
  }
  std::string buf(total * 2 + 512, '\0');
  int n = llama_chat_apply_template(template_.c_str(), msgs.data(), msgs.size(), true, buf.data(),
                                    static_cast<int32_t>(buf.size()));
  if (n > static_cast<int>(buf.size())) {
    buf.resize(n);
    n = llama_chat_apply_template(template_.c_str(), msgs.data(), msgs.size(), true, buf.data(),
                                  static_cast<int32_t>(buf.size()));
  }
  if (n < 0) return Status::Internal("llama_chat_apply_template failed");
  buf.resize(n);
  return buf;
}

Result<std::vector<llama_token>> LlamaBackend::Tokenize(const std::string& text,
                                                        bool add_special) {
  std::vector<llama_token> tokens(text.size() + 8);
  int n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                         static_cast<int32_t>(tokens.size()), add_special, /*parse_special=*/true);
  if (n < 0) {
    tokens.resize(-n);
    n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                       static_cast<int32_t>(tokens.size()), add_special, true);
  }
  if (n < 0) return Status::Internal("llama_tokenize failed");
  tokens.resize(n);
  return tokens;
}

void LlamaBackend::ResetCache() {
  llama_memory_clear(llama_get_memory(ctx_.get()), true);
  cached_.clear();
}

Status LlamaBackend::Decode(const llama_token* tokens, int n, bool* cancelled) {
  llama_batch batch = llama_batch_init(n, 0, 1);
  const int pos0 = static_cast<int>(cached_.size());
  for (int i = 0; i < n; ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = pos0 + i;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = i == n - 1;
  }
  batch.n_tokens = n;
  ++decode_calls_;
  int rc = llama_decode(ctx_.get(), batch);
  EndDecode();
  llama_batch_free(batch);
  if (rc == 0) {
    cached_.insert(cached_.end(), tokens, tokens + n);
    return Status::Ok();
  }
  // Whatever part of the batch was processed is dropped so cached_ stays true.
  if (!llama_memory_seq_rm(llama_get_memory(ctx_.get()), 0, pos0, -1)) ResetCache();
  if (rc == 2) {
    *cancelled = true;
    return Status::Ok();
  }
  return Status::Internal("llama_decode failed with " + std::to_string(rc) + " at position " +
                          std::to_string(pos0) + " (" + std::to_string(n) + " tokens)");
}

Status LlamaBackend::DecodeSeq(int seq, llama_pos pos0, const llama_token* tokens, int n,
                               bool* cancelled) {
  llama_batch batch = llama_batch_init(n, 0, 1);
  for (int i = 0; i < n; ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = pos0 + i;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = seq;
    batch.logits[i] = i == n - 1;
  }
  batch.n_tokens = n;
  ++decode_calls_;
  int rc = llama_decode(ctx_.get(), batch);
  EndDecode();
  llama_batch_free(batch);
  if (rc == 0) return Status::Ok();
  if (rc == 2) {
    *cancelled = true;
    return Status::Ok();
  }
  return Status::Internal("llama_decode failed with " + std::to_string(rc) + " at position " +
                          std::to_string(pos0) + " of sequence " + std::to_string(seq) + " (" +
                          std::to_string(n) + " tokens)");
}

Result<int> LlamaBackend::EvaluatePrompt(const std::vector<llama_token>& prompt, bool* cancelled) {
  size_t common = 0;
  if (options_.reuse_prefix) {
    size_t limit = std::min(cached_.size(), prompt.size());
    while (common < limit && cached_[common] == prompt[common]) ++common;
    if (common == prompt.size()) --common;  // need the last token's logits again
  }
  if (common < cached_.size()) {
    if (common == 0 || !llama_memory_seq_rm(llama_get_memory(ctx_.get()), 0,
                                            static_cast<llama_pos>(common), -1)) {
      ResetCache();
      common = 0;
    }
    cached_.resize(common);
  }
  int evaluated = 0;
  for (size_t i = common; i < prompt.size(); i += n_batch_) {
    int n = static_cast<int>(std::min<size_t>(n_batch_, prompt.size() - i));
    RG_RETURN_IF_ERROR(Decode(prompt.data() + i, n, cancelled));
    if (*cancelled) break;
    evaluated += n;
  }
  return evaluated;
}

llama_token LlamaBackend::Sample(llama_sampler* chain, llama_sampler* grammar, int idx, bool accept) {
  if (grammar == nullptr) return llama_sampler_sample(chain, ctx_.get(), idx);
  // As llama.cpp's common sampler does: sample freely, and only if the
  // grammar rejects that token apply the grammar to the whole vocabulary
  // and sample again (most tokens of a shaped reply pass, and checking one
  // token is far cheaper than checking 49k).
  const float* logits = llama_get_logits_ith(ctx_.get(), idx);
  const int n_vocab = llama_vocab_n_tokens(vocab_);
  auto fill = [&] {
    candidates_.resize(n_vocab);
    for (llama_token t = 0; t < n_vocab; ++t) candidates_[t] = {t, logits[t], 0.0f};
    return llama_token_data_array{candidates_.data(), candidates_.size(), -1, false};
  };
  llama_token_data_array all = fill();
  llama_sampler_apply(chain, &all);
  llama_token tok = all.data[all.selected].id;
  if (!GrammarAllows(grammar, tok)) {
    all = fill();
    llama_sampler_apply(grammar, &all);
    llama_sampler_apply(chain, &all);
    tok = all.data[all.selected].id;
  }
  if (accept) {
    llama_sampler_accept(grammar, tok);
    llama_sampler_accept(chain, tok);
  }
  return tok;
}

void LlamaBackend::AddRepetitionControl(llama_sampler* chain, const SamplingParams& sp) const {
  if (sp.dry_multiplier > 0) {
    // llama.cpp's default sequence breakers: a match does not extend across
    // them, so a repeated line is penalized, not a line that repeats a part
    // of an earlier one across its break. Only generated tokens count (the
    // prompt is not accepted by the chain), so the prompt's examples are free.
    // The window is the whole context (this llama.cpp reads -1 as "off").
    static const char* kBreakers[] = {"\n", ":", "\"", "*"};
    llama_sampler_chain_add(chain, llama_sampler_init_dry(vocab_, sp.dry_multiplier, sp.dry_base,
                                                          sp.dry_allowed_length,
                                                          static_cast<int32_t>(llama_n_ctx(ctx_.get())),
                                                          kBreakers,
                                                          std::size(kBreakers)));
  }
  if (sp.repeat_penalty != 1.0f) {
    llama_sampler_chain_add(chain, llama_sampler_init_penalties(llama_vocab_n_tokens(vocab_),
                                                                sp.repeat_last_n, sp.repeat_penalty,
                                                                0.0f, 0.0f));
  }
}

Status LlamaBackend::InitWaveSeqs(const std::vector<Prompt>& prompts, const SampleSpec* specs,
                                  int n, std::vector<WaveSeq>* seqs) {
  seqs->resize(n);
  for (int i = 0; i < n; ++i) {
    const SamplingParams& sp = *specs[i].sampling;
    const OutputShape& shape = *prompts[specs[i].prompt].shape;
    WaveSeq& q = (*seqs)[i];
    q.shape = &shape;
    q.prompt_len = prompts[specs[i].prompt].tokens.size();
    q.chain.reset(llama_sampler_chain_init(llama_sampler_chain_default_params()));
    AddRepetitionControl(q.chain.get(), sp);
    if (sp.temperature <= 0) {
      llama_sampler_chain_add(q.chain.get(), llama_sampler_init_greedy());
    } else {
      if (sp.top_k > 0) llama_sampler_chain_add(q.chain.get(), llama_sampler_init_top_k(sp.top_k));
      if (sp.top_p < 1) llama_sampler_chain_add(q.chain.get(), llama_sampler_init_top_p(sp.top_p, 1));
      llama_sampler_chain_add(q.chain.get(), llama_sampler_init_temp(sp.temperature));
      // llama.cpp reads 0xFFFFFFFF as "pick a random seed"; keep runs reproducible.
      uint32_t s = static_cast<uint32_t>(specs[i].seed ^ (specs[i].seed >> 32));
      if (s == LLAMA_DEFAULT_SEED) s = 0x5eed;
      llama_sampler_chain_add(q.chain.get(), llama_sampler_init_dist(s));
    }
    if (!shape.grammar.empty()) {
      q.grammar.reset(llama_sampler_init_grammar(vocab_, shape.grammar.c_str(), "root"));
      if (!q.grammar) return Status::InvalidArgument("the output grammar (GBNF) does not parse");
    }
    for (const auto& stop : sp.stop) q.max_stop = std::max(q.max_stop, stop.size());
    // The prefill is part of the text; stop strings apply to what follows it,
    // the closing string to the whole text.
    q.out.text = shape.prefill;
  }
  return Status::Ok();
}

void LlamaBackend::DropOtherSeqs(int n) {
  llama_memory_t mem = llama_get_memory(ctx_.get());
  for (int i = 1; i < n; ++i) llama_memory_seq_rm(mem, i, -1, -1);
}

Result<int> LlamaBackend::EvaluateWavePrompts(const std::vector<Prompt>& prompts,
                                              const std::vector<WavePrompt>& plan,
                                              const SampleSpec* specs, int n,
                                              std::vector<WaveSeq>* seqs, SampleRun* run,
                                              bool* cancelled) {
  llama_memory_t mem = llama_get_memory(ctx_.get());
  int cells = 0;  // KV cells in use
  for (const WavePrompt& wp : plan) {
    const std::vector<llama_token>& tokens = prompts[wp.prompt].tokens;
    auto t0 = Clock::now();
    int evaluated = 0;
    if (wp.home == 0) {
      RG_ASSIGN_OR_RETURN(evaluated, EvaluatePrompt(tokens, cancelled));
    } else {
      if (wp.common > 0) llama_memory_seq_cp(mem, wp.from, wp.home, 0, static_cast<llama_pos>(wp.common));
      for (size_t i = wp.common; i < tokens.size() && !*cancelled; i += n_batch_) {
        int k = static_cast<int>(std::min<size_t>(n_batch_, tokens.size() - i));
        Status st = DecodeSeq(wp.home, static_cast<llama_pos>(i), tokens.data() + i, k, cancelled);
        if (!st.ok()) {
          DropOtherSeqs(n);
          return st;
        }
        if (!*cancelled) evaluated += k;
      }
    }
    run->time_prompt_ms[wp.prompt] += MsSince(t0);
    run->tokens_evaluated[wp.prompt] += evaluated;
    cells += static_cast<int>(tokens.size() - wp.common);
    if (*cancelled) break;
    for (int i = 0; i < n; ++i) {
      if (specs[i].prompt != wp.prompt) continue;
      WaveSeq& q = (*seqs)[i];
      if (i != wp.home) llama_memory_seq_cp(mem, wp.home, i, -1, -1);
      q.first = Sample(q.chain.get(), q.grammar.get(), -1);
      q.has_first = true;
    }
  }
  return cells;
}

void LlamaBackend::FinishSeq(WaveSeq& q, FinishReason why) {
  q.out.finish_reason = why;
  q.out.time_generation_ms = MsSince(q.t0);
  q.done = true;
}

bool LlamaBackend::TakeToken(WaveSeq& q, const SamplingParams& sp, llama_token tok) {
  const OutputShape& shape = *q.shape;
  const size_t start = shape.prefill.size();
  if ((!sp.ignore_eos || q.grammar) && llama_vocab_is_eog(vocab_, tok)) {
    FinishSeq(q, FinishReason::kStop);
    return false;
  }
  ++q.out.tokens_generated;
  std::string& text = q.out.text;
  char piece[256];
  int len = llama_token_to_piece(vocab_, tok, piece, sizeof piece, 0, /*special=*/false);
  if (len > 0) {
    size_t before = text.size();
    text.append(piece, len);
    if (q.max_stop > 0) {
      size_t from = std::max(start, before >= q.max_stop ? before - q.max_stop + 1 : 0);
      size_t cut = std::string::npos;
      for (const auto& stop : sp.stop) {
        if (stop.empty()) continue;
        size_t at = text.find(stop, from);
        if (at != std::string::npos) cut = std::min(cut, at);
      }
      if (cut != std::string::npos) {
        text.resize(cut);
        FinishSeq(q, FinishReason::kStop);
        return false;
      }
    }
    if (!shape.close.empty()) {
      // It may begin in the prefill ("\n" then "```") but must end after it.
      size_t from = before >= shape.close.size() ? before - shape.close.size() + 1 : 0;
      size_t at = text.find(shape.close, from);
      if (at != std::string::npos && at + shape.close.size() > start) {
        text.resize(at + shape.close.size());
        FinishSeq(q, FinishReason::kStop);
        return false;
      }
    }
  }
  if (q.out.tokens_generated >= sp.max_tokens) {
    FinishSeq(q, FinishReason::kLength);
    return false;
  }
  return true;
}

bool LlamaBackend::ForceWrapUp(WaveSeq& q, const SamplingParams& sp, llama_token* tok) {
  const OutputShape& shape = *q.shape;
  if (q.forced_next >= q.forced.size() && !shape.wrap_up.empty() && q.grammar) {
    const int left = sp.max_tokens - q.out.tokens_generated;
    const WrapUpStage stage = left <= kWrapUpCloseTokens     ? WrapUpStage::kClose
                              : left <= kWrapUpLaunchTokens  ? WrapUpStage::kLaunch
                              : left <= shape.wrap_up_tokens ? WrapUpStage::kHead
                                                             : WrapUpStage::kNone;
    std::vector<std::string> texts;
    if (EndsDefinition(shape.wrap_up, q.out.text)) {
      texts = {"\n```"};
    } else if (stage > q.wrap_stage) {
      q.wrap_stage = stage;
      texts = WrapUpTexts(shape.wrap_up, shape.wrap_up_launch, q.out.text, stage);
    }
    q.forced.clear();
    q.forced_next = 0;
    for (const std::string& text : texts) {
      auto tokens = Tokenize(text, /*add_special=*/false);
      if (tokens.ok() && GrammarTakes(q.grammar.get(), *tokens)) {
        q.forced = std::move(*tokens);
        break;
      }
    }
  }
  if (q.forced_next >= q.forced.size()) return false;
  const llama_token t = q.forced[q.forced_next++];
  if (!GrammarAllows(q.grammar.get(), t)) {
    q.forced.clear();
    q.forced_next = 0;
    return false;
  }
  llama_sampler_accept(q.grammar.get(), t);
  llama_sampler_accept(q.chain.get(), t);
  char piece[256];
  int len = llama_token_to_piece(vocab_, t, piece, sizeof piece, 0, /*special=*/false);
  if (len > 0) q.out.wrapped_up.append(piece, len);
  *tok = t;
  return true;
}

llama_token LlamaBackend::SampleShaped(WaveSeq& q, const SamplingParams& sp) {
  const OutputShape& shape = *q.shape;
  if (shape.wrap_up.empty() || !q.grammar) return Sample(q.chain.get(), q.grammar.get(), q.idx);
  const std::string instead = BodyCloser(shape.wrap_up, shape.wrap_up_launch, q.out.text);
  if (instead.empty()) return Sample(q.chain.get(), q.grammar.get(), q.idx);
  llama_token tok = Sample(q.chain.get(), q.grammar.get(), q.idx, /*accept=*/false);
  char piece[256];
  const int len = llama_token_to_piece(vocab_, tok, piece, sizeof piece, 0, /*special=*/false);
  if (len > 0 && std::string_view(piece, len).find('}') != std::string_view::npos) {
    auto tokens = Tokenize(instead, /*add_special=*/false);
    if (tokens.ok() && GrammarTakes(q.grammar.get(), *tokens)) {
      q.forced = std::move(*tokens);
      q.forced_next = 0;
      llama_token first = tok;
      if (ForceWrapUp(q, sp, &first)) return first;
    }
  }
  llama_sampler_accept(q.grammar.get(), tok);
  llama_sampler_accept(q.chain.get(), tok);
  return tok;
}

namespace {

// The tokens the wave's sequences have generated so far.
template <typename Seqs>
int WaveTokens(const Seqs& seqs) {
  int tokens = 0;
  for (const auto& q : seqs) tokens += q.out.tokens_generated;
  return tokens;
}

}  // namespace

Status LlamaBackend::DecodeWave(const SampleSpec* specs, int n, int cells,
                                std::vector<WaveSeq>* seqs) {
  llama_batch batch = llama_batch_init(n, 0, 1);
  struct FreeBatch {
    llama_batch* b;
    ~FreeBatch() { llama_batch_free(*b); }
  } free_batch{&batch};
  while (true) {
    batch.n_tokens = 0;
    for (int i = 0; i < n; ++i) {
      WaveSeq& q = (*seqs)[i];
      if (q.done) continue;
      if (cancel_ != nullptr && cancel_->load()) {
        FinishSeq(q, FinishReason::kCancelled);
        continue;
      }
      llama_token tok = q.first;
      if (!q.has_first && !ForceWrapUp(q, *specs[i].sampling, &tok))
        tok = SampleShaped(q, *specs[i].sampling);
      q.has_first = false;
      if (!TakeToken(q, *specs[i].sampling, tok)) continue;
      if (cells >= n_ctx_) {
        FinishSeq(q, FinishReason::kContextFull);
        continue;
      }
      int k = batch.n_tokens++;
      batch.token[k] = tok;
      batch.pos[k] = static_cast<llama_pos>(q.prompt_len) + q.out.tokens_generated - 1;
      batch.n_seq_id[k] = 1;
      batch.seq_id[k][0] = i;
      batch.logits[k] = true;
      q.idx = k;
      q.tok = tok;
      ++cells;
    }
    if (batch.n_tokens == 0) return Status::Ok();
    ++decode_calls_;
    int rc = llama_decode(ctx_.get(), batch);
    EndDecode();
    if (rc != 0) {
      for (auto& q : *seqs) {
        if (!q.done) FinishSeq(q, FinishReason::kCancelled);
      }
      // Whatever part of the batch was processed is dropped with the rest.
      DropOtherSeqs(n);
      ResetCache();
      if (rc == 2) return Status::Ok();
      return Status::Internal("llama_decode failed with " + std::to_string(rc) +
                              " while generating " + std::to_string(batch.n_tokens) + " sequences");
    }
    for (int k = 0; k < batch.n_tokens; ++k) {
      if (batch.seq_id[k][0] == 0) cached_.push_back(batch.token[k]);  // sequence 0 stays cached
    }
    if (progress_.fn) ReportProgress(WaveTokens(*seqs), /*force=*/false);
  }
}

Result<std::vector<Completion>> LlamaBackend::GenerateWave(const std::vector<Prompt>& prompts,
                                                           const std::vector<WavePrompt>& plan,
                                                           const SampleSpec* specs, int n,
                                                           SampleRun* run) {
  if (progress_.fn && progress_.t0 == Clock::time_point{})
    progress_.t0 = progress_.last = Clock::now();
  std::vector<WaveSeq> seqs;
  RG_RETURN_IF_ERROR(InitWaveSeqs(prompts, specs, n, &seqs));
  // The prompts: evaluated one after another; each one's samples draw their
  // first token at once (the next decode replaces the logits) and share its
  // cells.
  bool cancelled = false;
  RG_ASSIGN_OR_RETURN(int cells,
                      EvaluateWavePrompts(prompts, plan, specs, n, &seqs, run, &cancelled));
  if (cancelled) {
    DropOtherSeqs(n);
    std::vector<Completion> out;
    for (auto& q : seqs) {
      q.out.finish_reason = FinishReason::kCancelled;
      q.out.text.clear();
      out.push_back(std::move(q.out));
    }
    return out;
  }
  for (auto& q : seqs) q.t0 = Clock::now();
  Status status = DecodeWave(specs, n, cells, &seqs);
  if (progress_.fn) {
    progress_.tokens_done += WaveTokens(seqs);
    ReportProgress(0, /*force=*/true);
  }
  if (status.ok()) DropOtherSeqs(n);
  RG_RETURN_IF_ERROR(status);
  std::vector<Completion> out;
  for (auto& q : seqs) out.push_back(std::move(q.out));
  return out;
}

void LlamaBackend::ReportProgress(int wave_tokens, bool force) {
  auto now = Clock::now();
  if (!force && std::chrono::duration<double>(now - progress_.last).count() < 0.25) return;
  progress_.last = now;
  GenerationProgress p;
  p.tokens = progress_.tokens_done + wave_tokens;
  p.max_tokens = progress_.max_tokens;
  p.seconds = std::chrono::duration<double>(now - progress_.t0).count();
  progress_.fn(p);
}

Result<LlamaBackend::SampleRun> LlamaBackend::RunSamples(const std::vector<Prompt>& prompts,
                                                         const std::vector<SampleSpec>& specs) {
  SampleRun run;
  run.tokens_evaluated.assign(prompts.size(), 0);
  run.time_prompt_ms.assign(prompts.size(), 0);
  auto shared = [](const std::vector<llama_token>& a, const std::vector<llama_token>& b) {
    size_t k = 0, limit = std::min(a.size(), b.size());
    while (k < limit && a[k] == b[k]) ++k;
    return k;
  };
  size_t next = 0;
  while (next < specs.size()) {
    // As many sequences as fit: a prompt's cells (and the prefix it shares
    // with an earlier prompt of the wave) are held once, each sequence needs
    // room for its own reply.
    std::vector<WavePrompt> plan;
    int width = 0;
    int need = 0;
    for (size_t i = next; i < specs.size() && width < n_seq_; ++i) {
      const int p = specs[i].prompt;
      int more = specs[i].sampling->max_tokens;
      WavePrompt wp{p, width};
      bool known = false;
      for (const auto& w : plan) known = known || w.prompt == p;
      if (!known) {
        const auto& tokens = prompts[p].tokens;
        if (options_.reuse_prefix) {
          for (const auto& w : plan) {
            size_t c = std::min(shared(prompts[w.prompt].tokens, tokens), tokens.size() - 1);
            if (c > wp.common) {
              wp.common = c;
              wp.from = w.home;
            }
          }
        }
        more += static_cast<int>(tokens.size() - wp.common);
      }
      if (width > 0 && need + more > n_ctx_) break;
      need += more;
      if (!known) plan.push_back(wp);
      ++width;
    }
    RG_ASSIGN_OR_RETURN(auto wave, GenerateWave(prompts, plan, specs.data() + next, width, &run));
    bool stop = false;
    for (auto& c : wave) {
      stop = stop || c.finish_reason == FinishReason::kCancelled;
      run.completions.push_back(std::move(c));
    }
    next += width;
    if (stop) break;
  }
  return run;
}

Result<std::vector<llama_token>> LlamaBackend::PromptTokens(const ChatRequest& request) {
  if (request.messages.empty()) return Status::InvalidArgument("chat request has no messages");
  if (request.n < 1) return Status::InvalidArgument("chat request asks for n < 1 samples");
  if (request.sampling.max_tokens < 1) return Status::InvalidArgument("max_tokens < 1");
  if (!request.shape.grammar.empty()) {
    llama_sampler_ptr probe(llama_sampler_init_grammar(vocab_, request.shape.grammar.c_str(), "root"));
    if (!probe) {
      return Status::InvalidArgument("the output grammar (GBNF) does not parse (llama.cpp logs where): " +
                                     request.shape.grammar.substr(0, 200));
    }
  }
  RG_ASSIGN_OR_RETURN(std::string text, FormatPrompt(request.messages));
  text += request.shape.prefill;
  RG_ASSIGN_OR_RETURN(std::vector<llama_token> prompt, Tokenize(text, /*add_special=*/true));
  if (prompt.empty()) return Status::InvalidArgument("the prompt tokenizes to nothing");
  if (static_cast<int>(prompt.size()) >= n_ctx_) {
    return Status::InvalidArgument(
        "prompt is " + std::to_string(prompt.size()) + " tokens but the context holds " +
        std::to_string(n_ctx_) + " (and needs room to answer); shorten the prompt or raise " +
        "the context size (--ctx-size)");
  }
  return prompt;
}

Result<ChatResponse> LlamaBackend::Chat(const ChatRequest& request) {
  RG_ASSIGN_OR_RETURN(auto responses, ChatBatch({request}));
  return std::move(responses.front());
}

Result<std::vector<ChatResponse>> LlamaBackend::ChatBatch(const std::vector<ChatRequest>& requests) {
  if (requests.empty()) return std::vector<ChatResponse>{};
  // One batch needs one cancel flag (llama_decode's abort callback).
  for (const auto& r : requests) {
    if (r.cancel != requests.front().cancel) return LlmBackend::ChatBatch(requests);  // one at a time
  }
  // A bad request fails here, for its caller alone, before it can join
  // other callers' batch.
  Caller me;
  me.requests = &requests;
  for (const auto& r : requests) {
    RG_ASSIGN_OR_RETURN(std::vector<llama_token> tokens, PromptTokens(r));
    me.tokens.push_back(std::move(tokens));
  }
  std::unique_lock lk(queue_mu_);
  if (running_ || !queue_.empty()) concurrent_ = true;
  queue_.push_back(&me);
  queue_cv_.notify_all();  // a leader waiting for company counts again
  while (!me.done && (running_ || queue_.front() != &me)) queue_cv_.wait(lk);
  if (me.done) return std::move(me.result);
  // This caller leads the next batch: itself and the callers queued behind
  // it with the same cancel flag, up to max_sequences samples (at least its
  // own), after a short wait for callers that arrive together (only once
  // callers have been seen to overlap: one thread alone never waits).
  running_ = true;
  auto samples = [](const Caller* c) {
    int n = 0;
    for (const auto& r : *c->requests) n += r.n;
    return n;
  };
  auto take = [&] {
    std::vector<Caller*> group;
    int total = 0;
    for (Caller* c : queue_) {
      if (c->requests->front().cancel != me.requests->front().cancel) continue;
      if (!group.empty() && total + samples(c) > n_seq_) break;
      group.push_back(c);
      total += samples(c);
    }
    return std::make_pair(group, total);
  };
  if (options_.batch_wait_ms > 0 && n_seq_ > 1 && concurrent_) {
    queue_cv_.wait_for(lk, std::chrono::duration<double, std::milli>(options_.batch_wait_ms),
                       [&] { return take().second >= n_seq_; });
  }
  std::vector<Caller*> group = take().first;
  for (Caller* c : group) queue_.erase(std::find(queue_.begin(), queue_.end(), c));
  lk.unlock();
  Status status = RunCallers(group);
  lk.lock();
  for (Caller* c : group) {
    if (!status.ok()) c->result = status;
    c->done = true;
  }
  running_ = false;
  queue_cv_.notify_all();
  return std::move(me.result);
}

Status LlamaBackend::RunCallers(const std::vector<Caller*>& callers) {
  std::lock_guard lock(mu_);
  cancel_ = callers.front()->requests->front().cancel;
  struct ClearCancel {
    const std::atomic<bool>** p;
    ~ClearCancel() { *p = nullptr; }
  } clear_cancel{&cancel_};

  // The distinct prompts (same tokens and shape: one prompt, its samples
  // share it), and every sample in caller and request order.
  std::vector<Prompt> prompts;
  std::vector<int> prompt_of;  // per request, callers one after another
  std::vector<SampleSpec> specs;
  for (Caller* c : callers) {
    for (size_t k = 0; k < c->requests->size(); ++k) {
      const ChatRequest& r = (*c->requests)[k];
      std::vector<llama_token>& tokens = c->tokens[k];
      int p = 0;
      while (p < static_cast<int>(prompts.size()) &&
             (prompts[p].tokens != tokens || !SameShape(*prompts[p].shape, r.shape))) {
        ++p;
      }
      if (p == static_cast<int>(prompts.size())) prompts.push_back({std::move(tokens), &r.shape});
      prompt_of.push_back(p);
      for (int i = 0; i < r.n; ++i) specs.push_back({p, &r.sampling, r.sampling.seed + i});
    }
  }
  spdlog::debug("llama: one batch of {} samples, {} prompts, from {} callers", specs.size(), prompts.size(),
                callers.size());
  progress_ = {};
  progress_.fn = callers.front()->requests->front().on_progress;
  for (const auto& spec : specs) progress_.max_tokens += spec.sampling->max_tokens;
  struct ClearProgress {
    Progress* p;
    ~ClearProgress() { *p = {}; }
  } clear_progress{&progress_};
  RG_ASSIGN_OR_RETURN(SampleRun run, RunSamples(prompts, specs));

  // The samples go back to their requests in order; a prompt's evaluation is
  // counted in the first response with that prompt.
  std::vector<bool> counted(prompts.size(), false);
  size_t next = 0, k = 0;
  for (Caller* c : callers) {
    std::vector<ChatResponse> out;
    for (const ChatRequest& r : *c->requests) {
      const int p = prompt_of[k++];
      ChatResponse response;
      response.model = model_id_;
      response.tokens_prompt = static_cast<int>(prompts[p].tokens.size());
      if (!counted[p]) {
        counted[p] = true;
        response.tokens_prompt_evaluated = run.tokens_evaluated[p];
        response.time_prompt_ms = run.time_prompt_ms[p];
      }
      for (int i = 0; i < r.n && next < run.completions.size(); ++i) {
        Completion& done = run.completions[next++];
        response.tokens_generated += done.tokens_generated;
        response.time_generation_ms += done.time_generation_ms;
        response.choices.push_back(std::move(done));
      }
      if (response.choices.empty()) response.choices.push_back({"", FinishReason::kCancelled, 0, 0, {}});
      out.push_back(std::move(response));
    }
    c->result = std::move(out);
  }
  return Status::Ok();
}

}  // namespace

int64_t LlamaDecodeCalls(const LlmBackend& backend) {
  if (auto* b = dynamic_cast<const LlamaBackend*>(&backend)) return b->decode_calls();
  return -1;
}

Status RequantizeGguf(const fs::path& in, const fs::path& out, const std::string& type,
                      int threads) {
  llama_ftype ftype;
  std::string t = ToLower(type);
  if (t == "q8_0") {
    ftype = LLAMA_FTYPE_MOSTLY_Q8_0;
  } else if (t == "f16") {
    ftype = LLAMA_FTYPE_MOSTLY_F16;
  } else {
    return Status::InvalidArgument("requantize: unknown weight type '" + type +
                                   "' (known: q8_0, f16)");
  }
  std::error_code ec;
  if (!fs::is_regular_file(in, ec)) return Status::NotFound(in.string() + ": no such model file");
  InitLlamaOnce();
  llama_model_quantize_params p = llama_model_quantize_default_params();
  p.nthread = threads > 0 ? threads : PhysicalCores();
  p.ftype = ftype;
  p.allow_requantize = true;
  const fs::path part = out.string() + ".part";
  uint32_t rc = llama_model_quantize(in.c_str(), part.c_str(), &p);
  if (rc != 0) {
    fs::remove(part, ec);
    return Status::Internal(in.string() + ": llama_model_quantize to " + t + " failed (" +
                            std::to_string(rc) + "; --log-level debug shows why)");
  }
  fs::rename(part, out, ec);
  if (ec) {
    fs::remove(part, ec);
    return Status::IoError(out.string() + ": cannot rename the requantized file into place");
  }
  return Status::Ok();
}

}  // namespace llm

bool LlamaAvailable() { return true; }

std::optional<LlamaInfo> GetLlamaInfo(const LlmBackend& backend) {
  if (auto* b = dynamic_cast<const llm::LlamaBackend*>(&backend)) return b->info();
  return std::nullopt;
}

Result<int> CountTokens(LlmBackend& backend, const std::string& text) {
  auto* b = dynamic_cast<llm::LlamaBackend*>(&backend);
  if (b == nullptr) return Status::InvalidArgument(backend.Name() + " cannot count tokens");
  RG_ASSIGN_OR_RETURN(auto tokens, b->Tokenize(text, false));
  return static_cast<int>(tokens.size());
}

Result<std::unique_ptr<LlmBackend>> NewLlamaBackend(const LlamaOptions& options) {
  std::error_code ec;
  if (options.model_path.empty()) return Status::InvalidArgument("no model file given");
  if (!fs::is_regular_file(options.model_path, ec)) {
    return Status::NotFound(options.model_path.string() + ": no such model file");
  }
  {
    std::ifstream in(options.model_path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    if (std::memcmp(magic, "GGUF", 4) != 0) {
      return Status::InvalidArgument(options.model_path.string() + ": not a GGUF file");
    }
  }
  llm::InitLlamaOnce();
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = options.gpu_layers;
  llama_model_ptr model(llama_model_load_from_file(options.model_path.c_str(), mp));
  if (!model) {
    return Status::InvalidArgument(options.model_path.string() +
                                   ": llama.cpp could not load this model (unsupported "
                                   "architecture or corrupt file; --log-level debug shows why)");
  }
  auto backend = std::make_unique<llm::LlamaBackend>(options, std::move(model));
  RG_RETURN_IF_ERROR(backend->Init());
  return std::unique_ptr<LlmBackend>(std::move(backend));
}

}  // namespace regrapht
