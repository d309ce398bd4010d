#include "graph/llm_relabeler.h"

#include <gtest/gtest.h>

#include "core/json_util.h"
#include "graph/test_util.h"
#include "llm/fake_backend.h"

namespace regrapht {
namespace {

class LlmRelabelerTest : public testing::Test {
 protected:
  void SetUp() override {
    auto tax = Taxonomy::Builtin();
    ASSERT_TRUE(tax.ok()) << tax.status().ToString();
    taxonomy_ = std::move(tax).value();
    auto prompt = ReadFile(testing_util::SourceDir() / "data" / "prompts" / "relabel_system.txt");
    ASSERT_TRUE(prompt.ok()) << prompt.status().ToString();
    options_.system_prompt = *prompt;
    // Step 0 the taxonomy's names place; step 1 they do not.
    trajectory_ = testing_util::MakeTrajectory(
        "k", "void k(){}", {{"Loop Unrolling", "a"}, {"Bit packing of flags", "b"}}, false);
    input_.trajectory = &trajectory_;
    input_.graph_methods = {"Loop unrolling", "Bit packing"};
  }
  std::string Name(const char* id) const { return taxonomy_.Find(id)->name; }

  Taxonomy taxonomy_;
  LlmRelabelerOptions options_;
  Trajectory trajectory_;
  RelabelInput input_;
  FakeLlmBackend llm_;
};

TEST_F(LlmRelabelerTest, SendsMethodsAndProcessAndMapsYesToTechniqueIds) {
  llm_.AddReply("Sure. Here are the labels:\n```json\n[{\"existed\": \"yes\", \"method\": \"" +
                Name("loop_unrolling") + "\"},\n {\"existed\": \"Yes\", \"method\": \"" +
                Name("vectorized_memory_access") + "\"}]\n```\nHope this helps.");
  LlmRelabeler relabeler(&llm_, &taxonomy_, options_);
  auto d = relabeler.Relabel(input_);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[0].technique_id, "loop_unrolling");
  EXPECT_EQ((*d)[1].outcome, LabelOutcome::kMatched);
  EXPECT_EQ((*d)[1].technique_id, "vectorized_memory_access");
  EXPECT_EQ((*d)[1].rule, LabelRule::kExternal);
  EXPECT_EQ((*d)[1].method, "Bit packing of flags");  // the label as written stays
  EXPECT_NE((*d)[1].note.find("\"existed\":\"Yes\""), std::string::npos) << (*d)[1].note;

  // The request: the prompt file as the system message, then the paper's
  // {"methods", "process"} object.
  ASSERT_EQ(llm_.calls(), 1);
  std::vector<ChatRequest> requests = llm_.requests();
  const ChatRequest& r = requests[0];
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0].role, Role::kSystem);
  EXPECT_EQ(r.messages[0].content, options_.system_prompt);
  EXPECT_EQ(r.sampling.temperature, 0.0f);
  auto user = ParseJson(r.messages[1].content, "user message");
  ASSERT_TRUE(user.ok()) << user.status().ToString();
  const Json& methods = (*user)["methods"];
  // Every taxonomy name once, then the graph's names outside the taxonomy
  // ("Loop unrolling" is a taxonomy name already).
  ASSERT_EQ(methods.size(), taxonomy_.techniques().size() + 1);
  EXPECT_EQ(methods[0], taxonomy_.techniques()[0].name);
  EXPECT_EQ(methods.back(), "Bit packing");
  ASSERT_EQ((*user)["process"].size(), 2u);
  EXPECT_EQ((*user)["process"][1]["method"], "Bit packing of flags");
  EXPECT_EQ((*user)["process"][1]["detail"], "apply Bit packing of flags");
  EXPECT_FALSE((*user)["process"][1].contains("code"));
}

TEST_F(LlmRelabelerTest, NoIsNewOrRejectedPerPolicy) {
  const std::string answer = "[{\"existed\": \"yes\", \"method\": \"" + Name("loop_unrolling") +
                             "\"}, {\"existed\": \"no\", \"method\": \"Float4 packing\"}]";
  llm_.set_default_reply(answer);
  LlmRelabeler flag(&llm_, &taxonomy_, options_);
  auto d = flag.Relabel(input_);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ((*d)[1].outcome, LabelOutcome::kNewTechnique);
  EXPECT_EQ((*d)[1].rule, LabelRule::kExternal);
  EXPECT_EQ((*d)[1].technique_id, "");
  EXPECT_EQ((*d)[1].method, "Bit packing of flags");  // "no" never renames
  EXPECT_NE((*d)[1].note.find("Float4 packing"), std::string::npos);
  EXPECT_EQ((*d)[1].Describe().rfind("new technique, flagged for review (by another relabeler: model: ", 0),
            0u)
      << (*d)[1].Describe();

  LlmRelabelerOptions strict = options_;
  strict.unknown = UnknownLabelPolicy::kReject;
  LlmRelabeler reject(&llm_, &taxonomy_, strict);
  auto r = reject.Relabel(input_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].outcome, LabelOutcome::kMatched);
  EXPECT_EQ((*r)[1].outcome, LabelOutcome::kRejected);
  Trajectory copy = trajectory_;
  EXPECT_FALSE(ApplyLabels(*r, &copy).ok());
}

TEST_F(LlmRelabelerTest, YesToAGraphNodeOutsideTheTaxonomyStaysFlagged) {
  llm_.set_default_reply("[{\"existed\": \"yes\", \"method\": \"" + Name("loop_unrolling") +
                         "\"}, {\"existed\": \"yes\", \"method\": \"bit packing\"}]");
  LlmRelabeler relabeler(&llm_, &taxonomy_, options_);
  auto d = relabeler.Relabel(input_);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ((*d)[1].outcome, LabelOutcome::kNewTechnique);
  EXPECT_EQ((*d)[1].closest, "Bit packing");
}

TEST_F(LlmRelabelerTest, MalformedAnswersAreErrorsNotRenames) {
  struct Case {
    std::string reply;
    std::string error;
  };
  const std::string unroll = "{\"existed\": \"yes\", \"method\": \"" + Name("loop_unrolling") + "\"}";
  const Case cases[] = {
      {"I cannot help with that.", "llm relabeler: unreadable answer (no JSON in the reply)"},
      {"[" + unroll + ", {\"existed\": \"no\", \"meth",
       "llm relabeler: unreadable answer (the JSON could not be read: "},
      {"[" + unroll + "]", "llm relabeler: 1 labels for 2 steps"},
      {"[" + unroll + ", " + unroll + ", " + unroll + "]", "llm relabeler: 3 labels for 2 steps"},
      {"[" + unroll + ", {\"existed\": \"yes\", \"method\": \"Float4 packing\"}]",
       "llm relabeler: steps[1] (\"Bit packing of flags\"): \"yes\" names \"Float4 packing\", "
       "which is not in the methods list"},
      {"[" + unroll + ", {\"existed\": \"maybe\", \"method\": \"x\"}]",
       "llm relabeler: steps[1]: \"existed\" must be \"yes\" or \"no\", got \"maybe\""},
      {"[" + unroll + ", \"loop unrolling\"]",
       "llm relabeler: steps[1]: expected {\"existed\": ..., \"method\": \"...\"}, got"},
      {"{\"a\": [1], \"b\": [2]}", "llm relabeler: expected a JSON list of {existed, method}"},
  };
  for (const Case& c : cases) {
    FakeLlmBackend llm;
    llm.set_default_reply(c.reply);
    LlmRelabeler relabeler(&llm, &taxonomy_, options_);
    auto d = relabeler.Relabel(input_);
    ASSERT_FALSE(d.ok()) << c.reply;
    EXPECT_EQ(d.status().message().rfind(c.error, 0), 0u) << d.status().message();
  }
  // A wrapped list is accepted.
  llm_.set_default_reply("{\"labels\": [" + unroll + ", " + unroll + "]}");
  LlmRelabeler relabeler(&llm_, &taxonomy_, options_);
  EXPECT_TRUE(relabeler.Relabel(input_).ok());
  // A backend failure is the backend's Status, with context.
  llm_.FailNext(Status::Unavailable("connection refused"));
  auto down = relabeler.Relabel(input_);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), Status::Code::kUnavailable);
  EXPECT_EQ(down.status().message(), "llm relabeler: connection refused");
}

TEST_F(LlmRelabelerTest, ChainAsksTheModelOnlyWhenTheTaxonomyFallsShort) {
  DeterministicRelabeler first(&taxonomy_);
  // The model disagrees about step 0; the deterministic match stands.
  llm_.set_default_reply("[{\"existed\": \"yes\", \"method\": \"" + Name("tensor_cores") +
                         "\"}, {\"existed\": \"yes\", \"method\": \"" +
                         Name("vectorized_memory_access") + "\"}]");
  LlmRelabeler second(&llm_, &taxonomy_, options_);
  ChainRelabeler chain(&first, &second);
  auto d = chain.Relabel(input_);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(llm_.calls(), 1);
  EXPECT_EQ((*d)[0].technique_id, "loop_unrolling");
  EXPECT_EQ((*d)[0].rule, LabelRule::kSynonym);
  EXPECT_EQ((*d)[1].technique_id, "vectorized_memory_access");
  EXPECT_EQ((*d)[1].rule, LabelRule::kExternal);

  Trajectory easy = testing_util::MakeTrajectory("k", "s", {{"Loop Unrolling", "a"}}, false);
  RelabelInput all_known;
  all_known.trajectory = &easy;
  ASSERT_TRUE(chain.Relabel(all_known).ok());
  EXPECT_EQ(llm_.calls(), 1);  // not asked
}

}  // namespace
}  // namespace regrapht
