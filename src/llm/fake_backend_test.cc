#include "llm/fake_backend.h"

#include <gtest/gtest.h>

namespace regrapht {
namespace {

ChatRequest AskFor(std::string text, int n = 1) {
  ChatRequest r;
  r.messages = {{Role::kUser, std::move(text)}};
  r.n = n;
  return r;
}

TEST(FakeLlmBackendTest, ScriptedRepliesInOrderThenDefault) {
  FakeLlmBackend llm({"one", "two"});
  llm.set_default_reply("again");
  auto r = llm.Chat(AskFor("q", 3));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->choices.size(), 3u);
  EXPECT_EQ(r->choices[0].text, "one");
  EXPECT_EQ(r->choices[1].text, "two");
  EXPECT_EQ(r->choices[2].text, "again");
  EXPECT_EQ(llm.calls(), 1);
  EXPECT_EQ(llm.requests()[0].messages[0].content, "q");
  EXPECT_EQ(r->tokens_generated, 3);
}

TEST(FakeLlmBackendTest, FailNextAndResponder) {
  FakeLlmBackend llm;
  llm.FailNext(Status::Unavailable("down"));
  EXPECT_EQ(llm.Chat(AskFor("q")).status().code(), Status::Code::kUnavailable);
  llm.set_responder([](const ChatRequest& r, int i) {
    return r.messages.back().content + "#" + std::to_string(i);
  });
  EXPECT_EQ(llm.Chat(AskFor("x", 2))->choices[1].text, "x#1");
  std::atomic<bool> cancel{true};
  ChatRequest c = AskFor("y");
  c.cancel = &cancel;
  EXPECT_EQ(llm.Chat(c)->choices[0].finish_reason, FinishReason::kCancelled);
  EXPECT_EQ(llm.Embed({"a"}).status().code(), Status::Code::kUnimplemented);
}

}  // namespace
}  // namespace regrapht
