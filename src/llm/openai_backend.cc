// The OpenAI-compatible backend: POST {base}/chat/completions over libcurl.
//
// Retries (up to max_retries more attempts) on connection errors, 429 and
// 5xx, waiting backoff_initial_s * 2^attempt (capped at backoff_max_s) with
// "equal jitter" (half fixed, half random), or the server's Retry-After
// (seconds; capped the same way) on a 429/503. A read timeout is not retried:
// a server that is busy generating will be as slow again. 401/403, 404 and
// other 4xx are returned at once with the server's own message.
//
// A whole request, retries and their waits included, has a deadline
// (OpenAiOptions::request_timeout_s): a server that drips bytes slowly enough
// never trips the read timeout, so without it a request could last forever.
//
// A counting semaphore bounds the requests this backend has in flight, so a
// parallel search cannot flood a local server.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <semaphore>
#include <thread>

#include <fmt/format.h>

#include "core/json_util.h"
#include "core/log.h"
#include "core/rng.h"
#include "core/strings.h"
#include "llm/http.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::string EnvOr(const std::string& value, const char* env) {
  if (!value.empty()) return value;
  const char* v = std::getenv(env);
  return v ? v : "";
}

// The server's {"error": {"message": ...}} or {"error": "..."} or the body.
std::string ServerMessage(const std::string& body) {
  try {
    Json j = Json::parse(body);
    if (j.contains("error")) {
      const Json& e = j["error"];
      if (e.is_string()) return e.get<std::string>();
      if (e.is_object() && e.contains("message") && e["message"].is_string()) {
        return e["message"].get<std::string>();
      }
    }
    if (j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
  } catch (const std::exception&) {
  }
  return TruncateMiddle(std::string(Trim(body)), 300);
}

class OpenAiBackend final : public LlmBackend {
 public:
  explicit OpenAiBackend(const OpenAiOptions& options)
      : options_(options),
        in_flight_(std::max(1, options.max_in_flight)),
        rng_(static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count())) {
    while (!options_.base_url.empty() && options_.base_url.back() == '/') {
      options_.base_url.pop_back();
    }
  }

  Result<ChatResponse> Chat(const ChatRequest& request) override;
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override;
  std::string Name() const override { return "openai"; }
  std::string ModelId() const override {
    return options_.model_id.empty() ? options_.model + "@" + options_.base_url : options_.model_id;
  }

 private:
  // POSTs `body` to {base}/{path} with retries; returns the 200 response's body.
  Result<std::string> Post(const std::string& path, const std::string& body,
                           const std::atomic<bool>* cancel);
  Result<ChatResponse> ChatOnce(const ChatRequest& request, int n, uint64_t seed);
  double Backoff(int attempt);
  bool SleepCancellable(double seconds, const std::atomic<bool>* cancel);

  OpenAiOptions options_;
  std::counting_semaphore<1 << 16> in_flight_;
  std::mutex rng_mu_;
  Rng rng_;
};

double OpenAiBackend::Backoff(int attempt) {
  double base = std::min(options_.backoff_max_s, options_.backoff_initial_s * std::pow(2, attempt));
  std::lock_guard lock(rng_mu_);
  return base / 2 + base / 2 * rng_.Uniform();
}

bool OpenAiBackend::SleepCancellable(double seconds, const std::atomic<bool>* cancel) {
  auto end = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                      std::chrono::duration<double>(seconds));
  while (SteadyClock::now() < end) {
    if (cancel != nullptr && cancel->load()) return false;
    SteadyClock::duration left = end - SteadyClock::now();
    std::this_thread::sleep_for(
        std::min<SteadyClock::duration>(left, std::chrono::milliseconds(20)));
  }
  return true;
}

Result<std::string> OpenAiBackend::Post(const std::string& path, const std::string& body,
                                        const std::atomic<bool>* cancel) {
  llm::HttpRequest req;
  req.method = "POST";
  req.url = options_.base_url + "/" + path;
  req.headers = {"Content-Type: application/json", "Accept: application/json"};
  if (!options_.api_key.empty()) req.headers.push_back("Authorization: Bearer " + options_.api_key);
  req.body = body;
  req.connect_timeout_s = options_.connect_timeout_s;
  req.read_timeout_s = options_.read_timeout_s;
  req.cancel = cancel;

  const bool has_deadline = options_.request_timeout_s > 0;
  const auto deadline = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                                 std::chrono::duration<double>(options_.request_timeout_s));
  auto seconds_left = [&] { return std::chrono::duration<double>(deadline - SteadyClock::now()).count(); };
  auto past_deadline = [&](const Status& why) {
    std::string s = "POST " + req.url + ": no complete reply within " + fmt::format("{:g}", options_.request_timeout_s) +
                    " s (the request deadline; raise it with --request-timeout)";
    if (!why.ok()) s += "; last error: " + why.message();
    return Status::DeadlineExceeded(s);
  };

  Status last;
  for (int attempt = 0; attempt <= options_.max_retries; ++attempt) {
    double wait = -1;  // < 0: do not retry
    Result<llm::HttpResponse> r = [&]() -> Result<llm::HttpResponse> {
      in_flight_.acquire();
      // The deadline counts from the call, a wait for a free slot included.
      if (has_deadline && seconds_left() <= 0) {
        in_flight_.release();
        return past_deadline(last);
      }
      if (has_deadline) req.total_timeout_s = seconds_left();
      auto result = llm::HttpFetch(req);
      in_flight_.release();
      return result;
    }();
    if (!r.ok()) {
      if (has_deadline && r.status().code() == Status::Code::kDeadlineExceeded && seconds_left() <= 0) {
        return past_deadline(last);
      }
      if (r.status().code() != Status::Code::kUnavailable) return r.status();
      last = r.status();
      wait = Backoff(attempt);
    } else {
      const long code = r->status;
      if (code >= 200 && code < 300) return std::move(r->body);
      std::string what = "POST " + req.url + ": HTTP " + std::to_string(code) + ": " +
                         ServerMessage(r->body);
      if (code == 401 || code == 403) {
        return Status::PermissionDenied(what + " (check OPENAI_API_KEY / --api-key)");
      }
      if (code == 404) {
        return Status::NotFound(what + " (is the base URL right, ending in /v1, and is model '" +
                                options_.model + "' served there?)");
      }
      if (code == 429 || code >= 500) {
        last = Status::Unavailable(what);
        wait = Backoff(attempt);
        if (auto ra = ParseDouble(Trim(r->Header("retry-after"))); ra && *ra >= 0) {
          wait = std::min(*ra, options_.backoff_max_s);
        }
      } else {
        return Status::InvalidArgument(what);
      }
    }
    if (attempt == options_.max_retries) break;
    if (has_deadline && seconds_left() <= wait) {
      return past_deadline(last);
    }
    spdlog::info("{}; retrying in {:.2f} s ({}/{})", last.message(), wait, attempt + 1,
                 options_.max_retries);
    if (!SleepCancellable(wait, cancel)) return Status::Cancelled("cancelled while waiting to retry");
  }
  return last.WithContext("gave up after " + std::to_string(options_.max_retries + 1) +
                          " attempts");
}

// Repetition control reaches a server only in the fields of a known server
// kind (api.openai.com refuses fields it does not know): llama-server takes
// llama.cpp's sampler parameters, vLLM its repetition_penalty (no DRY).
void AddRepetitionFields(const SamplingParams& s, const std::string& server, Json& body) {
  if (!s.repetition_control()) return;
  if (server == "llama-server") {
    body["repeat_penalty"] = s.repeat_penalty;
    body["repeat_last_n"] = s.repeat_last_n;
    body["dry_multiplier"] = s.dry_multiplier;
    body["dry_base"] = s.dry_base;
    body["dry_allowed_length"] = s.dry_allowed_length;
  } else if (server == "vllm" && s.repeat_penalty != 1.0f) {
    body["repetition_penalty"] = s.repeat_penalty;
  }
}

// The body of a chat/completions request for n samples of `request`.
Json ChatBody(const OpenAiOptions& options, const ChatRequest& request, int n, uint64_t seed) {
  const SamplingParams& s = request.sampling;
  Json body;
  body["model"] = options.model;
  body["messages"] = Json::array();
  for (const auto& m : request.messages) {
    body["messages"].push_back({{"role", RoleName(m.role)}, {"content", m.content}});
  }
  body["temperature"] = std::max(0.0f, s.temperature);
  if (s.top_p < 1) body["top_p"] = s.top_p;
  if (s.top_k > 0 && options.send_top_k) body["top_k"] = s.top_k;
  body["max_tokens"] = s.max_tokens;
  body["seed"] = seed;
  if (n != 1) body["n"] = n;
  if (!s.stop.empty()) body["stop"] = s.stop;
  if (s.ignore_eos) body["ignore_eos"] = true;  // vLLM and llama-server extension
  AddRepetitionFields(s, options.guided, body);
  if (!request.shape.grammar.empty()) {
    if (options.guided == "llama-server") body["grammar"] = request.shape.grammar;
    if (options.guided == "vllm")
      body["guided_grammar"] = request.shape.grammar;  // xgrammar takes GBNF
  }
  return body;
}

// The completions of a reply's "choices"; adds their text lengths to
// *total_chars. Throws on a shape that is not a chat completion's.
std::vector<Completion> ParseChoices(const Json& choices, size_t* total_chars) {
  if (!choices.is_array() || choices.empty()) throw std::runtime_error("no choices");
  std::vector<Completion> out;
  for (const auto& c : choices) {
    Completion comp;
    const Json& msg = c.at("message");
    // The reply's text must be a string: a number, a list or no content at
    // all is a broken server, not an empty reply.
    if (!msg.is_object() || !msg.contains("content"))
      throw std::runtime_error("a choice's message has no content");
    const Json& content = msg["content"];
    if (!content.is_string()) {
      throw std::runtime_error(std::string("a choice's message content is ") + content.type_name() +
                               ", not a string");
    }
    comp.text = content.get<std::string>();
    std::string reason = c.contains("finish_reason") && c["finish_reason"].is_string()
                             ? c["finish_reason"].get<std::string>()
                             : "stop";
    comp.finish_reason = reason == "length" ? FinishReason::kLength : FinishReason::kStop;
    *total_chars += comp.text.size();
    out.push_back(std::move(comp));
  }
  return out;
}

// The response in chat completion `j` (its model defaulting to `model`;
// its generation time `wall_ms` unless the server reports timings). Throws
// on a shape that is not a chat completion's.
ChatResponse ParseChatCompletion(const Json& j, const std::string& model, double wall_ms) {
  ChatResponse r;
  r.model = j.value("model", model);
  size_t total_chars = 0;
  r.choices = ParseChoices(j.at("choices"), &total_chars);
  if (j.contains("usage") && j["usage"].is_object()) {
    r.tokens_prompt = j["usage"].value("prompt_tokens", 0);
    r.tokens_generated = j["usage"].value("completion_tokens", 0);
  }
  r.tokens_prompt_evaluated = r.tokens_prompt;
  // Per-choice token counts are not reported: share the total by length.
  for (auto& c : r.choices) {
    c.tokens_generated =
        r.choices.size() == 1
            ? r.tokens_generated
            : static_cast<int>(std::lround(static_cast<double>(r.tokens_generated) * c.text.size() /
                                           std::max<size_t>(1, total_chars)));
  }
  if (j.contains("timings") && j["timings"].is_object()) {  // llama-server
    const Json& t = j["timings"];
    r.time_prompt_ms = t.value("prompt_ms", 0.0);
    r.time_generation_ms = t.value("predicted_ms", 0.0);
    if (t.contains("prompt_n")) r.tokens_prompt_evaluated = t.value("prompt_n", r.tokens_prompt);
  } else {
    r.time_generation_ms = wall_ms;
  }
  for (auto& c : r.choices) {
    c.time_generation_ms = r.time_generation_ms / static_cast<double>(r.choices.size());
  }
  return r;
}

Result<ChatResponse> OpenAiBackend::ChatOnce(const ChatRequest& request, int n, uint64_t seed) {
  Json body = ChatBody(options_, request, n, seed);
  auto t0 = SteadyClock::now();
  auto text = Post("chat/completions", JsonLine(body), request.cancel);
  if (!text.ok() && text.status().code() == Status::Code::kCancelled) {
    ChatResponse cancelled;
    cancelled.model = options_.model;
    cancelled.choices.push_back({"", FinishReason::kCancelled, 0, 0, {}});
    return cancelled;
  }
  if (!text.ok()) return text.status();
  double wall_ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();

  std::string where = options_.base_url + "/chat/completions";
  Json j;
  try {
    j = Json::parse(*text);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(where + ": invalid JSON from the server: " + e.what() +
                                   "; body: " + TruncateMiddle(*text, 200));
  }
  if (!j.is_object() || !j.contains("choices")) {
    return Status::InvalidArgument(where + ": the reply is not a chat completion (no \"choices\"; is the endpoint "
                                           "the server's OpenAI-compatible /v1 base URL?); body: " +
                                   TruncateMiddle(*text, 200));
  }
  try {
    return ParseChatCompletion(j, options_.model, wall_ms);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(where + ": unexpected response shape (" + e.what() +
                                   "); body: " + TruncateMiddle(*text, 200));
  }
}

Result<ChatResponse> OpenAiBackend::Chat(const ChatRequest& request) {
  if (request.messages.empty()) return Status::InvalidArgument("chat request has no messages");
  if (request.n < 1) return Status::InvalidArgument("chat request asks for n < 1 samples");
  if (!request.shape.prefill.empty() || !request.shape.close.empty()) {
    return Status::InvalidArgument("the HTTP backend cannot prefill the reply or stop after a closing string "
                                   "(output shaping: use --prefill off with --endpoint)");
  }
  if (options_.use_n || request.n == 1) {
    return ChatOnce(request, request.n, request.sampling.seed);
  }
  ChatResponse all;
  for (int i = 0; i < request.n; ++i) {
    RG_ASSIGN_OR_RETURN(ChatResponse one, ChatOnce(request, 1, request.sampling.seed + i));
    all.model = one.model;
    all.tokens_prompt = one.tokens_prompt;
    all.tokens_prompt_evaluated += one.tokens_prompt_evaluated;
    all.tokens_generated += one.tokens_generated;
    all.time_prompt_ms += one.time_prompt_ms;
    all.time_generation_ms += one.time_generation_ms;
    bool cancelled = one.choices.front().finish_reason == FinishReason::kCancelled;
    all.choices.push_back(std::move(one.choices.front()));
    if (cancelled) break;
  }
  return all;
}

Result<std::vector<std::vector<float>>> OpenAiBackend::Embed(
    const std::vector<std::string>& texts) {
  Json body{{"model", options_.model}, {"input", texts}};
  auto text = Post("embeddings", JsonLine(body), nullptr);
  if (!text.ok()) {
    if (text.status().code() == Status::Code::kNotFound) {
      return Status::Unimplemented("the server does not offer /v1/embeddings: " +
                                   text.status().message());
    }
    return text.status();
  }
  try {
    Json j = Json::parse(*text);
    std::vector<std::vector<float>> out(texts.size());
    for (const auto& d : j.at("data")) {
      size_t index = d.value("index", size_t{0});
      if (index >= out.size()) throw std::runtime_error("index out of range");
      out[index] = d.at("embedding").get<std::vector<float>>();
    }
    return out;
  } catch (const std::exception& e) {
    return Status::InvalidArgument(options_.base_url + "/embeddings: bad response: " + e.what());
  }
}

}  // namespace

Result<std::unique_ptr<LlmBackend>> NewOpenAiBackend(const OpenAiOptions& options) {
  OpenAiOptions o = options;
  o.base_url = EnvOr(o.base_url, "OPENAI_BASE_URL");
  o.api_key = EnvOr(o.api_key, "OPENAI_API_KEY");
  if (o.base_url.empty()) {
    return Status::InvalidArgument(
        "no endpoint: pass --endpoint URL or set OPENAI_BASE_URL (e.g. http://localhost:8000/v1)");
  }
  if (!StartsWith(o.base_url, "http://") && !StartsWith(o.base_url, "https://")) {
    return Status::InvalidArgument("endpoint must start with http:// or https://: " + o.base_url);
  }
  if (o.model.empty()) return Status::InvalidArgument("no model name: pass --model-name NAME");
  if (o.guided != "none" && o.guided != "llama-server" && o.guided != "vllm") {
    return Status::InvalidArgument("guided decoding \"" + o.guided + "\": expected none, llama-server or vllm");
  }
  return std::unique_ptr<LlmBackend>(new OpenAiBackend(o));
}

}  // namespace regrapht
