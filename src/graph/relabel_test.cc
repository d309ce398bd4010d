#include "graph/relabel.h"

#include <gtest/gtest.h>

#include "graph/label_text.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

class RelabelTest : public testing::Test {
 protected:
  void SetUp() override {
    auto tax = Taxonomy::Builtin();
    ASSERT_TRUE(tax.ok()) << tax.status().ToString();
    taxonomy_ = std::move(tax).value();
  }
  Taxonomy taxonomy_;
};

TEST(LabelTextTest, NormalizesAndStems) {
  EXPECT_EQ(NormalizeLabel("  Shared-Memory  Tiling! "), "shared memory tiling");
  EXPECT_EQ(NormalizeLabel("__shfl_down_sync"), "shfl down sync");
  EXPECT_EQ(StemWord("coalesced"), StemWord("coalescing"));
  EXPECT_EQ(StemWord("coalesce"), StemWord("coalescing"));
  EXPECT_EQ(StemWord("parallelization"), "parallel");
  EXPECT_EQ(StemWord("parallelize"), "parallel");
  EXPECT_EQ(StemWord("parallelism"), "parallel");
  EXPECT_EQ(StemWord("tiled"), StemWord("tiling"));
  EXPECT_EQ(StemWord("tiles"), StemWord("tile"));
  EXPECT_EQ(StemWord("aggregated"), StemWord("aggregation"));
  EXPECT_EQ(StemWord("accesses"), "access");
  EXPECT_EQ(StemWord("float4"), "float4");
  EXPECT_EQ(StemKey("Use shared memory tiling"), StemKey("tiling with shared memory"));
  auto tokens = LabelTokens("Kernel fusion to reduce traffic");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].weight, 1.0);
  EXPECT_EQ(tokens[2].weight, 0.5);  // "reduce" is in the purpose clause
}

// Method names as LLMs write them in optimization trajectories.
TEST_F(RelabelTest, RealisticPhrasings) {
  struct Case {
    const char* method;
    const char* technique;
  };
  const Case cases[] = {
      {"Use shared memory tiling", "shared_memory_tiling"},
      {"Shared Memory Optimization", "shared_memory_tiling"},
      {"Tiled matrix multiplication using shared memory", "shared_memory_tiling"},
      {"Tiling the computation with shared memory to reduce global memory traffic",
       "shared_memory_tiling"},
      {"coalesced memory access", "memory_coalescing"},
      {"Memory Coalescing Optimization", "memory_coalescing"},
      {"Ensure coalesced global memory reads", "memory_coalescing"},
      {"Basic CUDA Parallelization", "thread_mapping"},
      {"Parallelize the outer loop across threads", "thread_mapping"},
      {"Naive CUDA implementation with one thread per element", "thread_mapping"},
      {"Loop Unrolling", "loop_unrolling"},
      {"Unroll the inner loop with #pragma unroll", "loop_unrolling"},
      {"Warp-level reduction using __shfl_down_sync", "warp_shuffle_reduction"},
      {"Warp Shuffle Instructions for Reduction", "warp_shuffle_reduction"},
      {"Parallel reduction in shared memory", "block_tree_reduction"},
      {"Tree-based parallel reduction", "block_tree_reduction"},
      {"Use atomicAdd for accumulation", "atomic_operations"},
      {"Atomic Operations", "atomic_operations"},
      {"Shared memory privatization for the histogram", "atomic_aggregation"},
      {"Warp-aggregated atomic operations", "atomic_aggregation"},
      {"Grid-Stride Loop for scalability", "grid_stride_loop"},
      {"Avoid bank conflicts with padding", "bank_conflict_avoidance"},
      {"Pad the shared memory array to avoid bank conflicts", "bank_conflict_avoidance"},
      {"Minimize Warp Divergence", "warp_divergence_elimination"},
      {"Eliminate branch divergence", "warp_divergence_elimination"},
      {"Use __ldg for read-only data", "read_only_cache"},
      {"Use const __restrict__ pointers", "read_only_cache"},
      {"Constant Memory for filter coefficients", "constant_memory"},
      {"Vectorized memory access with float4", "vectorized_memory_access"},
      {"Use float4 vector loads", "vectorized_memory_access"},
      {"Fast math intrinsics (__expf)", "fast_math_intrinsics"},
      {"Tune block size for occupancy", "launch_configuration"},
      {"Optimize launch configuration", "launch_configuration"},
      {"Kernel Fusion to reduce memory traffic", "kernel_fusion"},
      {"Fuse the two kernels into one", "kernel_fusion"},
      {"Reduce host-device data transfers", "minimize_transfers"},
      {"Use pinned host memory", "pinned_memory"},
      {"Overlap data transfer and computation using CUDA streams", "streams_overlap"},
      {"Asynchronous copies with cp.async and double buffering", "double_buffering"},
      {"Use Tensor Cores via WMMA", "tensor_cores"},
      {"Use cuBLAS for matrix multiplication", "library_calls"},
      {"Work-efficient parallel prefix sum (Blelloch scan)", "prefix_scan"},
      {"Thread coarsening: each thread computes 4 outputs", "register_tiling"},
      {"Register blocking (2D register tiles)", "register_tiling"},
      {"Cache frequently used values in registers", "register_caching"},
      {"Texture memory for spatial locality", "texture_memory"},
      {"Loop interchange for coalesced access", "loop_interchange"},
      {"Strength reduction: replace division by multiplication", "strength_reduction"},
      {"Convert AoS to SoA", "data_layout_transformation"},
      {"Early exit for out-of-bounds threads", "early_exit"},
      {"Use half precision (FP16)", "mixed_precision"},
      {"Persistent kernel with a work queue", "persistent_kernels"},
      {"CUDA Graphs to reduce launch overhead", "cuda_graphs"},
      {"Cooperative groups for grid-wide synchronization", "cooperative_groups"},
      {"Use cudaMallocManaged and cudaMemPrefetchAsync", "unified_memory_prefetch"},
      {"Dynamic parallelism for recursive subdivision", "dynamic_parallelism"},
      {"Multiple independent accumulators to increase ILP", "instruction_level_parallelism"},
      {"Reduce __syncthreads calls", "synchronization_reduction"},
      {"Load balancing with one warp per row", "load_balancing"},
      {"shared_memory_tiling", "shared_memory_tiling"},
      {"Thread Block Clusters with distributed shared memory", "thread_block_clusters"},
  };
  DeterministicRelabeler relabeler(&taxonomy_);
  int n = 0;
  for (const auto& c : cases) {
    LabelDecision d = relabeler.Decide(c.method);
    if (std::getenv("RG_VERBOSE")) std::printf("%-70s %s\n", c.method, d.Describe().c_str());
    EXPECT_TRUE(d.matched()) << c.method << ": " << d.Describe();
    EXPECT_EQ(d.technique_id, c.technique) << c.method << ": " << d.Describe();
    ++n;
  }
  EXPECT_GE(n, 40);
}

TEST_F(RelabelTest, UnrelatedLabelsAreNotMatched) {
  DeterministicRelabeler relabeler(&taxonomy_);
  for (const char* method :
       {"Refactor the code for readability", "Quantum annealing", "Add comments and documentation",
        "Add CUDA error checking", "Bit packing of flags", "Bit packing",
        "Use a better data structure"}) {
    LabelDecision d = relabeler.Decide(method);
    EXPECT_FALSE(d.matched()) << method << ": " << d.Describe();
    EXPECT_EQ(d.outcome, LabelOutcome::kNewTechnique) << method;
  }
  LabelDecision empty = relabeler.Decide("Optimization");
  EXPECT_EQ(empty.rule, LabelRule::kEmpty);
  EXPECT_EQ(empty.Describe(), "new technique, flagged for review (no content words)");
}

TEST_F(RelabelTest, DecisionsSayHowTheyMatched) {
  DeterministicRelabeler relabeler(&taxonomy_);
  EXPECT_EQ(relabeler.Decide("loop_unrolling").Describe(),
            "matched loop_unrolling by technique id");
  EXPECT_EQ(relabeler.Decide("Shared Memory").Describe(),
            "matched shared_memory_tiling by synonym \"shared memory\" (score 1.00)");
  LabelDecision stemmed = relabeler.Decide("unrolled loops");
  EXPECT_EQ(stemmed.rule, LabelRule::kStemmed);
  EXPECT_EQ(stemmed.technique_id, "loop_unrolling");
  LabelDecision overlap = relabeler.Decide("Kernel Fusion to reduce memory traffic");
  EXPECT_EQ(overlap.rule, LabelRule::kTokenOverlap);
  EXPECT_GE(overlap.score, 0.5);
  EXPECT_LT(overlap.score, 1.0);
}

TEST_F(RelabelTest, RejectPolicyAndThreshold) {
  DeterministicRelabelerOptions options;
  options.unknown = UnknownLabelPolicy::kReject;
  DeterministicRelabeler strict(&taxonomy_, options);
  LabelDecision d = strict.Decide("Quantum annealing");
  EXPECT_EQ(d.outcome, LabelOutcome::kRejected);
  // A threshold of 1 accepts only exact rules.
  options.threshold = 1.0;
  DeterministicRelabeler exact(&taxonomy_, options);
  EXPECT_FALSE(exact.Decide("Kernel Fusion to reduce memory traffic").matched());
  EXPECT_TRUE(exact.Decide("kernel fusion").matched());
}

TEST_F(RelabelTest, RelabelsAWholeTrajectoryAndApplies) {
  Trajectory t = testing_util::MakeTrajectory(
      "k", "void k(){}",
      {{"Basic CUDA Parallelization", "a"}, {"Shared Memory Optimization", "b"},
       {"Bit packing of flags", "c"}},
      /*ids_are_techniques=*/false);
  DeterministicRelabeler relabeler(&taxonomy_);
  RelabelInput input;
  input.trajectory = &t;
  auto decisions = relabeler.Relabel(input);
  ASSERT_TRUE(decisions.ok());
  ASSERT_EQ(decisions->size(), 3u);
  ASSERT_TRUE(ApplyLabels(*decisions, &t).ok());
  EXPECT_EQ(t.steps[0].technique_id, "thread_mapping");
  EXPECT_EQ(t.steps[1].technique_id, "shared_memory_tiling");
  EXPECT_EQ(t.steps[2].technique_id, "");  // new technique, flagged
  EXPECT_EQ(t.steps[2].method, "Bit packing of flags");  // never renamed

  // Under kReject the trajectory is refused, naming the step.
  DeterministicRelabelerOptions options;
  options.unknown = UnknownLabelPolicy::kReject;
  DeterministicRelabeler strict(&taxonomy_, options);
  auto strict_decisions = strict.Relabel(input);
  ASSERT_TRUE(strict_decisions.ok());
  Trajectory copy = t;
  Status s = ApplyLabels(*strict_decisions, &copy);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("k: steps[2].method \"Bit packing of flags\": rejected (", 0), 0u)
      << s.message();
  Status count = ApplyLabels({}, &copy);
  EXPECT_EQ(count.message(), "k: 0 labels for 3 steps");
}

// A stand-in for the LLM relabeler: answers from a script.
class ScriptedRelabeler final : public Relabeler {
 public:
  explicit ScriptedRelabeler(std::vector<LabelDecision> answer) : answer_(std::move(answer)) {}
  Result<std::vector<LabelDecision>> Relabel(const RelabelInput&) override {
    ++calls;
    return answer_;
  }
  std::string_view Name() const override { return "scripted"; }
  int calls = 0;

 private:
  std::vector<LabelDecision> answer_;
};

TEST_F(RelabelTest, ChainAsksTheSecondOnlyForUnmatchedSteps) {
  Trajectory t = testing_util::MakeTrajectory(
      "k", "void k(){}", {{"Loop Unrolling", "a"}, {"Bit packing of flags", "b"}}, false);
  DeterministicRelabeler first(&taxonomy_);
  LabelDecision llm;
  llm.outcome = LabelOutcome::kMatched;
  llm.technique_id = "vectorized_memory_access";
  llm.rule = LabelRule::kExternal;
  llm.note = "existed: yes";
  LabelDecision llm_wrong = llm;
  llm_wrong.technique_id = "tensor_cores";
  ScriptedRelabeler second({llm_wrong, llm});
  ChainRelabeler chain(&first, &second);
  RelabelInput input;
  input.trajectory = &t;
  auto d = chain.Relabel(input);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(second.calls, 1);
  EXPECT_EQ((*d)[0].technique_id, "loop_unrolling");  // first's match stands
  EXPECT_EQ((*d)[1].technique_id, "vectorized_memory_access");
  EXPECT_EQ((*d)[1].Describe(),
            "matched vectorized_memory_access by another relabeler: existed: yes");

  // All matched: the second is not asked.
  Trajectory easy = testing_util::MakeTrajectory("k", "s", {{"Loop Unrolling", "a"}}, false);
  input.trajectory = &easy;
  ASSERT_TRUE(chain.Relabel(input).ok());
  EXPECT_EQ(second.calls, 1);

  // An unmatched answer from the second also stands (it says who decided),
  // keeping the first's closest candidate for review.
  Trajectory near = testing_util::MakeTrajectory(
      "k", "void k(){}", {{"Loop Unrolling", "a"}, {"Register exchange between lanes", "b"}}, false);
  ASSERT_EQ(first.Decide("Register exchange between lanes").closest, "register_caching");
  LabelDecision llm_new;
  llm_new.method = "Register exchange between lanes";
  llm_new.outcome = LabelOutcome::kNewTechnique;
  llm_new.rule = LabelRule::kExternal;
  llm_new.note = "existed: no";
  ScriptedRelabeler says_new({llm_wrong, llm_new});
  ChainRelabeler chain_new(&first, &says_new);
  input.trajectory = &near;
  auto n = chain_new.Relabel(input);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ((*n)[0].technique_id, "loop_unrolling");  // the first's match stands
  EXPECT_EQ((*n)[1].outcome, LabelOutcome::kNewTechnique);
  EXPECT_EQ((*n)[1].rule, LabelRule::kExternal);
  EXPECT_EQ((*n)[1].note, "existed: no");
  EXPECT_EQ((*n)[1].closest, "register_caching");

  // A wrong-length answer is an error of the second relabeler.
  ScriptedRelabeler short_answer({});
  ChainRelabeler broken(&first, &short_answer);
  input.trajectory = &t;
  auto e = broken.Relabel(input);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "scripted relabeler returned 0 decisions for 2 steps");
}

TEST(RelabelMethodsTest, DecidesEachNameWithTheBuiltinTaxonomy) {
  auto labels = RelabelMethods({"shared_memory_tiling", "make it go brrr"}, {}, 0.6);
  ASSERT_TRUE(labels.ok()) << labels.status().ToString();
  ASSERT_EQ(labels->size(), 2u);
  EXPECT_EQ((*labels)[0].method, "shared_memory_tiling");
  EXPECT_EQ((*labels)[0].outcome, "matched");
  EXPECT_EQ((*labels)[0].technique, "shared_memory_tiling");
  EXPECT_EQ((*labels)[0].rule, "technique-id");
  EXPECT_FALSE((*labels)[0].description.empty());
  EXPECT_EQ((*labels)[1].outcome, "new");
  EXPECT_EQ((*labels)[1].technique, "");
  EXPECT_EQ(RelabelMethods({"x"}, "/nonexistent/taxonomy.json", 0.6).status().code(),
            Status::Code::kNotFound);
}

TEST(RelabelMethodsTest, TechniquesOfTheBuiltinTaxonomy) {
  auto techniques = LoadTechniques({});
  ASSERT_TRUE(techniques.ok()) << techniques.status().ToString();
  ASSERT_FALSE(techniques->empty());
  auto md = TechniquesMarkdown({});
  ASSERT_TRUE(md.ok());
  EXPECT_NE(md->find((*techniques)[0].name), std::string::npos);
}

}  // namespace
}  // namespace regrapht
