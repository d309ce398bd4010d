// The OpenAI-compatible backend against a loopback server.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>

#include "llm/test_server.h"
#include "regrapht/llm.h"

namespace regrapht::llm {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string Completion(const std::string& text, int n = 1) {
  json choices = json::array();
  for (int i = 0; i < n; ++i) {
    choices.push_back({{"index", i},
                       {"message", {{"role", "assistant"}, {"content", text + std::to_string(i)}}},
                       {"finish_reason", i == 0 ? "stop" : "length"}});
  }
  return json{{"id", "x"},
              {"model", "served-model"},
              {"choices", choices},
              {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 5 * n}}}}
      .dump();
}

class OpenAiBackendTest : public testing::Test {
 protected:
  void SetUp() override {
    server_.server().Post("/v1/chat/completions",
                          [this](const httplib::Request& req, httplib::Response& res) {
                            std::lock_guard lock(mu_);
                            bodies_.push_back(json::parse(req.body));
                            auth_ = req.get_header_value("Authorization");
                            ++calls_;
                            handler_(req, res);
                          });
  }
  void TearDown() override { stop_ = true; }

  std::unique_ptr<LlmBackend> Backend(OpenAiOptions o = {}) {
    if (o.base_url.empty()) o.base_url = server_.url() + "/v1/";
    if (o.model.empty()) o.model = "test-model";
    o.backoff_initial_s = 0.02;
    o.backoff_max_s = o.backoff_max_s == 60 ? 2 : o.backoff_max_s;
    auto b = NewOpenAiBackend(o);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    return std::move(*b);
  }

  static ChatRequest Ask() {
    ChatRequest r;
    r.messages = {{Role::kSystem, "be brief"}, {Role::kUser, "hi"}};
    r.sampling.temperature = 0.5f;
    r.sampling.max_tokens = 64;
    r.sampling.seed = 9;
    r.sampling.stop = {"</code>"};
    return r;
  }

  TestServer server_;
  std::mutex mu_;
  std::vector<json> bodies_;
  std::string auth_;
  int calls_ = 0;
  std::atomic<bool> stop_{false};
  std::function<void(const httplib::Request&, httplib::Response&)> handler_;
};

TEST_F(OpenAiBackendTest, NormalAnswer) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(Completion("hello"), "application/json");
  };
  OpenAiOptions o;
  o.api_key = "sk-test";
  auto b = Backend(o);
  auto r = b->Chat(Ask());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->choices.size(), 1u);
  EXPECT_EQ(r->choices[0].text, "hello0");
  EXPECT_EQ(r->choices[0].finish_reason, FinishReason::kStop);
  EXPECT_EQ(r->model, "served-model");
  EXPECT_EQ(r->tokens_prompt, 12);
  EXPECT_EQ(r->tokens_generated, 5);
  EXPECT_GT(r->time_generation_ms, 0);
  EXPECT_EQ(auth_, "Bearer sk-test");
  const json& body = bodies_.at(0);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["content"], "hi");
  EXPECT_EQ(body["seed"], 9);
  EXPECT_EQ(body["max_tokens"], 64);
  EXPECT_FLOAT_EQ(body["temperature"].get<float>(), 0.5f);
  EXPECT_EQ(body["stop"][0], "</code>");
  EXPECT_FALSE(body.contains("n"));
  EXPECT_EQ(b->ModelId(), "test-model@" + server_.url() + "/v1");
}

TEST_F(OpenAiBackendTest, NSamplesViaNOrRepeatedRequests) {
  handler_ = [](const httplib::Request& req, httplib::Response& res) {
    int n = json::parse(req.body).value("n", 1);
    res.set_content(Completion("s", n), "application/json");
  };
  ChatRequest r = Ask();
  r.n = 3;
  auto with_n = Backend()->Chat(r);
  ASSERT_TRUE(with_n.ok());
  EXPECT_EQ(with_n->choices.size(), 3u);
  EXPECT_EQ(with_n->choices[2].finish_reason, FinishReason::kLength);
  EXPECT_EQ(bodies_.back()["n"], 3);
  EXPECT_EQ(calls_, 1);

  OpenAiOptions o;
  o.use_n = false;
  auto repeated = Backend(o)->Chat(r);
  ASSERT_TRUE(repeated.ok());
  EXPECT_EQ(repeated->choices.size(), 3u);
  EXPECT_EQ(calls_, 4);
  EXPECT_EQ(bodies_[1]["seed"], 9);
  EXPECT_EQ(bodies_[3]["seed"], 11);
}

TEST_F(OpenAiBackendTest, RetriesAfter429HonouringRetryAfter) {
  handler_ = [this](const httplib::Request&, httplib::Response& res) {
    if (calls_ == 1) {
      res.status = 429;
      res.set_header("Retry-After", "1");
      res.set_content(R"({"error": {"message": "slow down"}})", "application/json");
    } else {
      res.set_content(Completion("ok"), "application/json");
    }
  };
  auto t0 = Clock::now();
  auto r = Backend()->Chat(Ask());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->choices[0].text, "ok0");
  EXPECT_EQ(calls_, 2);
  EXPECT_GE(SecondsSince(t0), 0.95);  // waited what the server asked, not the 0.02 s backoff
}

TEST_F(OpenAiBackendTest, RetriesAfter500) {
  handler_ = [this](const httplib::Request&, httplib::Response& res) {
    if (calls_ <= 2) {
      res.status = 500;
      res.set_content("internal", "text/plain");
    } else {
      res.set_content(Completion("ok"), "application/json");
    }
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(calls_, 3);
}

TEST_F(OpenAiBackendTest, GivesUpAfterMaxRetries) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_content(R"({"error": "overloaded"})", "application/json");
  };
  OpenAiOptions o;
  o.max_retries = 2;
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(r.status().message().find("gave up after 3 attempts"), std::string::npos);
  EXPECT_NE(r.status().message().find("overloaded"), std::string::npos);
  EXPECT_EQ(calls_, 3);
}

TEST_F(OpenAiBackendTest, HangPastTheReadTimeout) {
  handler_ = [this](const httplib::Request&, httplib::Response& res) {
    for (int i = 0; i < 300 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    res.set_content(Completion("late"), "application/json");
  };
  OpenAiOptions o;
  o.read_timeout_s = 0.5;
  auto t0 = Clock::now();
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kDeadlineExceeded) << r.status().ToString();
  EXPECT_NE(r.status().message().find("read timeout"), std::string::npos);
  EXPECT_LT(SecondsSince(t0), 2.5);
  EXPECT_EQ(calls_, 1);  // a slow server is not hammered again
}

TEST_F(OpenAiBackendTest, DripFeedTripsTheRequestDeadline) {
  // One byte every 50 ms: never silent for the read timeout, never done.
  handler_ = [this](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [this](size_t, httplib::DataSink& sink) {
      if (stop_) return false;
      sink.write(" ", 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      return true;
    });
  };
  OpenAiOptions o;
  o.read_timeout_s = 0.5;
  o.request_timeout_s = 1.0;
  auto t0 = Clock::now();
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kDeadlineExceeded) << r.status().ToString();
  EXPECT_NE(r.status().message().find("no complete reply within 1 s"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("--request-timeout"), std::string::npos) << r.status().ToString();
  EXPECT_LT(SecondsSince(t0), 3.0);
  EXPECT_EQ(calls_, 1);
}

TEST_F(OpenAiBackendTest, RetriesStopAtTheRequestDeadline) {
  // The server asks for a 2 s wait; the deadline is sooner: give up now.
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_header("Retry-After", "2");
    res.set_content(R"({"error": "busy"})", "application/json");
  };
  OpenAiOptions o;
  o.request_timeout_s = 0.5;
  o.max_retries = 4;
  auto t0 = Clock::now();
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kDeadlineExceeded) << r.status().ToString();
  EXPECT_NE(r.status().message().find("request deadline"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("busy"), std::string::npos) << r.status().ToString();
  EXPECT_LT(SecondsSince(t0), 1.0);
  EXPECT_EQ(calls_, 1);
}

TEST_F(OpenAiBackendTest, NonStringContentIsAnError) {
  for (const char* content : {"42", "null", "[\"a\"]", "{\"text\": \"x\"}"}) {
    std::string body = std::string(R"({"choices": [{"message": {"role": "assistant", "content": )") + content +
                       R"(}, "finish_reason": "stop"}]})";
    handler_ = [body](const httplib::Request&, httplib::Response& res) { res.set_content(body, "application/json"); };
    auto r = Backend()->Chat(Ask());
    ASSERT_FALSE(r.ok()) << content;
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << content;
    EXPECT_NE(r.status().message().find("not a string"), std::string::npos) << r.status().ToString();
  }
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"choices": [{"message": {"role": "assistant"}}]})", "application/json");
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("has no content"), std::string::npos) << r.status().ToString();
}

TEST_F(OpenAiBackendTest, MalformedJsonIsAClearError) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"choices\": [", "application/json");
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("invalid JSON"), std::string::npos) << r.status().ToString();
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"object": "chat.completion"})", "application/json");
  };
  auto shape = Backend()->Chat(Ask());
  EXPECT_NE(shape.status().message().find("not a chat completion (no \"choices\""), std::string::npos)
      << shape.status().ToString();
}

TEST_F(OpenAiBackendTest, RedirectLoopIsNamedAsSuch) {
  handler_ = [](const httplib::Request& req, httplib::Response& res) {
    res.status = 307;
    res.set_header("Location", req.path);
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("a redirect loop"), std::string::npos) << r.status().ToString();
}

TEST_F(OpenAiBackendTest, Unauthorized) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.status = 401;
    res.set_content(R"({"error": {"message": "Incorrect API key provided"}})", "application/json");
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kPermissionDenied);
  EXPECT_NE(r.status().message().find("Incorrect API key"), std::string::npos);
  EXPECT_NE(r.status().message().find("OPENAI_API_KEY"), std::string::npos);
  EXPECT_EQ(calls_, 1);
}

TEST_F(OpenAiBackendTest, NotFoundNamesTheUrlAndModel) {
  OpenAiOptions o;
  o.base_url = server_.url() + "/wrong";
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_NE(r.status().message().find("/wrong/chat/completions"), std::string::npos);
  EXPECT_NE(r.status().message().find("test-model"), std::string::npos);
}

TEST_F(OpenAiBackendTest, ConnectionRefusedIsRetriedThenUnavailable) {
  OpenAiOptions o;
  o.base_url = "http://127.0.0.1:1/v1";
  o.max_retries = 1;
  auto r = Backend(o)->Chat(Ask());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(r.status().message().find("gave up after 2 attempts"), std::string::npos);
}

TEST_F(OpenAiBackendTest, BoundsRequestsInFlight) {
  std::atomic<int> now{0}, peak{0};
  handler_ = [&](const httplib::Request&, httplib::Response& res) {
    int n = ++now;
    int p = peak.load();
    while (n > p && !peak.compare_exchange_weak(p, n)) {}
    mu_.unlock();  // let other requests in while this one "generates"
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    mu_.lock();
    --now;
    res.set_content(Completion("ok"), "application/json");
  };
  OpenAiOptions o;
  o.max_in_flight = 2;
  auto b = Backend(o);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] { ok += b->Chat(Ask()).ok(); });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 6);
  EXPECT_EQ(peak.load(), 2);
}

TEST_F(OpenAiBackendTest, CancelWhileWaitingToRetry) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("Retry-After", "30");
  };
  std::atomic<bool> cancel{false};
  ChatRequest r = Ask();
  r.cancel = &cancel;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  OpenAiOptions o;
  o.backoff_max_s = 60;
  auto t0 = Clock::now();
  auto resp = Backend(o)->Chat(r);
  t.join();
  EXPECT_LT(SecondsSince(t0), 5);
  ASSERT_TRUE(resp.ok());
  EXPECT_EQ(resp->choices[0].finish_reason, FinishReason::kCancelled);
}

TEST_F(OpenAiBackendTest, LlamaServerTimingsAreUsed) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    json j = json::parse(Completion("t"));
    j["timings"] = {{"prompt_n", 3}, {"prompt_ms", 12.5}, {"predicted_n", 5}, {"predicted_ms", 40.0}};
    res.set_content(j.dump(), "application/json");
  };
  auto r = Backend()->Chat(Ask());
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->time_prompt_ms, 12.5);
  EXPECT_DOUBLE_EQ(r->time_generation_ms, 40.0);
  EXPECT_EQ(r->tokens_prompt_evaluated, 3);
}

TEST_F(OpenAiBackendTest, Embeddings) {
  server_.server().Post("/v1/embeddings", [](const httplib::Request& req, httplib::Response& res) {
    json in = json::parse(req.body);
    json data = json::array();
    for (size_t i = 0; i < in["input"].size(); ++i) {
      data.push_back({{"index", i}, {"embedding", {0.5 * i, 1.0}}});
    }
    res.set_content(json{{"data", data}}.dump(), "application/json");
  });
  auto e = Backend()->Embed({"a", "b"});
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->size(), 2u);
  EXPECT_FLOAT_EQ((*e)[1][0], 0.5f);
  OpenAiOptions o;
  o.base_url = server_.url() + "/other";
  EXPECT_EQ(Backend(o)->Embed({"a"}).status().code(), Status::Code::kUnimplemented);
}

TEST_F(OpenAiBackendTest, GrammarGoesToTheServersGuidedDecodingField) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(Completion("x"), "application/json");
  };
  ChatRequest r = Ask();
  r.shape.grammar = "root ::= \"a\"";
  ASSERT_TRUE(Backend()->Chat(r).ok());  // guided "none": plain prompting
  OpenAiOptions o;
  o.guided = "llama-server";
  ASSERT_TRUE(Backend(o)->Chat(r).ok());
  o.guided = "vllm";
  ASSERT_TRUE(Backend(o)->Chat(r).ok());
  ASSERT_EQ(bodies_.size(), 3u);
  EXPECT_FALSE(bodies_[0].contains("grammar"));
  EXPECT_FALSE(bodies_[0].contains("guided_grammar"));
  EXPECT_EQ(bodies_[1]["grammar"], "root ::= \"a\"");
  EXPECT_FALSE(bodies_[1].contains("guided_grammar"));
  EXPECT_EQ(bodies_[2]["guided_grammar"], "root ::= \"a\"");
  // A prefill cannot be sent: a clear error, no request.
  r.shape.prefill = "```cuda\n";
  auto prefilled = Backend(o)->Chat(r);
  EXPECT_EQ(prefilled.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(prefilled.status().message().find("--prefill off"), std::string::npos);
  EXPECT_EQ(bodies_.size(), 3u);
  o.guided = "outlines";
  o.base_url = server_.url() + "/v1";
  o.model = "m";
  EXPECT_EQ(NewOpenAiBackend(o).status().code(), Status::Code::kInvalidArgument);
}

TEST_F(OpenAiBackendTest, RepetitionControlGoesOnlyToAKnownServerKind) {
  handler_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(Completion("x"), "application/json");
  };
  ChatRequest r = Ask();
  ASSERT_TRUE(Backend()->Chat(r).ok());  // off: no field for any server
  r.sampling.repeat_penalty = 1.2f;
  r.sampling.dry_multiplier = 0.8f;
  ASSERT_TRUE(Backend()->Chat(r).ok());  // guided "none": api.openai.com would refuse them
  OpenAiOptions o;
  o.guided = "llama-server";
  ASSERT_TRUE(Backend(o)->Chat(r).ok());
  o.guided = "vllm";
  ASSERT_TRUE(Backend(o)->Chat(r).ok());
  ASSERT_EQ(bodies_.size(), 4u);
  for (const char* field : {"repeat_penalty", "dry_multiplier", "repetition_penalty"}) {
    EXPECT_FALSE(bodies_[0].contains(field)) << field;
    EXPECT_FALSE(bodies_[1].contains(field)) << field;
  }
  EXPECT_FLOAT_EQ(bodies_[2]["repeat_penalty"].get<float>(), 1.2f);
  EXPECT_FLOAT_EQ(bodies_[2]["dry_multiplier"].get<float>(), 0.8f);
  EXPECT_EQ(bodies_[2]["dry_allowed_length"], 2);
  EXPECT_EQ(bodies_[2]["repeat_last_n"], 64);
  EXPECT_FALSE(bodies_[2].contains("repetition_penalty"));
  EXPECT_FLOAT_EQ(bodies_[3]["repetition_penalty"].get<float>(), 1.2f);
  EXPECT_FALSE(bodies_[3].contains("dry_multiplier"));
}

TEST(OpenAiFactoryTest, NeedsAnEndpointAndAModel) {
  unsetenv("OPENAI_BASE_URL");
  OpenAiOptions o;
  o.model = "m";
  EXPECT_EQ(NewOpenAiBackend(o).status().code(), Status::Code::kInvalidArgument);
  setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1", 1);
  auto b = NewOpenAiBackend(o);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->ModelId(), "m@http://127.0.0.1:9/v1");
  unsetenv("OPENAI_BASE_URL");
  o.model.clear();
  o.base_url = "http://x/v1";
  EXPECT_EQ(NewOpenAiBackend(o).status().code(), Status::Code::kInvalidArgument);
  o.model = "m";
  o.base_url = "ftp://x";
  EXPECT_EQ(NewOpenAiBackend(o).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace regrapht::llm
