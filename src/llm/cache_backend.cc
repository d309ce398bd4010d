// The response cache: a decorator that answers repeated requests from SQLite.
//
// Table llm_cache(key PRIMARY KEY, backend, model, response JSON, created).
// The key hashes everything that can change the answer (see CacheKey), so a
// hit is the answer the inner backend gave to the same question with the
// same seed. Sampling with temperature > 0 and a fixed seed is reproducible
// on the embedded backend only up to floating-point effects of batching; the
// cache makes a resumed run see exactly the first run's replies.
#include <chrono>
#include <mutex>
#include <optional>

#include <cstdio>

#include "core/hash.h"
#include "core/log.h"
#include "core/json_util.h"
#include "core/sqlite_db.h"
#include "llm/request_key.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

Json ResponseToJson(const ChatResponse& r) {
  Json j;
  j["model"] = r.model;
  j["tokens_prompt"] = r.tokens_prompt;
  j["tokens_prompt_evaluated"] = r.tokens_prompt_evaluated;
  j["tokens_generated"] = r.tokens_generated;
  j["time_prompt_ms"] = r.time_prompt_ms;
  j["time_generation_ms"] = r.time_generation_ms;
  j["choices"] = Json::array();
  for (const auto& c : r.choices) {
    j["choices"].push_back({{"text", c.text},
                            {"finish_reason", FinishReasonName(c.finish_reason)},
                            {"tokens_generated", c.tokens_generated},
                            {"time_generation_ms", c.time_generation_ms}});
    if (!c.wrapped_up.empty()) j["choices"].back()["wrapped_up"] = c.wrapped_up;
  }
  return j;
}

Result<ChatResponse> ResponseFromJson(const std::string& text) {
  RG_ASSIGN_OR_RETURN(Json j, ParseJson(text, "llm_cache"));
  try {
    ChatResponse r;
    r.model = j.at("model").get<std::string>();
    r.tokens_prompt = j.at("tokens_prompt").get<int>();
    r.tokens_prompt_evaluated = j.at("tokens_prompt_evaluated").get<int>();
    r.tokens_generated = j.at("tokens_generated").get<int>();
    r.time_prompt_ms = j.at("time_prompt_ms").get<double>();
    r.time_generation_ms = j.at("time_generation_ms").get<double>();
    for (const auto& c : j.at("choices")) {
      Completion comp;
      comp.text = c.at("text").get<std::string>();
      std::string reason = c.at("finish_reason").get<std::string>();
      comp.finish_reason = reason == "length"         ? FinishReason::kLength
                           : reason == "context_full" ? FinishReason::kContextFull
                           : reason == "cancelled"    ? FinishReason::kCancelled
                                                      : FinishReason::kStop;
      comp.tokens_generated = c.at("tokens_generated").get<int>();
      comp.time_generation_ms = c.at("time_generation_ms").get<double>();
      comp.wrapped_up = c.value("wrapped_up", std::string());
      r.choices.push_back(std::move(comp));
    }
    return r;
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("llm_cache: bad cached response: ") + e.what());
  }
}

class CachedBackend final : public LlmBackend {
 public:
  CachedBackend(std::unique_ptr<LlmBackend> inner, std::unique_ptr<SqliteDb> db)
      : inner_(std::move(inner)), db_(std::move(db)) {}

  Result<ChatResponse> Chat(const ChatRequest& request) override {
    RG_ASSIGN_OR_RETURN(auto responses, ChatBatch({request}));
    return std::move(responses.front());
  }

  // Hits come from the database; the misses go to the inner backend as one
  // batch (the embedded backend decodes them together).
  Result<std::vector<ChatResponse>> ChatBatch(const std::vector<ChatRequest>& requests) override {
    std::vector<std::optional<ChatResponse>> out(requests.size());
    std::vector<std::string> keys;
    std::vector<ChatRequest> misses;
    std::vector<size_t> miss_at;
    for (size_t i = 0; i < requests.size(); ++i) {
      keys.push_back(CacheKey(*inner_, requests[i]));
      RG_ASSIGN_OR_RETURN(out[i], Lookup(keys.back()));
      if (!out[i]) {
        misses.push_back(requests[i]);
        miss_at.push_back(i);
      }
    }
    if (!misses.empty()) {
      RG_ASSIGN_OR_RETURN(auto answers, inner_->ChatBatch(misses));
      if (answers.size() != misses.size()) return Status::Internal(inner_->Name() + ": ChatBatch lost replies");
      for (size_t j = 0; j < misses.size(); ++j) {
        RG_RETURN_IF_ERROR(Store(keys[miss_at[j]], misses[j], answers[j]));
        out[miss_at[j]] = std::move(answers[j]);
      }
    }
    std::vector<ChatResponse> result;
    for (auto& r : out) result.push_back(std::move(*r));
    return result;
  }

  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override {
    return inner_->Embed(texts);
  }
  std::string Name() const override { return "cached(" + inner_->Name() + ")"; }
  std::string ModelId() const override { return inner_->ModelId(); }

 private:
  Result<std::optional<ChatResponse>> Lookup(const std::string& key) {
    std::lock_guard lock(mu_);
    RG_ASSIGN_OR_RETURN(auto get, db_->Prepare("SELECT response FROM llm_cache WHERE key = ?1"));
    RG_RETURN_IF_ERROR(get.Bind(1, key));
    RG_ASSIGN_OR_RETURN(bool row, get.Step());
    if (!row) return std::optional<ChatResponse>();
    auto cached = ResponseFromJson(get.ColumnText(0));
    if (!cached.ok()) {
      spdlog::warn("{}", cached.status().ToString());  // ask again
      return std::optional<ChatResponse>();
    }
    cached->from_cache = true;
    spdlog::info("model response cache hit ({} choice(s), key {})", cached->choices.size(), key.substr(0, 16));
    return std::optional<ChatResponse>(std::move(*cached));
  }

  // Stores a complete answer; cancelled or short ones are not kept.
  Status Store(const std::string& key, const ChatRequest& request, const ChatResponse& response) {
    bool complete = static_cast<int>(response.choices.size()) == request.n;
    for (const auto& c : response.choices) {
      if (c.finish_reason == FinishReason::kCancelled) complete = false;
    }
    if (!complete) return Status::Ok();
    std::lock_guard lock(mu_);
    RG_ASSIGN_OR_RETURN(auto put, db_->Prepare(
        "INSERT OR REPLACE INTO llm_cache(key, backend, model, response, created) "
        "VALUES(?1, ?2, ?3, ?4, ?5)"));
    RG_RETURN_IF_ERROR(put.Bind(1, key));
    RG_RETURN_IF_ERROR(put.Bind(2, inner_->Name()));
    RG_RETURN_IF_ERROR(put.Bind(3, inner_->ModelId()));
    RG_RETURN_IF_ERROR(put.Bind(4, JsonLine(ResponseToJson(response))));
    RG_RETURN_IF_ERROR(put.Bind(
        5, std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()));
    return put.Run();
  }

  std::unique_ptr<LlmBackend> inner_;
  std::unique_ptr<SqliteDb> db_;
  std::mutex mu_;
};

// The request's fields in the order CacheKey has always hashed them.
void AddRequest(const ChatRequest& request, Hasher& h) {
  h.Add(static_cast<int64_t>(request.messages.size()));
  for (const auto& m : request.messages) h.Add(RoleName(m.role)).Add(m.content);
  const SamplingParams& s = request.sampling;
  // Floats hashed through their decimal form so 0.7f keys the same everywhere.
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g/%.6g", s.temperature, s.top_p);
  h.Add(buf).Add(int64_t{s.top_k}).Add(int64_t{s.max_tokens});
  h.Add(static_cast<int64_t>(s.seed)).Add(int64_t{s.ignore_eos});
  h.Add(static_cast<int64_t>(s.stop.size()));
  for (const auto& stop : s.stop) h.Add(stop);
  h.Add(int64_t{request.n});
  // Keyed only when on, so that earlier keys stay as they were.
  if (s.repetition_control()) {
    std::snprintf(buf, sizeof buf, "%.6g/%d/%.6g/%.6g/%d", s.repeat_penalty, s.repeat_last_n,
                  s.dry_multiplier, s.dry_base, s.dry_allowed_length);
    h.Add("repetition").Add(buf);
  }
  // Shaping is keyed only when used, so that unshaped keys stay as they were.
  if (!request.shape.empty()) {
    h.Add("shape").Add(request.shape.prefill).Add(request.shape.grammar).Add(request.shape.close);
    if (!request.shape.wrap_up.empty()) {
      h.Add("wrap-up").Add(request.shape.wrap_up).Add(std::to_string(request.shape.wrap_up_tokens));
      h.Add(request.shape.wrap_up_launch);
    }
  }
}

}  // namespace

std::string RequestKey(const ChatRequest& request) {
  Hasher h;
  h.Add("regrapht-request-v1");
  AddRequest(request, h);
  return h.Hex();
}

std::string CacheKey(const LlmBackend& backend, const ChatRequest& request) {
  Hasher h;
  h.Add("regrapht-llm-cache-v1").Add(backend.Name()).Add(backend.ModelId());
  AddRequest(request, h);
  return h.Hex();
}

Result<std::unique_ptr<LlmBackend>> NewCachedBackend(std::unique_ptr<LlmBackend> inner,
                                                     const std::filesystem::path& db_path) {
  if (!inner) return Status::InvalidArgument("no backend to cache");
  RG_ASSIGN_OR_RETURN(auto db, SqliteDb::Open(db_path));
  RG_RETURN_IF_ERROR(db->Exec(
      "CREATE TABLE IF NOT EXISTS llm_cache("
      "  key TEXT PRIMARY KEY, backend TEXT NOT NULL, model TEXT NOT NULL,"
      "  response TEXT NOT NULL, created REAL NOT NULL)"));
  return std::unique_ptr<LlmBackend>(new CachedBackend(std::move(inner), std::move(db)));
}

}  // namespace regrapht
