// The embedded backend on a tiny random-weight model (tiny_gguf.h): real
// llama.cpp loading, templates, sampling, KV-prefix reuse and overflow rules.
#include "llm/llama_backend.h"

#include <gtest/gtest.h>

#include <thread>

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
  auto b = Load();
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
  EXPECT_EQ(Load()->Chat(single)->choices[0].text, resp->choices[1].text);
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

TEST_F(LlamaBackendTest, ConcurrentCallsAreSerialised) {
  auto b = Load();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] {
      auto r = b->Chat(Request("question " + std::to_string(i), 6));
      if (r.ok() && r->choices[0].tokens_generated == 6) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 3);
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

TEST(PhysicalCoresTest, AtLeastOne) { EXPECT_GE(PhysicalCores(), 1); }

}  // namespace
}  // namespace regrapht::llm
