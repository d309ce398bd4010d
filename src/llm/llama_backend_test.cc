// The embedded backend on a tiny random-weight model (tiny_gguf.h): real
// llama.cpp loading, templates, sampling, KV-prefix reuse and overflow rules.
#include "llm/llama_backend.h"

#include <gtest/gtest.h>
#include <llama.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <sstream>
#include <cmath>
#include <fstream>
#include <set>
#include <thread>

#include "core/scanner.h"
#include "llm/extract.h"
#include "llm/models.h"
#include "llm/shape.h"
#include "llm/tiny_gguf.h"
#include "regrapht/llm.h"

namespace regrapht::llm {
namespace {

class LlamaBackendTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto dir = TempDir::Create("rgtiny");
    ASSERT_TRUE(dir.ok());
    dir_ = new TempDir(std::move(*dir));
    TinyGgufOptions o;
    o.vocab_gguf = fs::path(REGRAPHT_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-spm.gguf";
    ASSERT_TRUE(fs::exists(o.vocab_gguf))
        << o.vocab_gguf << " is missing: run scripts/setup-llama.sh (it installs the vocab files)";
    Status s = WriteTinyGguf(dir_->path() / "tiny.gguf", o);
    ASSERT_TRUE(s.ok()) << s.ToString();
    o.chat_template = false;
    s = WriteTinyGguf(dir_->path() / "tiny-notemplate.gguf", o);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static fs::path Model() { return dir_->path() / "tiny.gguf"; }

  static std::unique_ptr<LlmBackend> Load(LlamaOptions o = {}) {
    if (o.model_path.empty()) o.model_path = Model();
    if (o.context_size == 4096) o.context_size = 512;
    if (o.threads == 0) o.threads = 1;  // the tiny model gains nothing from more
    auto b = NewLlamaBackend(o);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    return b.ok() ? std::move(*b) : nullptr;
  }

  static ChatRequest Request(std::string user, int max_tokens = 16, float temperature = 0) {
    ChatRequest r;
    r.messages = {{Role::kSystem, "You write CUDA kernels. Answer with code only."},
                  {Role::kUser, std::move(user)}};
    r.sampling.max_tokens = max_tokens;
    r.sampling.temperature = temperature;
    r.sampling.ignore_eos = true;
    return r;
  }

  static TempDir* dir_;
};
TempDir* LlamaBackendTest::dir_ = nullptr;

TEST_F(LlamaBackendTest, LoadsAndDescribesTheModel) {
  auto b = Load();
  ASSERT_TRUE(b);
  EXPECT_TRUE(LlamaAvailable());
  EXPECT_EQ(b->Name(), "llama");
  EXPECT_NE(b->ModelId().find("tiny.gguf:"), std::string::npos);
  auto info = GetLlamaInfo(*b);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->chat_template, "model");
  EXPECT_EQ(info->context_size, 512);
  EXPECT_EQ(info->threads, 1);
  EXPECT_GT(info->parameters, 2'000'000u);  // 2 x 32000 x 32 embeddings
}

TEST_F(LlamaBackendTest, EmbedsTextsAsMeanPooledVectors) {
  // The tiny model's hidden size is 32: one finite, non-zero vector per
  // text, the same text the same vector (also after a chat request), other
  // texts other vectors.
  auto b = Load();
  ASSERT_TRUE(b);
  auto v = b->Embed({"for (int i = 0; i < n; ++i) y[i] += a * x[i];", "__global__ void k() {}", "x"});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ASSERT_EQ(v->size(), 3u);
  for (const auto& e : *v) {
    ASSERT_EQ(e.size(), 32u);
    double norm = 0;
    for (float x : e) {
      ASSERT_TRUE(std::isfinite(x));
      norm += static_cast<double>(x) * x;
    }
    EXPECT_GT(norm, 0);
  }
  EXPECT_NE((*v)[0], (*v)[1]);
  ASSERT_TRUE(b->Chat(Request("hello", 4)).ok());
  auto again = b->Embed({"for (int i = 0; i < n; ++i) y[i] += a * x[i];"});
  ASSERT_TRUE(again.ok());
  for (size_t i = 0; i < 32; ++i) EXPECT_NEAR((*again)[0][i], (*v)[0][i], 1e-4);
  // A long text is cut to the embedding context, not refused.
  std::string lng;
  for (int i = 0; i < 3000; ++i) lng += "y[i] = x[i]; ";
  auto cut = b->Embed({lng});
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_EQ((*cut)[0].size(), 32u);
}

TEST_F(LlamaBackendTest, MissingOrBadFileIsAStatus) {
  LlamaOptions o;
  o.model_path = "/nonexistent/model.gguf";
  EXPECT_EQ(NewLlamaBackend(o).status().code(), Status::Code::kNotFound);
  auto dir = TempDir::Create("rgbad");
  ASSERT_TRUE(WriteFile(dir->path() / "x.gguf", "not a model").ok());
  o.model_path = dir->path() / "x.gguf";
  EXPECT_EQ(NewLlamaBackend(o).status().code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(WriteFile(dir->path() / "y.gguf", std::string("GGUF\3\0\0\0garbage", 15)).ok());
  o.model_path = dir->path() / "y.gguf";
  EXPECT_EQ(NewLlamaBackend(o).status().code(), Status::Code::kInvalidArgument);
}

TEST_F(LlamaBackendTest, AppliesTheModelsChatTemplate) {
  auto b = Load();
  ChatRequest r = Request("Write a vector add kernel.", 4);
  auto resp = b->Chat(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  std::string chatml =
      "<|im_start|>system\nYou write CUDA kernels. Answer with code only.<|im_end|>\n"
      "<|im_start|>user\nWrite a vector add kernel.<|im_end|>\n<|im_start|>assistant\n";
  auto n = CountTokens(*b, chatml);
  ASSERT_TRUE(n.ok());
  // +1: this vocabulary adds a BOS token.
  EXPECT_EQ(resp->tokens_prompt, *n + 1);

  LlamaOptions o;
  o.chat_template = "llama3";
  auto llama3 = Load(o);
  auto resp3 = llama3->Chat(r);
  ASSERT_TRUE(resp3.ok());
  EXPECT_NE(resp3->tokens_prompt, resp->tokens_prompt);
}

TEST_F(LlamaBackendTest, FallsBackToChatMlWithoutATemplate) {
  LlamaOptions o;
  o.model_path = dir_->path() / "tiny-notemplate.gguf";
  auto b = Load(o);
  ASSERT_TRUE(b);
  EXPECT_EQ(GetLlamaInfo(*b)->chat_template, "chatml (model has none)");
  auto with = Load();
  ChatRequest r = Request("hello", 2);
  EXPECT_EQ(b->Chat(r)->tokens_prompt, with->Chat(r)->tokens_prompt);
  o.chat_template = "no-such-template";
  EXPECT_EQ(NewLlamaBackend(o).status().code(), Status::Code::kInvalidArgument);
}

TEST_F(LlamaBackendTest, GeneratesAndReportsCountsAndTimes) {
  auto b = Load();
  auto resp = b->Chat(Request("Write a kernel.", 12));
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->choices.size(), 1u);
  const Completion& c = resp->choices[0];
  EXPECT_EQ(c.finish_reason, FinishReason::kLength);
  EXPECT_EQ(c.tokens_generated, 12);
  EXPECT_FALSE(c.text.empty());
  EXPECT_EQ(resp->tokens_generated, 12);
  EXPECT_GT(resp->tokens_prompt, 10);
  EXPECT_EQ(resp->tokens_prompt_evaluated, resp->tokens_prompt);
  EXPECT_GT(resp->time_prompt_ms, 0);
  EXPECT_GT(resp->time_generation_ms, 0);
  EXPECT_FALSE(resp->from_cache);
}

TEST_F(LlamaBackendTest, SameSeedSameTextOtherSeedOtherText) {
  auto b = Load();
  ChatRequest r = Request("Write a kernel.", 24, /*temperature=*/1.0f);
  r.sampling.top_k = 0;
  r.sampling.top_p = 1;
  r.sampling.seed = 42;
  auto first = b->Chat(r);
  auto again = b->Chat(r);  // served with the prompt already in the KV cache
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(first->choices[0].text, again->choices[0].text);
  auto fresh = Load()->Chat(r);
  EXPECT_EQ(first->choices[0].text, fresh->choices[0].text);
  r.sampling.seed = 43;
  auto other = b->Chat(r);
  EXPECT_NE(first->choices[0].text, other->choices[0].text);
}

TEST_F(LlamaBackendTest, NSamplesUseSuccessiveSeedsAndReuseThePrompt) {
  LlamaOptions one_at_a_time;
  one_at_a_time.max_sequences = 1;
  auto b = Load(one_at_a_time);
  ChatRequest r = Request("Write a kernel.", 8, 1.0f);
  r.n = 3;
  r.sampling.seed = 7;
  auto resp = b->Chat(r);
  ASSERT_TRUE(resp.ok());
  ASSERT_EQ(resp->choices.size(), 3u);
  EXPECT_EQ(resp->tokens_generated, 24);
  // The first sample evaluates the prompt; the others only its last token.
  EXPECT_EQ(resp->tokens_prompt_evaluated, resp->tokens_prompt + 2);
  ChatRequest single = r;
  single.n = 1;
  single.sampling.seed = 8;
  EXPECT_EQ(Load(one_at_a_time)->Chat(single)->choices[0].text, resp->choices[1].text);
}

// ---- Batched generation --------------------------------------------------------

TEST_F(LlamaBackendTest, NSamplesAreDecodedTogether) {
  auto b = Load();
  ChatRequest r = Request("Write a kernel.", 10, 1.0f);
  r.n = 4;
  r.sampling.seed = 7;
  auto resp = b->Chat(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->choices.size(), 4u);
  EXPECT_EQ(resp->tokens_generated, 40);
  // One wave: the prompt is evaluated once for all four.
  EXPECT_EQ(resp->tokens_prompt_evaluated, resp->tokens_prompt);
  std::set<std::string> texts;
  for (const auto& c : resp->choices) {
    EXPECT_EQ(c.tokens_generated, 10);
    EXPECT_EQ(c.finish_reason, FinishReason::kLength);
    texts.insert(c.text);
  }
  EXPECT_EQ(texts.size(), 4u);  // seeds 7..10
  // Reproducible: the same request, from a fresh context or a warm one.
  auto again = b->Chat(r);
  auto fresh = Load()->Chat(r);
  ASSERT_TRUE(again.ok() && fresh.ok());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(again->choices[i].text, resp->choices[i].text);
    EXPECT_EQ(fresh->choices[i].text, resp->choices[i].text);
  }
  // A ChatBatch of requests with one prompt is the same batch.
  std::vector<ChatRequest> split(2, r);
  split[0].n = 1;
  split[1].n = 3;
  split[1].sampling.seed = 8;
  auto parts = b->ChatBatch(split);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 2u);
  ASSERT_EQ((*parts)[0].choices.size(), 1u);
  ASSERT_EQ((*parts)[1].choices.size(), 3u);
  EXPECT_EQ((*parts)[0].choices[0].text, resp->choices[0].text);
  for (int i = 0; i < 3; ++i) EXPECT_EQ((*parts)[1].choices[i].text, resp->choices[i + 1].text);
}

TEST_F(LlamaBackendTest, BatchWidthLeavesEachSequenceRoomForItsReply) {
  auto b = Load();  // 512-token context
  ChatRequest r = Request("Write a kernel.", 200, 1.0f);
  r.n = 4;
  auto resp = b->Chat(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->choices.size(), 4u);
  for (const auto& c : resp->choices) {
    EXPECT_EQ(c.finish_reason, FinishReason::kLength);
    EXPECT_EQ(c.tokens_generated, 200);
  }
  // Two waves of two (2 x 200 generated + the prompt fit in 512, 3 x 200 do
  // not); the second wave evaluates only the prompt's last token again.
  EXPECT_EQ(resp->tokens_prompt_evaluated, resp->tokens_prompt + 1);
}

TEST_F(LlamaBackendTest, RequestsWithOtherPromptsAreDecodedTogether) {
  auto b = Load();
  // Three prompts sharing the system prompt; the first asked twice (n = 2
  // and once more as its own request), greedy: each request gets its own
  // answer, the one it gets when asked alone.
  std::vector<ChatRequest> rs = {Request("First.", 5), Request("Second, longer question.", 7),
                                 Request("Third one, about shared memory tiles.", 6), Request("First.", 5)};
  rs[0].n = 2;
  const int64_t calls0 = LlamaDecodeCalls(*b);
  auto resp = b->ChatBatch(rs);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->size(), 4u);
  // One wave: one decode per prompt (each fits in one batch of 512), then
  // one per step of all five sequences (the longest reply: 7 tokens, the last
  // one not decoded). One by one it would be 4 prompts + 5 + 5 + 7 + 6 + 5.
  EXPECT_EQ(LlamaDecodeCalls(*b) - calls0, 3 + 6);
  ASSERT_EQ((*resp)[0].choices.size(), 2u);
  auto fresh = Load();
  for (size_t k = 0; k < rs.size(); ++k) {
    ChatRequest alone = rs[k];
    alone.n = 1;
    auto a = fresh->Chat(alone);
    ASSERT_TRUE(a.ok());
    for (const auto& c : (*resp)[k].choices) {
      EXPECT_EQ(c.text, a->choices[0].text) << "request " << k;
      EXPECT_EQ(c.tokens_generated, rs[k].sampling.max_tokens);
      EXPECT_EQ(c.finish_reason, FinishReason::kLength);
      EXPECT_GT(c.time_generation_ms, 0);
    }
    EXPECT_EQ((*resp)[k].tokens_prompt, a->tokens_prompt) << "request " << k;
  }
  // The first prompt is evaluated once (for three samples), the others only
  // after the system prompt they share with it; the fourth request repeats
  // the first prompt and evaluates nothing.
  EXPECT_EQ((*resp)[0].tokens_prompt_evaluated, (*resp)[0].tokens_prompt);
  for (int k : {1, 2}) {
    EXPECT_GT((*resp)[k].tokens_prompt_evaluated, 0);
    EXPECT_LT((*resp)[k].tokens_prompt_evaluated, (*resp)[k].tokens_prompt - 10) << "request " << k;
  }
  EXPECT_EQ((*resp)[3].tokens_prompt_evaluated, 0);
  // Without prefix reuse every prompt is evaluated whole.
  LlamaOptions cold;
  cold.reuse_prefix = false;
  auto c = Load(cold)->ChatBatch(rs);
  ASSERT_TRUE(c.ok());
  for (int k : {0, 1, 2}) EXPECT_EQ((*c)[k].tokens_prompt_evaluated, (*c)[k].tokens_prompt);
  for (size_t k = 0; k < rs.size(); ++k) EXPECT_EQ((*c)[k].choices[0].text, (*resp)[k].choices[0].text);
}

TEST_F(LlamaBackendTest, MixedPromptBatchIsReproducibleAndSplitsIntoWaves) {
  // Sampled: the same request list gives the same texts, warm or fresh.
  std::vector<ChatRequest> rs = {Request("Alpha kernel.", 12, 1.0f), Request("Beta, a reduction.", 12, 1.0f),
                                 Request("Gamma: a scan.", 12, 1.0f)};
  for (size_t k = 0; k < rs.size(); ++k) rs[k].sampling.seed = 40 + k;
  rs[1].n = 2;
  auto b = Load();
  auto first = b->ChatBatch(rs);
  auto again = b->ChatBatch(rs);
  auto fresh = Load()->ChatBatch(rs);
  ASSERT_TRUE(first.ok() && again.ok() && fresh.ok());
  for (size_t k = 0; k < rs.size(); ++k) {
    ASSERT_EQ((*first)[k].choices.size(), static_cast<size_t>(rs[k].n));
    for (size_t i = 0; i < (*first)[k].choices.size(); ++i) {
      EXPECT_EQ((*again)[k].choices[i].text, (*first)[k].choices[i].text);
      EXPECT_EQ((*fresh)[k].choices[i].text, (*first)[k].choices[i].text);
    }
  }
  EXPECT_NE((*first)[1].choices[0].text, (*first)[1].choices[1].text);  // seeds 41, 42

  // A 512-token context holds two 200-token replies beside the prompts, not
  // three: three prompts go in two waves, each reply whole.
  for (auto& r : rs) r.sampling.max_tokens = 200;
  rs[1].n = 1;
  auto waves = b->ChatBatch(rs);
  ASSERT_TRUE(waves.ok()) << waves.status().ToString();
  for (const auto& r : *waves) {
    EXPECT_EQ(r.choices[0].tokens_generated, 200);
    EXPECT_EQ(r.choices[0].finish_reason, FinishReason::kLength);
  }
  // Wave two starts with the third prompt in sequence 0: evaluated after the
  // prefix it shares with what sequence 0 held (the first prompt).
  EXPECT_LT((*waves)[2].tokens_prompt_evaluated, (*waves)[2].tokens_prompt);
}

TEST_F(LlamaBackendTest, CancellingAMixedPromptBatchStopsEverySequence) {
  LlamaOptions o;
  o.context_size = 2048;
  auto b = Load(o);
  std::atomic<bool> cancel{false};
  std::vector<ChatRequest> rs = {Request("One.", 400), Request("Two, another prompt.", 400)};
  for (auto& r : rs) r.cancel = &cancel;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    cancel = true;
  });
  auto resp = b->ChatBatch(rs);
  t.join();
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  for (const auto& r : *resp) {
    EXPECT_EQ(r.choices[0].finish_reason, FinishReason::kCancelled);
    EXPECT_LT(r.choices[0].tokens_generated, 400);
  }
  for (auto& r : rs) {
    r.cancel = nullptr;
    r.sampling.max_tokens = 3;
  }
  auto after = b->ChatBatch(rs);
  ASSERT_TRUE(after.ok());
  for (const auto& r : *after) EXPECT_EQ(r.choices[0].tokens_generated, 3);
}

TEST_F(LlamaBackendTest, ReusesTheKvCacheForTheCommonPrefix) {
  auto b = Load();
  std::string examples(600, 'x');
  for (size_t i = 0; i < examples.size(); i += 7) examples[i] = ' ';
  ChatRequest a = Request("First question about " + examples, 4);
  ChatRequest c = Request("First question about " + examples + " and one more thing", 4);
  auto ra = b->Chat(a);
  ASSERT_TRUE(ra.ok());
  EXPECT_EQ(ra->tokens_prompt_evaluated, ra->tokens_prompt);
  auto rc = b->Chat(c);
  ASSERT_TRUE(rc.ok());
  EXPECT_GT(rc->tokens_prompt, ra->tokens_prompt);
  // Only the tokens after the shared prefix are evaluated: the new words and
  // the template's closing tokens.
  EXPECT_GE(rc->tokens_prompt_evaluated, rc->tokens_prompt - ra->tokens_prompt);
  EXPECT_LT(rc->tokens_prompt_evaluated, rc->tokens_prompt - ra->tokens_prompt + 20);
  EXPECT_LT(rc->tokens_prompt_evaluated * 5, rc->tokens_prompt);

  // The answer does not depend on what the cache held before.
  LlamaOptions no_reuse;
  no_reuse.reuse_prefix = false;
  auto cold = Load(no_reuse);
  auto rcold = cold->Chat(c);
  ASSERT_TRUE(rcold.ok());
  EXPECT_EQ(rcold->tokens_prompt_evaluated, rcold->tokens_prompt);
  EXPECT_EQ(rcold->choices[0].text, rc->choices[0].text);
  // A different system prompt shares nothing (beyond BOS and the template's start).
  ChatRequest d = c;
  d.messages[0].content = "Completely different system prompt.";
  auto rd = b->Chat(d);
  EXPECT_GT(rd->tokens_prompt_evaluated, rd->tokens_prompt - 20);
}

TEST_F(LlamaBackendTest, CancellationStopsGeneration) {
  auto b = Load();
  std::atomic<bool> cancel{true};
  ChatRequest r = Request("Write a kernel.", 50);
  r.cancel = &cancel;
  auto resp = b->Chat(r);
  ASSERT_TRUE(resp.ok());
  EXPECT_EQ(resp->choices.back().finish_reason, FinishReason::kCancelled);
  EXPECT_EQ(resp->tokens_generated, 0);

  // Set while generating: it stops early, and the backend stays usable.
  cancel = false;
  r.sampling.max_tokens = 400;
  LlamaOptions o;
  o.context_size = 1024;
  auto big = Load(o);
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    cancel = true;
  });
  auto mid = big->Chat(r);
  t.join();
  ASSERT_TRUE(mid.ok());
  EXPECT_EQ(mid->choices[0].finish_reason, FinishReason::kCancelled);
  EXPECT_LT(mid->choices[0].tokens_generated, 400);
  r.cancel = nullptr;
  r.sampling.max_tokens = 3;
  EXPECT_EQ(big->Chat(r)->choices[0].tokens_generated, 3);
}

// What the log says while it lives (the default logger replaced by one
// writing to a string), read back by Finish().
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(text_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
    spdlog::set_level(spdlog::level::info);
  }
  std::string Finish() {
    spdlog::set_default_logger(previous_);
    return text_.str();
  }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream text_;
};

// Ctrl-C while llama_decode runs stops it through the abort callback, which
// llama.cpp logs as three errors ("graph_compute: ... failed", "failed to
// compute graph", "failed to decode"): a cancellation, not an error, so
// nothing reaches the terminal.
TEST_F(LlamaBackendTest, ACancelledDecodeLogsNoErrors) {
  LlamaOptions o;
  o.context_size = 2048;
  o.batch_size = 16;  // many decode calls for one prompt: the cancel lands inside one
  auto b = Load(o);
  std::string text;
  for (int i = 0; i < 300; ++i) text += "word" + std::to_string(i) + " ";
  for (int attempt = 0; attempt < 5; ++attempt) {
    ChatRequest r = Request("Summarize: " + text + std::to_string(attempt), 4);
    std::atomic<bool> cancel{false};
    r.cancel = &cancel;
    LogCapture capture;
    std::thread t([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5 + 10 * attempt));
      cancel = true;
    });
    auto resp = b->Chat(r);
    t.join();
    std::string err = capture.Finish();
    ASSERT_TRUE(resp.ok()) << resp.status().ToString();
    if (resp->tokens_prompt_evaluated >= resp->tokens_prompt) continue;  // cancelled too late: again
    EXPECT_EQ(resp->choices[0].finish_reason, FinishReason::kCancelled);
    EXPECT_EQ(err.find("failed"), std::string::npos) << err;
    EXPECT_EQ(err.find("graph_compute"), std::string::npos) << err;
    return;
  }
  GTEST_SKIP() << "no cancellation landed inside a decode in 5 tries";
}

TEST_F(LlamaBackendTest, PromptLongerThanTheContextIsAClearError) {
  LlamaOptions o;
  o.context_size = 64;  // llama.cpp rounds this up (to 256 in this version)
  auto b = Load(o);
  const int n_ctx = GetLlamaInfo(*b)->context_size;
  std::string long_text;
  for (int i = 0; i < n_ctx; ++i) long_text += "word" + std::to_string(i) + " ";
  auto resp = b->Chat(Request(long_text, 4));
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(resp.status().message().find("the context holds " + std::to_string(n_ctx)),
            std::string::npos)
      << resp.status().ToString();
  // The backend still answers a prompt that fits.
  EXPECT_TRUE(b->Chat(Request("short", 2)).ok());
}

TEST_F(LlamaBackendTest, GenerationThatFillsTheContextIsTruncated) {
  LlamaOptions o;
  o.context_size = 64;
  auto b = Load(o);
  const int n_ctx = GetLlamaInfo(*b)->context_size;
  auto resp = b->Chat(Request("short", 2 * n_ctx));
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  EXPECT_EQ(resp->choices[0].finish_reason, FinishReason::kContextFull);
  // Every position is used; the last sampled token is returned, not evaluated.
  EXPECT_EQ(resp->tokens_prompt + resp->choices[0].tokens_generated, n_ctx + 1);
  // The next request starts over cleanly.
  auto next = b->Chat(Request("short again", 2));
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_EQ(next->choices[0].tokens_generated, 2);
}

TEST_F(LlamaBackendTest, StopStringsEndTheTextBeforeTheMatch) {
  auto b = Load();
  ChatRequest r = Request("Write a kernel.", 30);
  auto full = b->Chat(r);
  ASSERT_TRUE(full.ok());
  const std::string& text = full->choices[0].text;
  ASSERT_GT(text.size(), 20u);
  std::string stop = text.substr(text.size() / 2, 4);
  size_t first = text.find(stop);
  r.sampling.stop = {stop};
  auto cut = b->Chat(r);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->choices[0].finish_reason, FinishReason::kStop);
  EXPECT_EQ(cut->choices[0].text, text.substr(0, first));
}

TEST_F(LlamaBackendTest, ConcurrentCallsAreDecodedTogether) {
  LlamaOptions o;
  o.batch_wait_ms = 500;  // generous: the four threads surely arrive within it
  auto b = Load(o);
  std::vector<ChatRequest> rs;
  for (int i = 0; i < 4; ++i) rs.push_back(Request("question " + std::to_string(i), 6));
  std::vector<std::string> alone;
  auto fresh = Load();
  for (const auto& r : rs) alone.push_back(fresh->Chat(r)->choices[0].text);

  // Round 1 (long replies, so that the calls surely overlap): the first
  // caller finds the model idle and starts at once (no overlap seen yet),
  // the others join the next batch. Round 2: overlap seen, the first caller
  // waits for the others: one batch.
  std::vector<std::thread> threads;
  std::vector<std::string> texts(4);
  std::atomic<int> ok{0};
  for (int round = 1; round <= 2; ++round) {
    const int64_t calls0 = LlamaDecodeCalls(*b);
    threads.clear();
    ok = 0;
    const int tokens = round == 1 ? 100 : 6;
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&, i] {
        ChatRequest r = rs[i];
        r.sampling.max_tokens = tokens;
        auto resp = b->Chat(r);
        if (resp.ok() && resp->choices[0].tokens_generated == tokens) ++ok;
        if (resp.ok()) texts[i] = resp->choices[0].text;
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok.load(), 4);
    // One by one: 4 x (1 + 5) decodes; one batch: 4 prompt decodes + 5 steps.
    if (round == 2) {
      EXPECT_EQ(LlamaDecodeCalls(*b) - calls0, 4 + 5);
      for (int i = 0; i < 4; ++i) EXPECT_EQ(texts[i], alone[i]) << "caller " << i;
    }
  }

  // A caller whose request is bad fails alone; the others are answered.
  ChatRequest bad = Request("bad grammar", 6);
  bad.shape.grammar = "root ::= (";
  threads.clear();
  ok = 0;
  std::atomic<int> refused{0};
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] {
      auto r = b->Chat(i == 1 ? bad : rs[i]);
      if (r.ok() && r->choices[0].tokens_generated == 6) ++ok;
      if (!r.ok() && r.status().code() == Status::Code::kInvalidArgument) ++refused;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 2);
  EXPECT_EQ(refused.load(), 1);
}

TEST_F(LlamaBackendTest, ResponseCacheAnswersRepeats) {
  auto dir = TempDir::Create("rgcache");
  auto cached = NewCachedBackend(Load(), dir->path() / "llm.db");
  ASSERT_TRUE(cached.ok());
  ChatRequest r = Request("Write a kernel.", 8, 0.8f);
  auto first = (*cached)->Chat(r);
  auto second = (*cached)->Chat(r);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_FALSE(first->from_cache);
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(first->choices[0].text, second->choices[0].text);
  EXPECT_EQ(first->tokens_generated, second->tokens_generated);
}

// ---- Output shaping ----------------------------------------------------------

CodeShape SaxpyShape(int max_tokens = 512) {
  CodeShape c;
  c.signature = "void saxpy(int n, float a, const float* x, float* y)";
  c.max_tokens = max_tokens;
  return c;
}

TEST_F(LlamaBackendTest, PrefillStartsEveryReplyAndIsPartOfThePrompt) {
  auto b = Load();
  ChatRequest r = Request("Write saxpy.", 6, 0.8f);
  auto plain = b->Chat(r);
  r.shape.prefill = CodePrefill(SaxpyShape(6));
  r.n = 2;
  auto shaped = b->Chat(r);
  ASSERT_TRUE(plain.ok() && shaped.ok()) << shaped.status().ToString();
  EXPECT_GT(shaped->tokens_prompt, plain->tokens_prompt + 5);
  for (const auto& c : shaped->choices) {
    EXPECT_EQ(c.text.rfind(r.shape.prefill, 0), 0u) << c.text;
    EXPECT_GT(c.text.size(), r.shape.prefill.size());
    EXPECT_EQ(c.tokens_generated, 6);
  }
}

TEST_F(LlamaBackendTest, CloseStringEndsTheReplyAfterThePrefillAndIsKept) {
  auto b = Load();
  ChatRequest r = Request("Write saxpy.", 200, 0.8f);
  r.shape.prefill = CodePrefill(SaxpyShape(200));  // holds several "e"
  r.shape.close = "e";
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    r.sampling.seed = seed;
    auto resp = b->Chat(r);
    ASSERT_TRUE(resp.ok()) << resp.status().ToString();
    const Completion& c = resp->choices[0];
    EXPECT_EQ(c.finish_reason, FinishReason::kStop);
    EXPECT_GE(c.tokens_generated, 1);
    EXPECT_GT(c.text.size(), r.shape.prefill.size());
    EXPECT_EQ(c.text.back(), 'e');
    EXPECT_EQ(c.text.substr(r.shape.prefill.size()).find('e'), c.text.size() - r.shape.prefill.size() - 1);
  }
}

// Whether llama.cpp's grammar engine takes `text` as a whole reply under
// `grammar`: token by token (a BPE vocabulary, which adds no space prefix),
// then end-of-generation.
class GrammarProbe {
 public:
  GrammarProbe() {
    llama_model_params p = llama_model_default_params();
    p.vocab_only = true;
    const fs::path vocab = fs::path(REGRAPHT_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-bpe.gguf";
    model_.reset(llama_model_load_from_file(vocab.c_str(), p));
  }
  bool ok() const { return model_ != nullptr; }

  bool Accepts(const std::string& grammar, const std::string& text) const {
    const llama_vocab* vocab = llama_model_get_vocab(model_.get());
    std::unique_ptr<llama_sampler, decltype(&llama_sampler_free)> g(
        llama_sampler_init_grammar(vocab, grammar.c_str(), "root"), llama_sampler_free);
    EXPECT_NE(g, nullptr) << "the grammar does not parse";
    if (!g) return false;
    std::vector<llama_token> tokens(text.size() + 8);
    int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                           static_cast<int32_t>(tokens.size()), false, false);
    if (n < 0) return false;
    tokens.resize(n);
    tokens.push_back(llama_vocab_eos(vocab));
    for (llama_token t : tokens) {
      llama_token_data d{t, 0.0f, 0.0f};
      llama_token_data_array a{&d, 1, -1, false};
      llama_sampler_apply(g.get(), &a);
      if (std::isinf(d.logit)) return false;
      if (t != tokens.back()) llama_sampler_accept(g.get(), t);
    }
    return true;
  }

 private:
  std::unique_ptr<llama_model, decltype(&llama_model_free)> model_{nullptr, llama_model_free};
};

// The grammar of shape.h, checked by llama.cpp itself on the replies it must
// take and those it must refuse. Everything it takes lexes cleanly and
// defines saxpy.
// Replies the code grammar of CodeGrammarTakesWellFormedDefinitionsOnly must
// refuse, each with why: `prefill`, `kernel`, `host` (ending in the fence) and
// `host_def` (without it) are that test's well-formed parts.
std::vector<std::pair<std::string, std::string>> IllFormedReplies(const std::string& prefill, const std::string& kernel,
                                                                  const std::string& host,
                                                                  const std::string& host_def) {
  return {
      {"a brace never closed", prefill + "int n) {\n  if (n) {\n}\n" + host},
      {"a bracket closed by the wrong kind", prefill + "int n) { x[1) = 0; }\n" + host},
      {"a string across a line", prefill + kernel + "const char* s = \"ab\ncd\";\n" + host},
      {"a block comment left open",
       prefill + kernel + "void saxpy(int n, float a, const float* x, float* y) {\n  /* open\n}\n```"},
      {"a launch never closed", prefill + kernel + "void f() { k<<<1, 1(); }\n" + host},
      {"no definition of saxpy", prefill + kernel + "```"},
      {"only a prototype", prefill + kernel + "void saxpy(int n, float a, const float* x, float* y);\n```"},
      {"another signature", prefill + kernel + "void saxpy(int n, float a) {\n}\n```"},
      {"the definition inside braces", prefill + kernel + "namespace {\n" + host_def + "}\n```"},
      {"code after the definition", prefill + kernel + host_def + "int main() {}\n```"},
      {"a backtick in the code", prefill + kernel + "int `x`;\n" + host},
      {"a '#' inside a line", prefill + "int n #x) {}\n" + host},
      {"a directive inside a line", prefill + kernel + "int x; #define A 1\n" + host},
      {"a '#' after a multibyte character", prefill + "int n\xc2\xb9##) {}\n" + host},
      {"a backslash inside a line", prefill + "int n \\$) {}\n" + host},
      {"a non-ASCII character", prefill + kernel + "// caf\xc3\xa9\n" + host},
      {"a control character", prefill + kernel + "int \x01;\n" + host},
      {"no launch in the function", prefill + kernel + "void saxpy(int n, float a, const float* x, float* y) {\n}\n```"},
      {"the launch only nested", prefill + kernel +
                                     "void saxpy(int n, float a, const float* x, float* y) {\n"
                                     "  if (n) { saxpy_kernel<<<1, 1>>>(n, a, x, y); }\n}\n```"},
      {"prose after the fence", prefill + kernel + host + "\nDone."},
  };
}

TEST_F(LlamaBackendTest, CodeGrammarTakesWellFormedDefinitionsOnly) {
  GrammarProbe probe;
  ASSERT_TRUE(probe.ok());
  CodeShape shape = SaxpyShape();
  shape.opener = "\n__global__ void saxpy_kernel(";
  shape.require_launch = true;
  const std::string prefill = CodePrefill(shape);
  const std::string g = CodeGrammar(shape, {}, /*with_prefill=*/true);
  const std::string kernel =
      "int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;  // one element { each\n"
      "  if (i < n && i >= 0) y[i] = a * x[i] / 1.0f + y[i];\n"
      "}\n";
  const std::string host_def =
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  float *dx, *dy;\n"
      "  cudaMalloc(&dx, n * sizeof(float));  /* { ( [ */\n"
      "  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
      "}\n";
  const std::string host = host_def + "```";
  const std::string extras =
      "#define CHECK(x) do { \\\n  (x); } while (0)\n"
      "template <class T> struct V { std::vector<std::vector<T>> v; char c = '}'; };\n"
      "static const char* kName = \"saxpy(\\\"{\";\n"
      "inline int Shl(int x) { return x << 2 | (x < 3) | x/(1); }\n";
  const std::vector<std::string> good = {
      prefill + kernel + host,
      prefill + kernel + "#define A 1\n" + host,
      prefill + kernel + extras + host,
      prefill + kernel + "// the host side\n" + host,
      prefill + kernel + "static inline " + host,
      prefill + kernel + "void saxpy(int n, float a, const float* x, float* y);\n" + host,
  };
  for (const std::string& text : good) {
    EXPECT_TRUE(probe.Accepts(g, text)) << text;
    Extraction ex = ExtractCode(text, {.function_name = "saxpy"});
    ASSERT_TRUE(ex.found()) << ex.reason;
    EXPECT_TRUE(scan::ScannedSource(ex.code).problems().empty()) << ex.code;
    EXPECT_TRUE(scan::DefinesFunction(ex.code, "saxpy")) << ex.code;
  }
  const auto bad = IllFormedReplies(prefill, kernel, host, host_def);
  for (const auto& [why, text] : bad) EXPECT_FALSE(probe.Accepts(g, text)) << why;
  // The grammar after a prefill is the same language less the prefill.
  const std::string rest = CodeGrammar(shape, {}, /*with_prefill=*/false);
  EXPECT_TRUE(probe.Accepts(rest, kernel + host));
  EXPECT_FALSE(probe.Accepts(rest, prefill + kernel + host));
  // Without an opener (the kernel form) nothing is left open to close, and
  // no launch is required.
  EXPECT_TRUE(probe.Accepts(CodeGrammar(SaxpyShape(), {}, true), "```cuda\n#include <cuda_runtime.h>\n" + host));
  EXPECT_TRUE(probe.Accepts(CodeGrammar(SaxpyShape(), {}, true),
                            "```cuda\n#include <cuda_runtime.h>\nvoid saxpy(int n, float a, const float* x, float* y) {}\n```"));
  // At most max_group_chars characters at one bracket level: the kernel's
  // body (about 100 characters) passes a bound of 120 and fails one of 60.
  ShapeOptions tight;
  tight.max_group_chars = 120;
  EXPECT_TRUE(probe.Accepts(CodeGrammar(shape, tight, true), prefill + kernel + host));
  tight.max_group_chars = 60;
  EXPECT_FALSE(probe.Accepts(CodeGrammar(shape, tight, true), prefill + kernel + host));
}

// Random weights write noise; under the grammar every reply is well-formed
// code as far as it goes: no bracket closed by the wrong kind, no literal
// left open before its last line, and a reply that ends (rather than runs
// out of tokens) is one closed block defining saxpy. With the wrap-up every
// reply ends so, the backend having written the signature and the closers.
TEST_F(LlamaBackendTest, GrammarKeepsEvenRandomWeightsWellFormed) {
  auto b = Load();
  CodeShape shape = SaxpyShape(160);
  shape.opener = "\n__global__ void saxpy_kernel(";
  shape.require_launch = true;  // the drop-in form: the function launches a kernel
  ChatRequest r = Request("Write saxpy.", 160, 0.9f);  // ignore_eos: only the grammar ends it
  r.n = 3;
  // "" when well-formed as far as it goes, else the scanner's problem.
  auto malformed = [](const std::string& text) -> std::string {
    const std::string code = text.substr(std::string("```cuda\n").size());
    const int last_line = static_cast<int>(std::count(code.begin(), code.end(), '\n')) + 1;
    const scan::ScannedSource scanned(code);
    for (const scan::ScanProblem& p : scanned.problems()) {
      const bool left_open = p.what.find("never closed") != std::string::npos ||
                             (p.what.find("unterminated") != std::string::npos && p.line == last_line);
      if (!left_open) return "line " + std::to_string(p.line) + ": " + p.what;
    }
    return "";
  };
  int malformed_without = 0, wrapped = 0;
  for (const char* mode : {"wrap-up", "grammar", "none"}) {
    ShapeOptions o;
    o.prefill = true;
    o.grammar = std::string(mode) != "none";
    o.wrap_up = std::string(mode) == "wrap-up";
    r.shape = MakeOutputShape(shape, o);
    for (uint64_t seed : {1, 7}) {
      r.sampling.seed = seed;
      auto resp = b->Chat(r);
      ASSERT_TRUE(resp.ok()) << resp.status().ToString();
      ASSERT_EQ(resp->choices.size(), 3u);
      for (const auto& c : resp->choices) {
        EXPECT_EQ(c.text.rfind(r.shape.prefill, 0), 0u);
        if (!o.grammar) {
          malformed_without += !malformed(c.text).empty() || c.text.find("```", 3) != std::string::npos;
          continue;
        }
        EXPECT_EQ(malformed(c.text), "") << c.text;
        wrapped += !c.wrapped_up.empty();
        if (o.wrap_up) {
          EXPECT_EQ(c.finish_reason, FinishReason::kStop) << c.text << "\nwrapped up: [" << c.wrapped_up << "]";
        }
        if (c.finish_reason == FinishReason::kStop) {
          EXPECT_EQ(c.text.substr(c.text.size() - 3), "```") << c.text;
          Extraction ex = ExtractCode(c.text, {.function_name = "saxpy"});
          EXPECT_TRUE(ex.found()) << ex.reason;
          EXPECT_TRUE(scan::ScannedSource(ex.code).problems().empty()) << ex.code;
          // The signature, then its body (a definition of its own unless the
          // noise left a kernel's head without a body before it).
          const size_t at = ex.code.rfind(shape.signature);
          ASSERT_NE(at, std::string::npos) << ex.code;
          const size_t brace = ex.code.find_first_not_of(" \t\n", at + shape.signature.size());
          EXPECT_EQ(ex.code[brace], '{') << ex.code;
          // ... which launches a kernel (the noise never does by itself: the
          // wrap-up opened saxpy_kernel's launch and closed it).
          const size_t launch = ex.code.find("<<<", brace);
          EXPECT_NE(launch, std::string::npos) << ex.code;
          EXPECT_NE(ex.code.find(">>>", launch), std::string::npos) << ex.code;
          if (o.wrap_up) {
            EXPECT_NE(c.wrapped_up.find("saxpy_kernel<<<"), std::string::npos) << c.wrapped_up;
          }
        } else {
          EXPECT_EQ(c.finish_reason, FinishReason::kLength);
          EXPECT_TRUE(c.wrapped_up.empty());
        }
      }
    }
  }
  EXPECT_EQ(wrapped, 6) << "every wrap-up reply was completed by the backend, no other";
  // Without the grammar the same noise is malformed (or holds a fence).
  EXPECT_GT(malformed_without, 0);
}

TEST_F(LlamaBackendTest, GrammarThatDoesNotParseIsInvalidArgument) {
  auto b = Load();
  ChatRequest r = Request("x", 4);
  r.shape.grammar = "root ::= (";
  auto resp = b->Chat(r);
  EXPECT_EQ(resp.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(resp.status().message().find("GBNF"), std::string::npos);
}

// Distinct space- or line-separated words of a reply: a reply stuck in a
// loop has few.
int DistinctWords(const std::string& text) {
  std::set<std::string> words;
  std::string w;
  for (char c : text + " ") {
    if (c == ' ' || c == '\n') {
      if (!w.empty()) words.insert(w);
      w.clear();
    } else {
      w += c;
    }
  }
  return static_cast<int>(words.size());
}

TEST_F(LlamaBackendTest, RepetitionControlBreaksGreedyLoops) {
  // A grammar narrows random weights to eight words; greedy decoding then
  // repeats a few of them. A strong repetition penalty, and DRY, steer away
  // from what was already generated: more of the eight words appear.
  ChatRequest r = Request("List words.", 48, /*temperature=*/0);
  r.shape.grammar =
      "root ::= (word \" \")+\n"
      "word ::= \"red\" | \"blue\" | \"green\" | \"cat\" | \"dog\" | \"sun\" | \"tree\" | \"fish\"\n";
  auto b = Load();
  auto plain = b->Chat(r);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  ChatRequest penalized = r;
  penalized.sampling.repeat_penalty = 3.0f;
  ChatRequest dry = r;
  dry.sampling.dry_multiplier = 4.0f;
  dry.sampling.dry_allowed_length = 1;
  auto pen = b->Chat(penalized);
  auto d = b->Chat(dry);
  ASSERT_TRUE(pen.ok() && d.ok());
  const std::string& p0 = plain->choices[0].text;
  EXPECT_GT(DistinctWords(pen->choices[0].text), DistinctWords(p0))
      << p0 << " | " << pen->choices[0].text;
  EXPECT_GT(DistinctWords(d->choices[0].text), DistinctWords(p0)) << p0 << " | " << d->choices[0].text;
  // Same settings, same text: the control is deterministic like greedy.
  auto again = b->Chat(dry);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(d->choices[0].text, again->choices[0].text);
}

TEST_F(LlamaBackendTest, ProgressReportsTokensAsTheyAreGenerated) {
  auto b = Load();
  ChatRequest r = Request("Write a kernel.", 40, /*temperature=*/0);
  r.n = 2;
  std::vector<GenerationProgress> seen;
  r.on_progress = [&](const GenerationProgress& g) { seen.push_back(g); };
  auto out = b->Chat(r);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_FALSE(seen.empty());
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].tokens, seen[i - 1].tokens);
    EXPECT_GE(seen[i].seconds, seen[i - 1].seconds);
  }
  EXPECT_EQ(seen.back().max_tokens, 80);  // both samples' budgets
  EXPECT_EQ(seen.back().tokens, out->tokens_generated);  // the last report is the total
  EXPECT_GT(seen.back().seconds, 0);
  // No callback, no reports, same text.
  ChatRequest quiet = r;
  quiet.on_progress = nullptr;
  auto again = b->Chat(quiet);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->choices[0].text, out->choices[0].text);
}

TEST_F(LlamaBackendTest, RequantizesToQ8AndF16AndPullMakesTheDerivedModel) {
  auto dir = TempDir::Create("rgrequant");
  ASSERT_TRUE(dir.ok());
  const fs::path q8 = dir->path() / "tiny.Q8_0.gguf";
  Status s = RequantizeGguf(Model(), q8, "Q8_0", 1);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(fs::exists(q8.string() + ".part"));
  LlamaOptions o;
  o.model_path = q8;
  auto b = Load(o);
  ASSERT_TRUE(b);
  EXPECT_NE(GetLlamaInfo(*b)->description.find("Q8_0"), std::string::npos)
      << GetLlamaInfo(*b)->description;
  auto resp = b->Chat(Request("Write a kernel.", 8));
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  EXPECT_EQ(resp->tokens_generated, 8);
  ASSERT_TRUE(RequantizeGguf(Model(), dir->path() / "tiny.F16.gguf", "f16", 1).ok());
  o.model_path = dir->path() / "tiny.F16.gguf";
  EXPECT_NE(GetLlamaInfo(*Load(o))->description.find("F16"), std::string::npos);

  EXPECT_EQ(RequantizeGguf(Model(), q8, "q3_k").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(RequantizeGguf(dir->path() / "none.gguf", q8, "q8_0").code(), Status::Code::kNotFound);
  const fs::path junk = dir->path() / "junk.gguf";
  std::ofstream(junk) << "GGUF but nothing else";
  Status bad = RequantizeGguf(junk, dir->path() / "out.gguf", "q8_0");
  EXPECT_EQ(bad.code(), Status::Code::kInternal);
  EXPECT_FALSE(fs::exists(dir->path() / "out.gguf"));
  EXPECT_FALSE(fs::exists(dir->path() / "out.gguf.part"));

  // A registry entry made by requantizing: its source is present (no
  // download), so PullModel converts it; a second pull finds it intact.
  const fs::path models = dir->path() / "models";
  fs::create_directories(models);
  fs::copy_file(Model(), models / "tiny.gguf");
  auto reg = ParseRegistry(R"({"models": [
      {"name": "tiny", "url": "http://127.0.0.1:9/tiny.gguf", "file": "tiny.gguf"},
      {"name": "tiny-q8", "requantize_from": "tiny", "requantize_type": "q8_0", "file": "tiny.Q8_0.gguf"}]})",
                           "r.json");
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  DownloadOptions quiet;
  quiet.progress = nullptr;
  auto made = PullModel("tiny-q8", models, *reg, quiet);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ(*made, models / "tiny.Q8_0.gguf");
  EXPECT_EQ(fs::file_size(*made), fs::file_size(q8));
  fs::remove(models / "tiny.gguf");  // the second pull must not need the source
  EXPECT_TRUE(PullModel("tiny-q8", models, *reg, quiet).ok());
}

}  // namespace
}  // namespace regrapht::llm
