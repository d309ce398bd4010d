#include <gtest/gtest.h>

#include <atomic>

#include "core/clock.h"
#include "llm/fake_backend.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

// A replica that answers with its name, or fails while `down` is set.
class Replica final : public LlmBackend {
 public:
  Replica(std::string name, Status fault = Status::Unavailable("connection refused"))
      : name_(std::move(name)), fault_(std::move(fault)) {}
  Result<ChatResponse> Chat(const ChatRequest&) override {
    ++calls;
    if (down) return fault_;
    ChatResponse r;
    r.choices.push_back({name_, FinishReason::kStop, 1, 0, {}});
    return r;
  }
  std::string Name() const override { return "openai"; }
  std::string ModelId() const override { return "qwen@http://" + name_ + "/v1"; }

  std::atomic<bool> down{false};
  std::atomic<int> calls{0};

 private:
  std::string name_;
  Status fault_;
};

struct Fixture {
  Replica* a;
  Replica* b;
  Replica* c;
  std::unique_ptr<LlmBackend> backend;
};

Fixture Make(const FakeClock* clock, Status fault = Status::Unavailable("connection refused")) {
  Fixture f;
  std::vector<std::unique_ptr<LlmBackend>> rs;
  for (const char* n : {"a", "b", "c"}) rs.push_back(std::make_unique<Replica>(n, fault));
  f.a = static_cast<Replica*>(rs[0].get());
  f.b = static_cast<Replica*>(rs[1].get());
  f.c = static_cast<Replica*>(rs[2].get());
  ReplicaOptions o;
  o.cooldown_initial_s = 10;
  o.cooldown_max_s = 40;
  auto made = NewReplicaBackend(std::move(rs), o, clock);
  EXPECT_TRUE(made.ok());
  f.backend = std::move(*made);
  return f;
}

std::string AskText(LlmBackend* b) {
  ChatRequest req;
  req.messages = {{Role::kUser, "hi"}};
  auto r = b->Chat(req);
  return r.ok() ? r->choices[0].text : "error: " + r.status().message();
}

TEST(ReplicaBackendTest, RoundRobin) {
  FakeClock clock;
  Fixture f = Make(&clock);
  EXPECT_EQ(f.backend->ModelId(), "qwen@http://a/v1,http://b/v1,http://c/v1");
  EXPECT_EQ(f.backend->Name(), "openai");
  std::string seen;
  for (int i = 0; i < 6; ++i) seen += AskText(f.backend.get());
  EXPECT_EQ(seen, "abcabc");
}

TEST(ReplicaBackendTest, RoutesAroundAFailingReplicaAndRetriesItLater) {
  FakeClock clock;
  Fixture f = Make(&clock);
  f.b->down = true;
  std::string seen;
  for (int i = 0; i < 6; ++i) seen += AskText(f.backend.get());
  // b failed once (its request went on to c), then rested; a and c shared the rest.
  EXPECT_EQ(f.b->calls, 1);
  EXPECT_EQ(seen.find('b'), std::string::npos);
  EXPECT_GE(std::count(seen.begin(), seen.end(), 'a'), 2) << seen;
  EXPECT_GE(std::count(seen.begin(), seen.end(), 'c'), 2) << seen;
  // After its rest it is tried again; still down: a longer rest (20 s).
  clock.Advance(10);
  for (int i = 0; i < 3; ++i) seen += AskText(f.backend.get());
  EXPECT_EQ(f.b->calls, 2);
  clock.Advance(10);
  (void)AskText(f.backend.get());
  EXPECT_EQ(f.b->calls, 2);
  // Back up: it serves its share again.
  f.b->down = false;
  clock.Advance(40);
  seen.clear();
  for (int i = 0; i < 6; ++i) seen += AskText(f.backend.get());
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 'b'), 2) << seen;
}

TEST(ReplicaBackendTest, AllDownFailsNamingTheCount) {
  FakeClock clock;
  Fixture f = Make(&clock);
  f.a->down = f.b->down = f.c->down = true;
  EXPECT_EQ(AskText(f.backend.get()), "error: all 3 replicas failed: connection refused");
  // Resting replicas are still tried when none is ready.
  f.c->down = false;
  EXPECT_EQ(AskText(f.backend.get()), "c");
}

TEST(ReplicaBackendTest, RequestErrorsAreNotTheReplicas) {
  FakeClock clock;
  Fixture f = Make(&clock, Status::InvalidArgument("HTTP 400: prompt too long"));
  f.a->down = true;
  EXPECT_EQ(AskText(f.backend.get()), "error: HTTP 400: prompt too long");
  EXPECT_EQ(f.b->calls + f.c->calls, 0);
  f.a->down = false;
  EXPECT_EQ(AskText(f.backend.get()), "b");  // a was not put to rest, the turn moved on
  EXPECT_EQ(AskText(f.backend.get()), "c");
  EXPECT_EQ(AskText(f.backend.get()), "a");
}

TEST(ReplicaBackendTest, SharedModelIdIsKept) {
  std::vector<std::unique_ptr<LlmBackend>> rs;
  for (const char* url : {"http://a/v1", "http://b/v1"}) {
    OpenAiOptions o;
    o.base_url = url;
    o.model = "qwen";
    o.model_id = "qwen-7b@cluster";
    rs.push_back(std::move(*NewOpenAiBackend(o)));
  }
  auto b = NewReplicaBackend(std::move(rs));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->ModelId(), "qwen-7b@cluster");
}

TEST(ReplicaBackendTest, RefusesAnEmptyList) { EXPECT_FALSE(NewReplicaBackend({}).ok()); }

}  // namespace
}  // namespace regrapht
