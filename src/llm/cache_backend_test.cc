#include <gtest/gtest.h>

#include "core/fs.h"
#include "llm/fake_backend.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

ChatRequest Ask(std::string text) {
  ChatRequest r;
  r.messages = {{Role::kSystem, "sys"}, {Role::kUser, std::move(text)}};
  r.sampling.seed = 1;
  return r;
}

TEST(CachedBackendTest, SecondIdenticalRequestIsServedFromDisk) {
  auto dir = TempDir::Create("rgcache");
  fs::path db = dir->path() / "cache" / "llm.db";
  auto fake = std::make_unique<FakeLlmBackend>(std::vector<std::string>{"first", "second"});
  FakeLlmBackend* raw = fake.get();
  auto cached = NewCachedBackend(std::move(fake), db);
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  EXPECT_EQ((*cached)->Name(), "cached(fake)");

  auto a = (*cached)->Chat(Ask("q"));
  auto b = (*cached)->Chat(Ask("q"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(raw->calls(), 1);
  EXPECT_EQ(b->choices[0].text, "first");
  EXPECT_TRUE(b->from_cache);
  EXPECT_EQ(b->tokens_generated, a->tokens_generated);
  EXPECT_EQ(b->tokens_prompt, a->tokens_prompt);

  // Anything that can change the answer changes the key.
  ChatRequest other_seed = Ask("q");
  other_seed.sampling.seed = 2;
  EXPECT_EQ((*cached)->Chat(other_seed)->choices[0].text, "second");
  EXPECT_EQ(raw->calls(), 2);

  // A new process (a new backend over the same file) resumes from the cache.
  auto fake2 = std::make_unique<FakeLlmBackend>();
  FakeLlmBackend* raw2 = fake2.get();
  auto reopened = NewCachedBackend(std::move(fake2), db);
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ((*reopened)->Chat(Ask("q"))->choices[0].text, "first");
  EXPECT_EQ(raw2->calls(), 0);
}

TEST(CachedBackendTest, KeyCoversEverySamplingField) {
  FakeLlmBackend llm;
  ChatRequest base = Ask("q");
  std::string k = CacheKey(llm, base);
  EXPECT_EQ(k.size(), 32u);
  EXPECT_EQ(k, CacheKey(llm, base));
  std::vector<ChatRequest> variants(14, base);
  variants[9].sampling.repeat_penalty = 1.1f;
  variants[10].sampling.dry_multiplier = 0.8f;
  variants[11] = variants[10];
  variants[11].sampling.dry_base = 2.0f;
  variants[12] = variants[10];
  variants[12].sampling.dry_allowed_length = 3;
  variants[13] = variants[9];
  variants[13].sampling.repeat_last_n = 32;
  variants[0].sampling.temperature = 0.1f;
  variants[1].sampling.top_p = 0.5f;
  variants[2].sampling.top_k = 3;
  variants[3].sampling.max_tokens = 7;
  variants[4].sampling.seed = 99;
  variants[5].sampling.stop = {"</s>"};
  variants[6].n = 2;
  variants[7].messages[0].role = Role::kUser;
  variants[8].messages[1].content = "q2";
  for (const auto& v : variants) EXPECT_NE(CacheKey(llm, v), k);
  EXPECT_NE(CacheKey(llm, variants[11]), CacheKey(llm, variants[10]));
  EXPECT_NE(CacheKey(llm, variants[12]), CacheKey(llm, variants[10]));
  EXPECT_NE(CacheKey(llm, variants[13]), CacheKey(llm, variants[9]));
  // While off, the repetition fields are not keyed (earlier keys stay valid).
  ChatRequest off = base;
  off.sampling.dry_base = 3.0f;  // unused while DRY is off
  EXPECT_EQ(CacheKey(llm, off), k);
  FakeLlmBackend other;
  other.set_model_id("other-model");
  EXPECT_NE(CacheKey(other, base), k);
}

TEST(CachedBackendTest, FailuresAndCancelledAnswersAreNotStored) {
  auto dir = TempDir::Create("rgcache");
  auto fake = std::make_unique<FakeLlmBackend>(std::vector<std::string>{"late"});
  FakeLlmBackend* raw = fake.get();
  auto cached = NewCachedBackend(std::move(fake), dir->path() / "llm.db");
  raw->FailNext(Status::Unavailable("down"));
  EXPECT_FALSE((*cached)->Chat(Ask("q")).ok());
  std::atomic<bool> cancel{true};
  ChatRequest c = Ask("q");
  c.cancel = &cancel;
  EXPECT_EQ((*cached)->Chat(c)->choices[0].finish_reason, FinishReason::kCancelled);
  EXPECT_EQ((*cached)->Chat(Ask("q"))->choices[0].text, "late");
  EXPECT_EQ(raw->calls(), 3);
}

TEST(CachedBackendTest, UnwritableLocationIsAStatus) {
  auto cached = NewCachedBackend(std::make_unique<FakeLlmBackend>(), "/proc/nope/llm.db");
  EXPECT_FALSE(cached.ok());
}

}  // namespace
}  // namespace regrapht
