// The CUDA emulator: the source rewrite, the emulator's semantics on small
// programs (barriers, warp collectives, cooperative launches, errors), and
// the verifier's --emulate path on the bundled problems and planted cheats.
#include "verify/build/emulate.h"

#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/build/build_cache.h"
#include "verify/planted_cheats.h"
#include "verify/test_util.h"
#include "verify/build/toolchain.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;
using testing_util::TestCacheDir;

TEST(RewriteForEmulationTest, LaunchesBecomeCalls) {
  auto r = verify::RewriteForEmulation(
      "void f(float* y, int n, cudaStream_t s) {\n"
      "  // k<<<1, 1>>>(y) in a comment stays\n"
      "  k<<<(n + 255) / 256, 256>>>(y, n);\n"
      "  ns::tk<float, 4> <<<dim3(2, 2), dim3(8, 8), 64 * sizeof(float), s>>>\n    (y, \"a)b\", "
      "n);\n"
      "}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("// k<<<1, 1>>>(y) in a comment stays"), std::string::npos) << *r;
  EXPECT_NE(
      r->find(
          "::regrapht_emu::Launch(::regrapht_emu::Cfg((n + 255) / 256, 256), [=]() { k(y, n); }, \"k\");"),
      std::string::npos)
      << *r;
  EXPECT_NE(r->find("::regrapht_emu::Launch(::regrapht_emu::Cfg(dim3(2, 2), dim3(8, 8), 64 * "
                    "sizeof(float), s), "
                    "[=]() { ns::tk<float, 4>(y, \"a)b\", n); }, \"ns::tk<float, 4>\")\n;"),
            std::string::npos)
      << *r;
  EXPECT_EQ(std::count(r->begin(), r->end(), '\n'), 6) << "line numbers must survive";
}

TEST(RewriteForEmulationTest, ExternSharedBecomesDynamicSharedMemory) {
  auto r = verify::RewriteForEmulation(
      "__global__ void k(float* y) {\n"
      "  extern __shared__ __align__(16) unsigned char smem[];\n"
      "  y[0] = smem[0];\n}\n");
  ASSERT_TRUE(r.ok());
  EXPECT_NE(
      r->find("unsigned char* smem = reinterpret_cast<unsigned char*>(::regrapht_emu::DynSmem());"),
      std::string::npos)
      << *r;
  auto g = verify::RewriteForEmulation(
      "extern __shared__ float tile[];\n__global__ void k() { tile[0] = 1; }\n");
  ASSERT_TRUE(g.ok());
  EXPECT_NE(g->find("#define tile (reinterpret_cast<float*>(::regrapht_emu::DynSmem()))"),
            std::string::npos)
      << *g;
}

TEST(RewriteForEmulationTest, StaticSharedBecomesPerBlockStorage) {
  auto r = verify::RewriteForEmulation(
      "template <int B> __global__ void k(float* y) {\n"
      "  __shared__ float a[B], b[4][5];\n"
      "  static __shared__ volatile int count;\n"
      "  __shared__ __align__(16) typename T::Storage\n      tmp;\n"
      "  y[0] = a[0] + b[1][2] + count;\n}\n"
      "__shared__ int file_scope[4];\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("  float (&a)[B] = ::regrapht_emu::Shared<float [B]>(0u); "
                    "float (&b)[4][5] = ::regrapht_emu::Shared<float [4][5]>(1u);"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("volatile int (&count) = ::regrapht_emu::Shared<volatile int>(2u);"), std::string::npos) << *r;
  EXPECT_NE(r->find("typename T::Storage (&tmp) = ::regrapht_emu::Shared<typename T::Storage>(3u);"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("__shared__ int file_scope[4];"), std::string::npos) << "namespace scope keeps the fallback";
  EXPECT_EQ(std::count(r->begin(), r->end(), '\n'), 8) << "line numbers must survive\n" << *r;
}

TEST(RewriteForEmulationTest, DeviceAssemblyStopsTheRunWhereItIsReached) {
  auto r = verify::RewriteForEmulation(
      "__device__ unsigned lane() {\n  unsigned l;\n  asm volatile(\"mov.u32 %0, %%laneid;\"\n : \"=r\"(l));\n"
      "  return l;\n}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->find("::regrapht_emu::NotEmulated(3)\n;"), std::string::npos) << *r;
  auto top = verify::RewriteForEmulation("asm(\".globl x\");\nvoid f() {}\n");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.status().message(), "line 1: inline PTX assembly is not emulated");
}

TEST(RewriteForEmulationTest, UnbalancedLaunchNamesItsLine) {
  auto r = verify::RewriteForEmulation("void f() {\n  k<<<1, 1>>>(a, (b);\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "line 2: the kernel's argument list is not closed");
  auto s = verify::RewriteForEmulation("void f() {\n\n  k<<<1, 1(a);\n}\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "line 3: `<<<` without `>>>`");
}

// Builds `main_source` (a whole CUDA program) for the emulator and runs it.
// The builds (the checker once, each program, the link) go through the
// content-addressed build cache in the tests' cache folder, as the
// verifier's do: a rerun, or a second clone, compiles nothing.
class EmulatorProgramTest : public testing::Test {
 protected:
  void SetUp() override {
    runner_ = NewSubprocessRunner();
    auto tc = verify::DetectToolchain(runner_.get());
    ASSERT_TRUE(tc.ok()) << tc.status().ToString();
    cxx_ = tc->cxx.string();
    tool_key_ = tc->cxx_version;
    builds_ = std::make_unique<verify::BuildCache>(runner_.get(), TestCacheDir() / "build", 120.0,
                                                   /*sandbox=*/false);
    auto d = TempDir::Create("emu-test-", fs::temp_directory_path());
    ASSERT_TRUE(d.ok());
    dir_ = std::make_unique<TempDir>(std::move(*d));
  }

  // The artifact of `req` built through the cache; empty (after a test
  // failure naming the compiler's output) when the build failed.
  fs::path Build(verify::BuildRequest req) {
    req.key_extra = tool_key_;
    auto b = builds_->Build(req);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    if (!b.ok()) return {};
    EXPECT_TRUE(b->ok) << req.label << ": " << b->failure << "\n" << b->log;
    return b->ok ? b->artifact : fs::path();
  }

  CommandResult Run(const std::string& main_source) {
    auto rewritten = verify::RewriteForEmulation(main_source);
    EXPECT_TRUE(rewritten.ok()) << rewritten.status().ToString();
    verify::BuildRequest check;
    check.label = "emu-test-checker";
    check.files = {{"check.cc", std::string(verify::EmulationCheckerSource())}};
    check.argv = {cxx_, "-std=c++20", "-O2", "-c", "check.cc", "-o", "check.o"};
    check.output = "check.o";
    fs::path check_obj = Build(check);
    verify::BuildRequest prog;
    prog.label = "emu-test-program";
    prog.files = verify::EmulationHeaders();
    prog.files["prog.cc"] = rewritten.ok() ? *rewritten : "";
    prog.argv = {cxx_, "-std=c++17", "-O1", "-fno-strict-aliasing", "-w", "-I."};
    for (const auto& f : verify::EmulationCheckFlags()) prog.argv.push_back(f);
    for (const char* a : {"-include", verify::kEmulationHeader.data(), "-c", "prog.cc", "-o", "prog.o"})
      prog.argv.push_back(a);
    prog.output = "prog.o";
    fs::path prog_obj = Build(prog);
    verify::BuildRequest link;  // the checker, not the sanitizer runtimes, serves the hooks
    link.label = "emu-test-link";
    link.argv = {cxx_, prog_obj.string(), check_obj.string(), "-o", "prog", "-lpthread"};
    link.inputs = {prog_obj, check_obj};
    link.output = "prog";
    fs::path exe = check_obj.empty() || prog_obj.empty() ? fs::path() : Build(link);
    CommandSpec run;
    run.argv = {exe.string()};
    run.cwd = dir_->path();
    run.limits.wall_seconds = 60;
    auto r = runner_->Run(run);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : CommandResult{};
  }

  std::unique_ptr<CommandRunner> runner_;
  std::string cxx_, tool_key_;
  std::unique_ptr<verify::BuildCache> builds_;
  std::unique_ptr<TempDir> dir_;
};

constexpr char kReduce[] = R"(
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
__global__ void block_sum(const float* x, int n, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  SYNC
  for (int o = 128; o > 16; o >>= 1) {
    if (t < o) s[t] += s[t + o];
    SYNC
  }
  if (t < 32) {
    float v = s[t] + (t < 16 ? s[t + 16] : 0.0f);
    for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) atomicAdd(out, v);
  }
}
int main() {
  const int n = 5000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
  float *dx, *dout, sum = 0, expect = 0;
  for (float v : x) expect += v;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dout, sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(float));
  block_sum<<<(n + 255) / 256, 256>>>(dx, n, dout);
  cudaMemcpy(&sum, dout, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%s %.0f %.0f\n", sum == expect ? "ok" : "WRONG", sum, expect);
  return 0;
}
)";

TEST_F(EmulatorProgramTest, BarriersAndShufflesGiveTheRightSum) {
  auto r = Run(ReplaceAll(kReduce, "SYNC", "__syncthreads();"));
  EXPECT_TRUE(r.ok()) << r.Describe() << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "ok 14995 14995\n");
}

TEST_F(EmulatorProgramTest, AMissingBarrierIsARace) {
  // The checker sees a thread read shared memory another thread wrote with
  // no barrier between them, and stops with exit status 87.
  auto r = Run(ReplaceAll(kReduce, "SYNC", ""));
  EXPECT_EQ(r.exit_code, 87) << r.Describe() << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("race in kernel block_sum, block ("), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("of a 1024-byte __shared__ variable"), std::string::npos) << r.stderr_text;
}

// Shared-memory reads take the checker's fast path (SharedRead4): many
// threads reading a word between barriers must still make a later unordered
// write by any of them a race, and reads ordered by a barrier must not.
TEST_F(EmulatorProgramTest, ManyReadersThenAnUnorderedWriteIsARace) {
  const std::string prog = R"(
#include <cuda_runtime.h>
#include <cstdio>
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += s[i];
  SYNC
  if (threadIdx.x == 5) s[7] = 1;
  out[threadIdx.x] = sum;
}
int main() {
  int* d; cudaMalloc(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d);
  int h[64]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d\n", h[0]);
}
)";
  auto ordered = Run(ReplaceAll(prog, "SYNC", "__syncthreads();"));
  EXPECT_TRUE(ordered.ok()) << ordered.Describe() << ordered.stderr_text;
  EXPECT_EQ(ordered.stdout_text, "2016\n");
  auto racy = Run(ReplaceAll(prog, "SYNC", ""));
  EXPECT_EQ(racy.exit_code, 87) << racy.Describe() << racy.stderr_text;
  // Which side is reported depends on the seeded schedule: thread 5's write
  // after other threads' reads, or a read after its write.
  EXPECT_NE(racy.stderr_text.find("race in kernel k, block (0,0,0) thread ("), std::string::npos) << racy.stderr_text;
  EXPECT_NE(racy.stderr_text.find("offset 28 of a 256-byte __shared__ variable that thread ("), std::string::npos)
      << racy.stderr_text;
  EXPECT_NE(racy.stderr_text.find("(5,0,0)"), std::string::npos) << racy.stderr_text;
  EXPECT_NE(racy.stderr_text.find("of the same block"), std::string::npos) << racy.stderr_text;
}

TEST_F(EmulatorProgramTest, EveryBlockAndThreadRunsOnceInAnyScheduleOrder) {
  // Grids and blocks of 1, 2, 3, 5, 6, 7, 33, 96 and 1000: the seeded order is
  // a permutation for every size (a size of 3 once looped forever).
  auto r = Run(R"(
#include <cuda_runtime.h>
#include <cstdio>
__global__ void mark(int* hits) { atomicAdd(&hits[blockIdx.x * blockDim.x + threadIdx.x], 1); }
int main() {
  const int sizes[] = {1, 2, 3, 5, 6, 7, 33, 96, 1000};
  int bad = 0;
  for (int g : sizes) for (int b : sizes) {
    int n = g * b, *d, h[1000 * 1000 / 100];
    if (n > 1000 * 10) continue;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemset(d, 0, n * sizeof(int));
    mark<<<g, b>>>(d);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) bad += h[i] != 1;
    cudaFree(d);
  }
  std::printf("bad %d\n", bad);
}
)");
  EXPECT_TRUE(r.ok()) << r.Describe() << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "bad 0\n");
}

TEST_F(EmulatorProgramTest, CooperativeGridSyncAndTiles) {
  auto r = Run(R"(
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void rounds(int* c, int n) {
  cg::grid_group g = cg::this_grid();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  for (int r = 0; r < n; ++r) {
    if (g.thread_rank() == 0) c[r + 1] = c[r] + 1;
    g.sync();
  }
  int lanes = tile.shfl_xor(1, 1) + tile.ballot(1) * 0;
  if (g.thread_rank() == 1) c[n + 1] = cg::reduce(tile, lanes, cg::plus<int>());
}
int main() {
  int* d; cudaMalloc(&d, 64 * sizeof(int)); cudaMemset(d, 0, 64 * sizeof(int));
  int per_sm = 0, sms = 0, n = 20;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rounds, 128, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  void* args[] = {&d, &n};
  cudaError_t e = cudaLaunchCooperativeKernel(rounds, dim3(per_sm * sms), dim3(128), args, 0, 0);
  cudaError_t big = cudaLaunchCooperativeKernel(rounds, dim3(per_sm * sms + 1), dim3(128), args, 0, 0);
  int h[64]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d %d %d %d\n", (int)e, (int)(big == cudaErrorCooperativeLaunchTooLarge), h[n], h[n + 1]);
}
)");
  EXPECT_TRUE(r.ok()) << r.Describe() << r.stderr_text;
  EXPECT_EQ(r.stdout_text, "0 1 20 16\n");
}

TEST_F(EmulatorProgramTest, BadLaunchesAndDeadlocksExitWithAMessage) {
  auto big =
      Run("#include <cuda_runtime.h>\n__global__ void k() {}\nint main() { k<<<1, 2048>>>(); }\n");
  EXPECT_EQ(big.exit_code, 86);
  EXPECT_NE(big.stderr_text.find("invalid launch configuration: block (2048,1,1)"),
            std::string::npos)
      << big.stderr_text;
  auto dead =
      Run("#include <cuda_runtime.h>\n"
          "__global__ void k() {\n"
          "  if (threadIdx.x < 32) { if (threadIdx.x == 0) __syncthreads(); __syncwarp(); } else { "
          "__syncthreads(); }\n}\n"
          "int main() { k<<<1, 64>>>(); }\n");
  EXPECT_EQ(dead.exit_code, 86) << dead.Describe();
  EXPECT_NE(dead.stderr_text.find("deadlock in block (0,0,0)"), std::string::npos)
      << dead.stderr_text;
  auto grid =
      Run("#include <cooperative_groups.h>\n"
          "__global__ void k() { cooperative_groups::this_grid().sync(); }\nint main() { k<<<2, "
          "32>>>(); }\n");
  EXPECT_EQ(grid.exit_code, 86);
  EXPECT_NE(grid.stderr_text.find("outside a cooperative launch"), std::string::npos)
      << grid.stderr_text;
}

class EmulatedVerifyTest : public testing::Test {
 protected:
  VerifyOptions Options() {
    VerifyOptions o;
    o.run_mode = VerifyOptions::RunMode::kEmulate;
    o.cache_dir = TestCacheDir().string();
    return o;
  }
  std::unique_ptr<CommandRunner> runner_ = NewSubprocessRunner();
};

// Every bundled solution on its test cases, and one (the cheapest) on its
// timing-size input too: the timing-size inputs of all four are the
// content_problems_emulated gate's (`problem check --emulate`, the same
// verification through the CLI), where spmv_csr's alone costs about a minute
// of CPU; running them here as well doubled that work.
TEST_F(EmulatedVerifyTest, BundledSolutionsAreCorrectInTheEmulator) {
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    const bool timing_size = std::string(name) == "sum_of_squares";
    VerifyOptions o = Options();
    o.emulate_timing_size = timing_size;
    Verifier v(o, runner_.get());
    Problem p = LoadBundled(name);
    auto r = v.Verify(p, *p.solution_source);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().ToString();
    EXPECT_EQ(r->verdict, Verdict::kCorrect) << name << ": " << r->detail << "\n" << r->log;
    EXPECT_TRUE(r->emulated);
    // The calibrated timing inputs are larger than the emulator's 128 MiB
    // default: they run scaled down, and the verdict says so.
    if (timing_size) {
      EXPECT_NE(r->detail.find("and the timing-size input"), std::string::npos) << r->detail;
    }
    EXPECT_NE(r->detail.find(timing_size ? "in the CPU emulator (correctness only, not a GPU result)"
                                         : " cases in the CPU emulator (correctness only, not a GPU result)"),
              std::string::npos)
        << r->detail;
    EXPECT_EQ(r->env.gpu_name, kEmulatorGpuName);
    EXPECT_FALSE(r->candidate_timing.has_value());
    EXPECT_FALSE(r->kernels.empty()) << "nvcc still compiles the candidate";
  }
}

// The timing-size inputs run scaled to 2 MiB per copy (saxpy: n = 2^18, above
// the 100000 where one cheat stops working): the full 128 MiB default cost
// ten seconds or more per cheat and caught nothing more.
TEST_F(EmulatedVerifyTest, PlantedCheatsAreCaught) {
  VerifyOptions o = Options();
  o.emulate_max_bytes = int64_t{2} << 20;
  Verifier v(o, runner_.get());
  for (const auto& c : testing_util::PlantedCheats()) {
    Problem p = LoadBundled(c.problem);
    auto r = v.Verify(p, c.source);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status().ToString();
    EXPECT_NE(r->verdict, Verdict::kCorrect) << c.name << ": " << r->detail;
    EXPECT_NE(r->verdict, Verdict::kCompiledOnly) << c.name << ": " << r->detail << "\n" << r->log;
    EXPECT_NE(r->verdict, Verdict::kCompileError) << c.name << ": " << r->log;
  }
}

TEST_F(EmulatedVerifyTest, TestsOnlySkipsTheTimingSizeInput) {
  VerifyOptions o = Options();
  o.emulate_timing_size = false;
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
  EXPECT_EQ(r->detail,
            "correct on 5 test cases + 12 edge cases in the CPU emulator (correctness only, not a GPU result)");
}

// saxpy that does nothing above 2^16 elements (a wrong answer only at large sizes).
constexpr char kSaxpySkipsLargeSizes[] =
    "#include <cuda_runtime.h>\n"
    "__global__ void k(int n, float a, const float* x, float* y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "void saxpy(int n, float a, const float* x, float* y) {\n"
    "  if (n > (1 << 16)) return;\n"
    "  float *dx, *dy;\n"
    "  cudaMalloc(&dx, n * sizeof(float));\n"
    "  cudaMalloc(&dy, n * sizeof(float));\n"
    "  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);\n"
    "  cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);\n"
    "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
    "  cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);\n"
    "  cudaFree(dx);\n"
    "  cudaFree(dy);\n"
    "}\n";

TEST_F(EmulatedVerifyTest, ALargeTimingInputRunsScaledDownAndStillCatchesLargeSizeFaults) {
  VerifyOptions o = Options();
  o.emulate_max_bytes = int64_t{1} << 20;  // x and y of 2^17 floats
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  ASSERT_GT(p.spec.timing.sizes.at("n"), int64_t{1} << 17);
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
  EXPECT_EQ(r->detail, "correct on 5 test cases + 12 edge cases and the timing-size input scaled down for the emulator (n=131072 of n=" +
                           std::to_string(p.spec.timing.sizes.at("n")) +
                           ") in the CPU emulator (correctness only, not a GPU result)");
  // The test cases (n <= 4099) pass; the scaled timing input (2^17) does not.
  auto skip = v.Verify(p, kSaxpySkipsLargeSizes);
  ASSERT_TRUE(skip.ok()) << skip.status().ToString();
  EXPECT_EQ(skip->verdict, Verdict::kWrongAnswer) << skip->detail << "\n" << skip->log;
}

// The work budget (deterministic work counts, so the same on any machine).
// With almost none, not even the smallest rung of the timing-size input runs
// (its halvings stop above the largest test case, n = 4099: n = 8192), and the
// verdict says so; a candidate wrong only above 2^16 then passes. With two
// million checked accesses (saxpy costs a few dozen per element and call),
// the smallest rung runs and then one between it and the fitted n = 2^17.
TEST_F(EmulatedVerifyTest, AWorkBudgetChecksTheTimingSizeInputAtASmallerSizeOrNotAtAll) {
  VerifyOptions o = Options();
  o.emulate_max_bytes = int64_t{1} << 20;  // the top rung: n = 2^17
  o.emulate_max_work = 1;
  Problem p = LoadBundled("saxpy");
  {
    Verifier v(o, runner_.get());
    auto r = v.Verify(p, *p.solution_source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
    EXPECT_EQ(r->detail.rfind("correct on 5 test cases", 0), 0u) << r->detail;  // + the edge cases
    EXPECT_NE(r->detail.find(" in the CPU emulator (correctness only, not a GPU result); "
                             "the timing-size input (n=8192) was not run: the test cases predict about "),
              std::string::npos)
        << r->detail;
    EXPECT_NE(r->detail.find("more than the budget of 0 million (--emulate-max-work)"), std::string::npos)
        << r->detail;
    auto skip = v.Verify(p, kSaxpySkipsLargeSizes);
    ASSERT_TRUE(skip.ok()) << skip.status().ToString();
    EXPECT_EQ(skip->verdict, Verdict::kCorrect) << skip->detail;
  }
  o.emulate_max_work = 2 * 1000 * 1000;
  Verifier v(o, runner_.get());
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
  const std::string words = "the timing-size input scaled down for the emulator (n=";
  size_t at = r->detail.find(words);
  ASSERT_NE(at, std::string::npos) << r->detail;
  int64_t n = std::stoll(r->detail.substr(at + words.size()));
  EXPECT_GT(n, 8192) << r->detail;
  EXPECT_LT(n, int64_t{1} << 17) << r->detail;
}

// The emulator's header and the driver's are precompiled once (a cache entry
// each) and every emulated object and driver reads them from there.
TEST_F(EmulatedVerifyTest, BuildsReadPrecompiledHeaders) {
  auto cache = TempDir::Create("rg-pch");
  ASSERT_TRUE(cache.ok());
  VerifyOptions o = Options();
  o.cache_dir = cache->path().string();
  o.emulate_timing_size = false;
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail << "\n" << r->log;
  std::map<std::string, std::vector<fs::path>> dirs;  // label -> entry folders
  for (const auto& e : fs::recursive_directory_iterator(cache->path() / "build")) {
    if (e.path().filename() != "meta.json") continue;
    auto meta = ReadJsonFile(e.path());
    ASSERT_TRUE(meta.ok()) << meta.status().ToString();
    dirs[meta->value("label", "")].push_back(e.path().parent_path());
  }
  ASSERT_EQ(dirs["emulator-pch"].size(), 1u);
  ASSERT_EQ(dirs["driver-pch"].size(), 1u);
  EXPECT_TRUE(fs::exists(dirs["emulator-pch"][0] / "regrapht_cuda_emu.h.gch"));
  ASSERT_EQ(dirs["candidate-emu"].size(), 1u);
  ASSERT_EQ(dirs["driver-cpu"].size(), 1u);
  auto uses = [](const fs::path& entry, const fs::path& pch) {
    auto meta = ReadJsonFile(entry / "meta.json");
    return meta.ok() && meta->value("command", "").find("-I" + pch.string()) != std::string::npos;
  };
  EXPECT_TRUE(uses(dirs["candidate-emu"][0], dirs["emulator-pch"][0]));
  EXPECT_FALSE(fs::exists(dirs["candidate-emu"][0] / std::string(verify::kEmulationHeader)));
  EXPECT_TRUE(uses(dirs["driver-cpu"][0], dirs["driver-pch"][0]));
  EXPECT_FALSE(fs::exists(dirs["driver-cpu"][0] / "rg_driver.h"));
}

TEST_F(EmulatedVerifyTest, WhatTheEmulatorCannotBuildIsNotEmulatedNotWrong) {
  Verifier v(Options(), runner_.get());
  Problem p = LoadBundled("saxpy");
  // Valid CUDA (nvcc compiles it) that the emulator cannot run: inline PTX.
  auto r = v.Verify(
      p,
      "#include <cuda_runtime.h>\n"
      "__global__ void k(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  unsigned lane; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
      "  if (i < n) y[i] = a * x[i] + y[i] + 0.0f * lane;\n}\n"
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  float *dx, *dy; cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4);\n"
      "  cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, n * 4, "
      "cudaMemcpyHostToDevice);\n"
      "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
      "  cudaMemcpy(y, dy, n * 4, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);\n}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kNotEmulated) << r->detail << "\n" << r->log;
  EXPECT_EQ(r->detail,
            "compiled; the emulator stopped at inline assembly (line 4) in test case 0 after 0 test case(s) "
            "matched the reference: correctness NOT verified");
}

// Assembly reached only at larger sizes: the cases that ran are judged, so a
// candidate wrong on them is wrong, and one right on them is not emulated.
TEST_F(EmulatedVerifyTest, DeviceAssemblyNeverSoftensAVerdictTheCasesReached) {
  Verifier v(Options(), runner_.get());
  Problem p = LoadBundled("saxpy");
  auto make = [](const char* small_case) {
    return std::string(
               "#include <cuda_runtime.h>\n"
               "__global__ void k(int n, float a, const float* x, float* y) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (n > 2000) { unsigned l; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); }\n"
               "  if (i < n) y[i] = ") +
           small_case +
           ";\n}\n"
           "void saxpy(int n, float a, const float* x, float* y) {\n"
           "  float *dx, *dy; cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4);\n"
           "  cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice);\n"
           "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
           "  cudaMemcpy(y, dy, n * 4, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);\n}\n";
  };
  auto wrong = v.Verify(p, make("a * x[i] - y[i]"));
  ASSERT_TRUE(wrong.ok()) << wrong.status().ToString();
  EXPECT_EQ(wrong->verdict, Verdict::kWrongAnswer) << wrong->detail;
  auto right = v.Verify(p, make("a * x[i] + y[i]"));
  ASSERT_TRUE(right.ok()) << right.status().ToString();
  EXPECT_EQ(right->verdict, Verdict::kNotEmulated) << right->detail;
  EXPECT_NE(right->detail.find("in test case 3 after 3 test case(s) matched"), std::string::npos) << right->detail;
}

}  // namespace
}  // namespace regrapht
