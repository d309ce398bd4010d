// End-to-end tests of the harness on this machine (no GPU needed).
//
// The CPU path runs plain C++ "candidates" through the very same driver,
// sandbox, comparison and timing code as CUDA candidates (cpu_candidate
// mode), so the planted cheats below exercise the real pipeline. The GPU
// path is exercised up to CUDA initialisation: expert solutions compile with
// nvcc and come back compiled_only, never pass or fail.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include <gtest/gtest.h>

#include "core/json_util.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/build/driver_gen.h"
#include "verify/spec/edge_cases.h"
#include "verify/gpu_lock.h"
#include "verify/timing_cpus.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;
using testing_util::TestCacheDir;

VerifyOptions CpuOptions() {
  VerifyOptions o;
  o.run_mode = VerifyOptions::RunMode::kCpuCandidate;
  o.cache_dir = TestCacheDir().string();
  o.max_reps = 6;
  o.min_reps = 3;
  o.max_timing_seconds = 0.3;
  o.reference_max_reps = 4;
  o.reference_max_timing_seconds = 0.3;
  return o;
}

class VerifierTest : public testing::Test {
 protected:
  std::unique_ptr<CommandRunner> runner_ = NewSubprocessRunner();
};

TEST_F(VerifierTest, ReferenceChecksPassForBundledProblems) {
  Verifier v(CpuOptions(), runner_.get());
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    auto t = v.CheckReference(LoadBundled(name));
    ASSERT_TRUE(t.ok()) << name << ": " << t.status().ToString();
    EXPECT_GE(t->reps, 3) << name;
    EXPECT_GT(t->median_ms, 0) << name;
  }
}

// Cached reference timings are keyed by the machine (CPU model and machine
// id, verify::HostMachineKey): the same machine reuses them, another one with
// the same CPU runs the reference again.
TEST_F(VerifierTest, ReferenceTimingsAreNeverReusedAcrossMachines) {
  auto dir = TempDir::Create("rg-refmachine");
  ASSERT_TRUE(dir.ok());
  VerifyOptions o = CpuOptions();
  o.cache_dir = dir->path().string();
  auto count = [&] {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir->path() / "ref")) ++n;
    return n;
  };
  Problem p = LoadBundled("saxpy");
  auto check = [&](const char* machine) -> Result<Timing> {
    ::setenv("REGRAPHT_MACHINE_ID", machine, 1);
    Verifier v(o, runner_.get());
    auto t = v.CheckReference(p);
    ::unsetenv("REGRAPHT_MACHINE_ID");
    return t;
  };
  auto a = check("machine-a");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->how.find("cached"), std::string::npos) << a->how;
  ASSERT_EQ(count(), 1u);
  auto again = check("machine-a");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->samples_ms, a->samples_ms);
  EXPECT_NE(again->how.find("; cached on this machine"), std::string::npos) << again->how;
  EXPECT_EQ(count(), 1u);
  auto b = check("machine-b");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->how.find("cached"), std::string::npos) << b->how;
  EXPECT_EQ(count(), 2u);
}

// Timed phases on the CPU (the reference's, a CPU candidate's) hold the
// machine's timing lock exclusively: while another regrapht holds it (here
// shared, as a GPU timed run does) they wait, up to --gpu-lock-timeout; the
// timings say how they were taken.
TEST_F(VerifierTest, CpuTimedPhasesHoldTheMachineTimingLock) {
  auto dir = TempDir::Create("rg-timinglock");
  ASSERT_TRUE(dir.ok());
  VerifyOptions o = CpuOptions();
  o.cache_dir = (dir->path() / "cache").string();
  o.gpu_lock_timeout_s = 0.5;
  ::setenv("REGRAPHT_GPU_LOCK_DIR", (dir->path() / "locks").c_str(), 1);
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  const fs::path lock = verify::MachineTimingLockPath(dir->path() / "locks", host);
  Problem p = LoadBundled("saxpy");
  {
    auto gpu_run = verify::GpuLock::Acquire(lock, 0, nullptr, true);
    ASSERT_TRUE(gpu_run.ok()) << gpu_run.status().ToString();
    Verifier v(o, runner_.get());
    auto ref = v.CheckReference(p);
    ASSERT_FALSE(ref.ok());
    EXPECT_EQ(ref.status().code(), Status::Code::kDeadlineExceeded) << ref.status().ToString();
    EXPECT_NE(ref.status().message().find(lock.string()), std::string::npos) << ref.status().ToString();
  }
  Verifier v(o, runner_.get());
  auto r = v.Verify(p, p.reference_source);
  ::unsetenv("REGRAPHT_GPU_LOCK_DIR");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
  ASSERT_TRUE(r->reference_timing && r->candidate_timing);
  for (const std::string& how : {r->reference_timing->how, r->candidate_timing->how}) {
    EXPECT_EQ(how.rfind("machine timing lock " + lock.string() + " held exclusive (waited ", 0), 0u) << how;
    // With two CPUs or more the timed phases run on one of their own
    // (verify/timing_cpus.h) and the record says which.
    auto cpus = verify::PlanTimingCpusHere();
    ASSERT_TRUE(cpus.ok());
    if (cpus->has_value()) {
      EXPECT_NE(how.find("timed on " + (*cpus)->Describe()), std::string::npos) << how;
    }
  }
}

// A reference that leaves its in-out as it came (here: an empty body) is no
// oracle: any candidate that does nothing would match it.
TEST_F(VerifierTest, ReferenceLeavingItsInOutUntouchedIsDegenerate) {
  Verifier v(CpuOptions(), runner_.get());
  Problem p = LoadBundled("saxpy");
  p.reference_source =
      "void saxpy(int n, float a, const float* x, float* y) { (void)n; (void)a; (void)x; (void)y; "
      "}\n";
  auto t = v.CheckReference(p);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find(
                "reference.cpp: leaves the in-out 'y' equal to its input in every test case"),
            std::string::npos)
      << t.status().message();
  // Changing it in only some test cases is fine (saxpy with a = 0 is y itself).
  p.reference_source =
      "void saxpy(int n, float a, const float* x, float* y) { if (n > 100) for (int i = 0; i < n; "
      "++i) "
      "y[i] = a * x[i] + y[i]; }\n";
  EXPECT_TRUE(v.CheckReference(p).ok());
}

// Edge cases (verify/spec/edge_cases.h) the reference cannot answer are dropped,
// never judged: a reference that divides by a = 0 writes infinities, one
// that crashes for a = +-2 stops its run, and the others still count.
TEST_F(VerifierTest, EdgeCasesTheReferenceCannotAnswerAreDropped) {
  Problem p = LoadBundled("saxpy");
  const std::string body =
      "#include <cstdlib>\n"
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  if (a == 2.0f || a == -2.0f) std::abort();\n"
      "  for (int i = 0; i < n; ++i) y[i] = x[i] / a + y[i];\n"
      "}\n";
  p.reference_source = body;
  // The spec's own random a is never exactly 0 or +-2 once its special values
  // are gone.
  p.spec.args[1].values.special_p = 0;
  p.spec.args[1].values.special_values.clear();
  p.spec_text += " ";  // a distinct reference cache key
  Verifier v(CpuOptions(), runner_.get());
  auto r = v.Verify(p, body);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail;
  EXPECT_NE(r->detail.find("correct on 5 test cases + "), std::string::npos) << r->detail;
  // Of saxpy's edge cases, a = 0 (infinite outputs), a at its minimum -2 and
  // maximum 2 and the largest magnitudes (a = +-2 again: the abort) are gone;
  // the rest were answered.
  auto edges = verify::EdgeCases(p.spec);
  EXPECT_NE(r->detail.find("+ " + std::to_string(edges.size() - 4) + " edge cases"), std::string::npos)
      << r->detail << " of " << edges.size();
}

TEST_F(VerifierTest, ReferenceCacheIsPrunedLeastRecentlyUsedFirst) {
  auto dir = TempDir::Create("rg-refcache");
  ASSERT_TRUE(dir.ok());
  VerifyOptions o = CpuOptions();
  o.cache_dir = dir->path().string();
  auto count = [&] {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir->path() / "ref")) ++n;
    return n;
  };
  {
    Verifier v(o, runner_.get());
    ASSERT_TRUE(v.CheckReference(LoadBundled("saxpy")).ok());
    ASSERT_TRUE(v.CheckReference(LoadBundled("sum_of_squares")).ok());
  }
  EXPECT_EQ(count(), 2u);  // under the default limit: both kept
  ::setenv("REGRAPHT_REF_CACHE_GB", "1e-9", 1);  // about one byte: only the newest entry survives
  {
    Verifier v(o, runner_.get());
    ASSERT_TRUE(v.CheckReference(LoadBundled("jacobi2d")).ok());
  }
  ::unsetenv("REGRAPHT_REF_CACHE_GB");
  EXPECT_EQ(count(), 1u);
  // The kept entry is jacobi2d's, and a new Verifier is served from it: a hit
  // only refreshes the entry's time; running the reference again would
  // replace the file (a new inode, written atomically).
  fs::path kept = fs::directory_iterator(dir->path() / "ref")->path() / "records.bin";
  fs::last_write_time(kept, fs::file_time_type::clock::now() - std::chrono::hours(24));
  const auto written = fs::last_write_time(kept);
  struct stat before {};
  ASSERT_EQ(::stat(kept.c_str(), &before), 0);
  {
    Verifier v(o, runner_.get());
    ASSERT_TRUE(v.CheckReference(LoadBundled("jacobi2d")).ok());
  }
  EXPECT_EQ(count(), 1u);
  struct stat after {};
  ASSERT_EQ(::stat(kept.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the reference ran again instead of being read from the cache";
  EXPECT_GT(fs::last_write_time(kept), written) << "a cache hit refreshes the entry's time";
}

// Verifier(VerifyOptions): the public constructor runs its own sandboxed
// runner, and a set `cancel` reaches the commands it runs.
TEST_F(VerifierTest, AVerifierWithItsOwnRunnerVerifiesAndCancels) {
  Problem p = LoadBundled("saxpy");
  {
    Verifier v(CpuOptions());
    auto r = v.Verify(p, p.reference_source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail << "\n" << r->log;
    EXPECT_FALSE(r->env.sandbox.empty());
  }
  std::atomic<bool> cancel{true};
  VerifyOptions o = CpuOptions();
  o.cancel = &cancel;
  Verifier v(o);
  auto r = v.Verify(p, p.reference_source + "// another source: not in the build cache\n");
  EXPECT_FALSE(r.ok() && r->verdict == Verdict::kCorrect);
}

TEST_F(VerifierTest, ReferenceAgainstItselfIsCorrect) {
  Verifier v(CpuOptions(), runner_.get());
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = LoadBundled(name);
    auto r = v.Verify(p, p.reference_source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->verdict, Verdict::kCorrect) << name << ": " << r->detail << "\n" << r->log;
    ASSERT_TRUE(r->candidate_timing.has_value());
    EXPECT_GT(r->speedup, 0.2) << name;
    EXPECT_LT(r->speedup, 5.0) << name;
    EXPECT_GT(Reward(*r), -1.0);
    EXPECT_FALSE(r->env.sandbox.empty());
    EXPECT_EQ(r->env.archs, "host-cpu");
  }
}

struct Cheat {
  const char* name;
  const char* problem;
  const char* source;
  Verdict expected;
  const char* detail_part;
};

const Cheat kCheats[] = {
    {"off by one", "saxpy",
     "void saxpy(int n, float a, const float* x, float* y) { for (int i = 0; i < n - 1; ++i) y[i] = a * x[i] + y[i]; }",
     Verdict::kWrongAnswer, "test case 0: output 'y'[0]"},
    {"never writes its output", "spmv_csr",
     "void spmv_csr(int n, const int* r, const int* c, const double* v, const double* x, double* y) {}",
     Verdict::kWrongAnswer, "got nan"},
    {"writes zeros", "jacobi2d",
     "#include <vector>\n#include <cstddef>\nvoid jacobi2d(std::vector<double> const& in, std::vector<double>& out, size_t N) {"
     " for (auto& v : out) v = 0; }",
     Verdict::kWrongAnswer, "output 'output'"},
    {"caches results by size", "saxpy",
     "#include <vector>\n#include <map>\n"
     "void saxpy(int n, float a, const float* x, float* y) {\n"
     "  static std::map<int, std::vector<float>> cache;\n"
     "  auto it = cache.find(n);\n"
     "  if (it != cache.end()) { for (int i = 0; i < n; ++i) y[i] = it->second[i]; return; }\n"
     "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n"
     "  cache[n] = std::vector<float>(y, y + n);\n}",
     Verdict::kWrongAnswer, "test case 4"},
    {"reuses results once the checks are over", "saxpy",
     "#include <vector>\n"
     "void saxpy(int n, float a, const float* x, float* y) {\n"
     "  static std::vector<float> last;  // replays only at the timing size, where no test case runs\n"
     "  if (n >= (1 << 20) && (int)last.size() == n) { for (int i = 0; i < n; ++i) y[i] = last[i]; return; }\n"
     "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n"
     "  last.assign(y, y + n);\n}",
     Verdict::kNondeterministic, "timing run"},
    {"returns the previous call's result", "spmv_csr",
     "#include <vector>\n"
     "void spmv_csr(int n, const int* r, const int* c, const double* v, const double* x, double* y) {\n"
     "  static std::vector<double> prev;\n"
     "  std::vector<double> cur(n);\n"
     "  for (int i = 0; i < n; ++i) { double s = 0; for (int k = r[i]; k < r[i + 1]; ++k) s += v[k] * x[c[k]]; cur[i] = s; }\n"
     "  for (int i = 0; i < n && i < (int)prev.size(); ++i) y[i] = prev[i];\n"
     "  prev = cur;\n}",
     Verdict::kNondeterministic, "two calls on the same inputs disagree"},
    {"modifies its input", "saxpy",
     "void saxpy(int n, float a, const float* x, float* y) { float* w = const_cast<float*>(x);"
     " for (int i = 0; i < n; ++i) { y[i] = a * x[i] + y[i]; w[i] = 0; } }",
     Verdict::kWrongAnswer, "modified its input 'x'"},
    {"crashes", "saxpy",
     "void saxpy(int n, float a, const float* x, float* y) { volatile float* p = nullptr; *p = a; }",
     Verdict::kRuntimeError, "killed by SIGSEGV"},
    {"exits early", "saxpy",
     "#include <cstdlib>\nvoid saxpy(int n, float a, const float* x, float* y) { std::exit(0); }",
     Verdict::kRuntimeError, "stopped before the driver finished"},
    {"wrong signature", "saxpy",
     "void saxpy(int n, double a, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] += a * x[i]; }",
     Verdict::kCompileError, "does not define `void saxpy(int n, float a, const float* x, float* y)`"},
    {"does not compile", "saxpy", "void saxpy(int n, float a, const float* x, float* y) { return 1 }",
     Verdict::kCompileError, "error"},
    {"opens a file", "saxpy",
     "#include <cstdio>\nvoid saxpy(int n, float a, const float* x, float* y) { FILE* f = fopen(\"/tmp/x\", \"r\"); }",
     Verdict::kStaticReject, "rule no-file-io"},
    {"constant output under a loose tolerance", "sum_of_squares",
     "#include <vector>\ndouble sumOfSquares(std::vector<double> const& x) { return 0.0; }",
     Verdict::kWrongAnswer, "expected"},
};

TEST_F(VerifierTest, PlantedCheatsAreCaught) {
  Verifier v(CpuOptions(), runner_.get());
  for (const auto& c : kCheats) {
    auto r = v.Verify(LoadBundled(c.problem), c.source);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status().ToString();
    EXPECT_EQ(r->verdict, c.expected) << c.name << ": " << VerdictName(r->verdict) << ": " << r->detail;
    EXPECT_NE(r->detail.find(c.detail_part), std::string::npos) << c.name << ": " << r->detail;
    EXPECT_EQ(Reward(*r), -1.0) << c.name;
  }
}

TEST_F(VerifierTest, InfiniteLoopTimesOut) {
  Verifier v(CpuOptions(), runner_.get());
  Problem p = LoadBundled("saxpy");
  p.spec.time_limit_s = 1.5;
  auto r = v.Verify(p, "void saxpy(int n, float a, const float* x, float* y) { for (volatile int i = 0;; ) {} }");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, Verdict::kTimeout) << r->detail;
  EXPECT_NE(r->detail.find("test case 0, call 0"), std::string::npos) << r->detail;
  EXPECT_LT(r->time_run_ms, 6000);
}

TEST_F(VerifierTest, CompiledOnlyWithoutGpu) {
  VerifyOptions o;
  o.cache_dir = TestCacheDir().string();
  Verifier v(o, runner_.get());
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = LoadBundled(name);
    auto r = v.Verify(p, *p.solution_source);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().ToString();
    if (r->verdict == Verdict::kCorrect) GTEST_SKIP() << "a GPU is present: the gpu tests cover this";
    EXPECT_EQ(r->verdict, Verdict::kCompiledOnly) << name << ": " << r->detail << "\n" << r->log;
    EXPECT_NE(r->detail.find("NOT verified"), std::string::npos) << r->detail;
    EXPECT_FALSE(r->kernels.empty()) << name << ": ptxas usage missing";
    EXPECT_EQ(r->env.archs, "sm_90");
    EXPECT_EQ(Reward(*r), -1.0);
  }
}

// Fresh device memory reads as zeros on a GPU; the emulator fills it with
// 0xFF bytes, and so does the GPU driver: the candidate's link wraps every
// allocation call (rg_driver.h, "device memory starts poisoned"). Checked on
// the linked executable: the function under test calls the wrapper, never
// cudaMalloc itself.
TEST_F(VerifierTest, GpuLinkRoutesEveryAllocationThroughThePoisoningWrapper) {
  auto cache = MakeTempDir("rg-wrap-");
  ASSERT_TRUE(cache.ok());
  VerifyOptions o;
  o.cache_dir = cache->string();
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  fs::path exe;
  for (const auto& e : fs::recursive_directory_iterator(*cache / "build")) {
    if (e.path().filename() != "meta.json") continue;
    auto meta = ReadFile(e.path());
    if (meta.ok() && meta->find("\"candidate-link\"") != std::string::npos) exe = e.path().parent_path() / "candidate";
  }
  ASSERT_FALSE(exe.empty()) << "no linked candidate in " << *cache;
  CommandSpec objdump;
  objdump.argv = {"objdump", "--disassemble=_Z5saxpyifPKfPf", "--no-show-raw-insn", exe.string()};
  auto dis = runner_->Run(objdump);
  ASSERT_TRUE(dis.ok() && dis->ok());
  const std::string& body = dis->stdout_text;
  ASSERT_NE(body.find("<_Z5saxpyifPKfPf>:"), std::string::npos) << body;
  EXPECT_NE(body.find("<__wrap_cudaMalloc>"), std::string::npos) << body;
  EXPECT_EQ(body.find("<cudaMalloc>"), std::string::npos) << body;
  (void)RemoveAll(*cache);
}

TEST_F(VerifierTest, GpuPathRejectsAndReportsCompileErrors) {
  VerifyOptions o;
  o.cache_dir = TestCacheDir().string();
  o.archs = {"sm_80", "sm_90"};
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  auto r = v.Verify(p, "__global__ void k(float* y) { y[0] = undefined_thing; }\n"
                       "void saxpy(int n, float a, const float* x, float* y) { k<<<1, 1>>>(y); }");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict, Verdict::kCompileError);
  EXPECT_NE(r->detail.find("undefined_thing"), std::string::npos) << r->detail;
  auto s = v.Verify(p, "void saxpy(int n, float a, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] += a * x[i]; }");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->verdict, Verdict::kStaticReject);
  EXPECT_EQ(s->detail, "rule has-kernel: no __global__ kernel: the function must run on the GPU");
  auto c = v.CompileOnly(p, *p.solution_source);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->verdict, Verdict::kCompiledOnly);
  int sm80 = 0, sm90 = 0;
  for (const auto& k : c->kernels) {
    sm80 += k.arch == "sm_80";
    sm90 += k.arch == "sm_90";
  }
  EXPECT_EQ(sm80, 1);
  EXPECT_EQ(sm90, 1);
}

// The device-only gate (suite check --device-only, content_trajectories) links nothing:
// it checks that the problem's GPU driver compiles (a syntax check, whose
// errors are the compiler's front end's) without building its object, which
// cost two thirds of the driver's CPU time on every problem of the gates.
TEST_F(VerifierTest, DeviceOnlyCompileChecksTheDriverWithoutBuildingIt) {
  auto cache = TempDir::Create("rg-devonly");
  ASSERT_TRUE(cache.ok());
  VerifyOptions o;
  o.cache_dir = cache->path().string();
  o.archs = {"sm_80", "sm_90"};
  Verifier v(o, runner_.get());
  Problem p = LoadBundled("saxpy");
  auto c = v.CompileOnly(p, *p.solution_source, /*device_only=*/true);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->verdict, Verdict::kCompiledOnly) << c->detail;
  std::multiset<std::string> labels;
  for (const auto& e : fs::recursive_directory_iterator(cache->path() / "build")) {
    if (e.path().filename() != "meta.json") continue;
    auto meta = ReadJsonFile(e.path());
    ASSERT_TRUE(meta.ok()) << meta.status().ToString();
    labels.insert(meta->value("label", ""));
  }
  EXPECT_EQ(labels.count("driver-gpu-check"), 1u);
  EXPECT_EQ(labels.count("driver-gpu"), 0u);
  EXPECT_EQ(labels.count("candidate"), 1u);
}

// CompileOnlyMany: sources that may share a translation unit are compiled
// in one nvcc call, and the verdicts are the single compiles' verdicts: a
// source that only compiles next to another (it borrows that one's helper)
// and a source with an error are each reported compile_error with their own
// message, the others compiled_only.
TEST_F(VerifierTest, CompileOnlyManySharesNvccAndKeepsEachVerdict) {
  auto cache = TempDir::Create("rg-many");
  ASSERT_TRUE(cache.ok());
  VerifyOptions o;
  o.cache_dir = cache->path().string();
  o.archs = {"sm_90"};
  Verifier v(o, runner_.get());
  Problem saxpy = LoadBundled("saxpy"), sos = LoadBundled("sum_of_squares"), jacobi = LoadBundled("jacobi2d"),
          spmv = LoadBundled("spmv_csr");
  // `text` with `lines` after its first line (the first include).
  auto after_first = [](const std::string& text, const std::string& lines) {
    size_t nl = text.find('\n') + 1;
    return text.substr(0, nl) + lines + text.substr(nl);
  };
  const std::string helper = "__device__ float fma_helper(float a, float x, float y) { return a * x + y; }\n";
  std::vector<std::pair<const Problem*, std::string>> items = {
      // 0 and 1: the same includes, no shared name: one batch that compiles.
      {&saxpy, after_first(*saxpy.solution_source, "#include <vector>\n") + helper},
      {&sos, *sos.solution_source},
      // 2 and 3: the same includes; 3 has an error: the batch fails, both alone.
      {&jacobi, *jacobi.solution_source},
      {&spmv, after_first(*spmv.solution_source, "#include <cstddef>\n#include <vector>\n") +
                  "__device__ float broken() { return undefined_thing; }\n"},
      // 4 borrows 0's helper: it compiles only beside 0, so it is never put there.
      {&sos, *sos.solution_source + "__device__ float borrow(float v) { return fma_helper(v, v, v); }\n"},
      // 5: a macro of its own, used in a body.
      {&saxpy, *saxpy.solution_source + "#define SCALE(v) (2.0f * (v))\n__device__ float twice(float v) { return SCALE(v); }\n"},
  };
  auto many = v.CompileOnlyMany(items);
  ASSERT_TRUE(many.ok()) << many.status().ToString();
  ASSERT_EQ(many->size(), items.size());
  const std::vector<Verdict> want = {Verdict::kCompiledOnly, Verdict::kCompiledOnly, Verdict::kCompiledOnly,
                                     Verdict::kCompileError, Verdict::kCompileError, Verdict::kCompiledOnly};
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ((*many)[i].verdict, want[i]) << i << ": " << (*many)[i].detail;
    auto alone = v.CompileOnly(*items[i].first, items[i].second, /*device_only=*/true);
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(alone->verdict, want[i]) << i << " alone: " << alone->detail;
  }
  EXPECT_NE((*many)[3].detail.find("undefined_thing"), std::string::npos) << (*many)[3].detail;
  EXPECT_NE((*many)[4].detail.find("fma_helper"), std::string::npos) << (*many)[4].detail;
  std::multiset<bool> batches;  // ok of each batch compiled
  for (const auto& e : fs::recursive_directory_iterator(cache->path() / "build")) {
    if (e.path().filename() != "meta.json") continue;
    auto meta = ReadJsonFile(e.path());
    ASSERT_TRUE(meta.ok());
    if (meta->value("label", "") == "candidate-batch") batches.insert(meta->value("ok", false));
  }
  EXPECT_EQ(batches.count(true), 1u) << "sources 0 and 1 were not compiled together";
  EXPECT_EQ(batches.count(false), 1u) << "sources 2 and 3 were not tried together";
}

TEST_F(VerifierTest, BuildsAreCached) {
  Verifier v(CpuOptions(), runner_.get());
  Problem p = LoadBundled("saxpy");
  std::string src = p.reference_source + "\n// cache probe\n";
  auto a = v.Verify(p, src);
  auto b = v.Verify(p, src);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(b->compile_cached);
  EXPECT_EQ(a->candidate_hash, b->candidate_hash);
}

TEST(RewardTest, PaperReward) {
  VerifyResult r;
  r.verdict = Verdict::kWrongAnswer;
  EXPECT_EQ(Reward(r), -1.0);
  r.verdict = Verdict::kCorrect;
  r.speedup = 0.25;
  EXPECT_DOUBLE_EQ(Reward(r), -0.75);
  r.speedup = 3.0;
  EXPECT_DOUBLE_EQ(Reward(r), 3.0);
  r.verdict = Verdict::kCompiledOnly;
  EXPECT_EQ(Reward(r), -1.0);
  VerifyResult untimed;  // --no-timing or --emulate: correct, speed unknown
  untimed.verdict = Verdict::kCorrect;
  EXPECT_EQ(Reward(untimed), 1.0);
}

TEST(SummarizeTest, MedianAndQuartiles) {
  Timing t = Summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(t.median_ms, 3);
  EXPECT_EQ(t.p25_ms, 2);
  EXPECT_EQ(t.p75_ms, 4);
  EXPECT_EQ(t.min_ms, 1);
  EXPECT_EQ(t.reps, 5);
}

}  // namespace
}  // namespace regrapht
