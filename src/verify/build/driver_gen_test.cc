#include "verify/build/driver_gen.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "core/fs.h"
#include "core/rng.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "verify/judge/records.h"
#include "verify/test_util.h"

namespace regrapht::verify {
namespace {

// Writes `prog` to dir/d.cc and builds dir/d with g++ (C++17, as in the
// sandbox), beside the driver header already in `dir`.
void BuildProgram(CommandRunner* runner, const fs::path& dir, const std::string& prog) {
  ASSERT_TRUE(WriteFile(dir / "d.cc", prog).ok());
  CommandSpec cs;
  cs.argv = {"g++", "-std=c++17", "-w", (dir / "d.cc").string(), "-o", (dir / "d").string()};
  auto built = runner->Run(cs);
  ASSERT_TRUE(built.ok() && built->ok()) << (built.ok() ? built->stderr_text : built.status().ToString());
}

TEST(DriverGenTest, PlanFormat) {
  Problem p = testing_util::LoadBundled("saxpy");
  PlanOptions o;
  o.max_seconds = 1.5;
  std::string plan = MakePlan(p.spec, o);
  EXPECT_EQ(plan.rfind("regrapht-plan 1\nruns 2\ncase 0 11 1 n 1 0\n", 0), 0u) << plan;
  EXPECT_NE(plan.find("timing 99 "), std::string::npos);
  EXPECT_NE(plan.find(" 2 5 50 1.500000 1 1 n 16777216 0\nend\n"), std::string::npos) << plan;
}

// The emulator's timing-size rungs: one case each after the tests, the first
// rung's id on the fullsize line, every case's bytes, and the work budget
// (the candidate's plan only: the reference runs every rung).
TEST(DriverGenTest, PlanWithTimingSizeRungs) {
  Problem p = testing_util::LoadBundled("saxpy");
  PlanOptions o;
  o.timing = false;
  o.timing_size_case = true;
  TestCase a = p.spec.timing, b = p.spec.timing;
  a.sizes["n"] = 8192;
  b.sizes["n"] = 16384;
  o.timing_size_rungs = {a, b};
  o.emulate_max_work = 5000;
  const std::string t = std::to_string(p.spec.tests.size());
  const std::string t1 = std::to_string(p.spec.tests.size() + 1);
  std::string plan = MakePlan(p.spec, o);
  EXPECT_NE(plan.find("\ncase " + t + " 99 1 n 8192 0\ncase " + t1 + " 99 1 n 16384 0\nfullsize " + t + "\n"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("weight 0 8\n"), std::string::npos) << plan;  // n = 1: x and y
  EXPECT_NE(plan.find("weight " + t1 + " 131072\n"), std::string::npos) << plan;
  EXPECT_NE(plan.find("\nwork 5000\nend\n"), std::string::npos) << plan;
  o.emulate_max_work = 0;
  EXPECT_EQ(MakePlan(p.spec, o).find("work "), std::string::npos);
}

// An emulated candidate's calls split over processes (SplitPlans): plan k
// makes call k of every test case, plan 0 alone the timing-size rungs; a
// timed plan, or one already split, stays whole.
TEST(DriverGenTest, SplitPlansShareTheCalls) {
  Problem p = testing_util::LoadBundled("saxpy");
  PlanOptions o;
  o.timing = false;
  o.timing_size_case = true;
  TestCase a = p.spec.timing;
  a.sizes["n"] = 8192;
  o.timing_size_rungs = {a};
  const std::vector<std::string> plans = SplitPlans(p.spec, o);
  ASSERT_EQ(plans.size(), 2u);
  EXPECT_EQ(plans[0].rfind("regrapht-plan 1\nruns 2\ntest_run 0\ncase 0 ", 0), 0u) << plans[0];
  EXPECT_EQ(plans[1].rfind("regrapht-plan 1\nruns 2\ntest_run 1\ncase 0 ", 0), 0u) << plans[1];
  EXPECT_NE(plans[0].find("fullsize "), std::string::npos);
  EXPECT_EQ(plans[1].find("fullsize "), std::string::npos);
  const std::string last_test = "case " + std::to_string(p.spec.tests.size() - 1) + " ";
  EXPECT_NE(plans[1].find(last_test), std::string::npos);
  o.timing = true;
  EXPECT_EQ(SplitPlans(p.spec, o), std::vector<std::string>{MakePlan(p.spec, o)});
  o.timing = false;
  o.runs = 1;
  EXPECT_EQ(SplitPlans(p.spec, o).size(), 1u);
}

// The split plans, run by a real driver, make exactly the calls of the whole
// plan with the same call numbers: the output a candidate leaves unwritten
// holds the poison of that call number (it alternates), so the merged
// records equal the whole run's byte for byte.
TEST(DriverGenTest, SplitRunsRecordWhatOneRunRecords) {
  auto spec = ParseProblemSpec(R"({
    "format": "regrapht-problem", "version": 1, "name": "t", "function": "f", "sizes": ["n"],
    "args": [{"name": "x", "role": "input", "type": "int32", "pass": "vector", "length": "n"},
             {"name": "y", "role": "output", "type": "int32", "pass": "vector", "length": "n"}],
    "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 7}, "seed": 2}, {"sizes": {"n": 300}, "seed": 3}],
    "timing": {"sizes": {"n": 1000}, "seed": 4}})", "t.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  auto src = GenerateDriver(*spec);
  ASSERT_TRUE(src.ok());
  auto dir = TempDir::Create("rgsplit");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  // Every other element written: the rest keeps its poison.
  const std::string prog = "#define RG_DRIVER_IMPLEMENTATION\n" + *src +
                           "\nvoid f(const std::vector<int>& x, std::vector<int>& y) {\n"
                           "  for (size_t i = 0; i < y.size(); i += 2) y[i] = 3 * x[i];\n}\n";
  auto runner = NewSubprocessRunner();
  ASSERT_NO_FATAL_FAILURE(BuildProgram(runner.get(), dir->path(), prog));
  const std::string key(32, 'k');
  auto run = [&](const std::string& plan) -> DriverRecords {
    EXPECT_TRUE(WriteFile(dir->path() / "plan.txt", plan).ok());
    CommandSpec rs;
    rs.argv = {(dir->path() / "d").string(), (dir->path() / "plan.txt").string(), "3"};
    rs.records_fd = 3;
    rs.stdin_data = key;
    auto ran = runner->Run(rs);
    EXPECT_TRUE(ran.ok() && ran->ok()) << (ran.ok() ? ran->stderr_text : ran.status().ToString());
    auto recs = ran.ok() ? ParseRecords(ran->records, key) : Result<DriverRecords>(ran.status());
    EXPECT_TRUE(recs.ok() && recs->finished) << plan;
    return recs.ok() ? *recs : DriverRecords{};
  };
  PlanOptions o;
  o.timing = false;
  const DriverRecords whole = run(MakePlan(*spec, o));
  std::vector<DriverRecords> parts;
  for (const auto& plan : SplitPlans(*spec, o)) parts.push_back(run(plan));
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].CallsOf(2), std::vector<int>{0});
  EXPECT_EQ(parts[1].CallsOf(2), std::vector<int>{1});
  auto merged = MergeRecords(parts);
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  ASSERT_EQ(merged->arrays.size(), whole.arrays.size());
  ASSERT_EQ(whole.arrays.size(), 6u);  // y of 3 cases x 2 calls
  for (const auto& a : whole.arrays) {
    const ArrayRecord* m = merged->Find(a.case_id, a.call, a.name);
    ASSERT_NE(m, nullptr) << a.case_id << " " << a.call;
    EXPECT_EQ(m->bytes, a.bytes) << "case " << a.case_id << " call " << a.call;
  }
  // The two calls of a case differ where the poison shows (n = 7: y[1]).
  EXPECT_NE(whole.Find(1, 0, "y")->bytes, whole.Find(1, 1, "y")->bytes);
  // A repeat across parts is refused by name.
  auto twice = MergeRecords({parts[0], parts[0]});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("repeat case 0 call 0 'y'"), std::string::npos)
      << twice.status().message();
}

// Special values: a distribution puts the given share of its mass on a few
// values (edge values, skewed histograms). The generated driver's generator,
// compiled and run: about 70% of 20000 draws are 0 or 7, the rest uniform.
TEST(DriverGenTest, SpecialValuesTakeTheirShare) {
  auto spec = ParseProblemSpec(R"({
    "format": "regrapht-problem", "version": 1, "name": "t", "function": "f", "sizes": ["n"],
    "args": [{"name": "x", "role": "inout", "type": "int32", "pass": "vector", "length": "n",
              "values": {"dist": "uniform", "min": 100, "max": 200, "special": {"p": 0.7, "values": [0, 7]}}}],
    "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 300}, "seed": 2}, {"sizes": {"n": 20000}, "seed": 3}],
    "timing": {"sizes": {"n": 20000}, "seed": 4}})", "t.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_DOUBLE_EQ(spec->args[0].values.special_p, 0.7);
  auto src = GenerateDriver(*spec);
  ASSERT_TRUE(src.ok());
  auto dir = TempDir::Create("rgspecial");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  // The driver's Generate() through a main of our own: count the special values.
  std::string prog = *src;
  prog = prog.substr(0, prog.find("int main("));
  prog += R"(
#include <cstdio>
#define RG_DRIVER_IMPLEMENTATION  // the runtime in the same program
#include "rg_driver.h"
int main() {
  rg::Case c;
  c.seed = 3;
  c.sizes["n"] = 20000;
  Data d;
  Generate(c, &d);
  int special = 0, other = 0;
  for (int v : d.a_x) (v == 0 || v == 7) ? ++special : (v >= 100 && v <= 200 ? ++other : 0);
  std::printf("%d %d\n", special, other);
}
void f(std::vector<int>&) {}
)";
  auto runner = NewSubprocessRunner();
  ASSERT_NO_FATAL_FAILURE(BuildProgram(runner.get(), dir->path(), prog));
  CommandSpec cs;
  cs.argv = {(dir->path() / "d").string()};
  auto ran = runner->Run(cs);
  ASSERT_TRUE(ran.ok() && ran->ok());
  int special = 0, other = 0;
  ASSERT_EQ(std::sscanf(ran->stdout_text.c_str(), "%d %d", &special, &other), 2) << ran->stdout_text;
  EXPECT_EQ(special + other, 20000);
  EXPECT_NEAR(special / 20000.0, 0.7, 0.02);
}

// What the generator draws from a few seeds, as text (hex floats: bit-exact).
// The same function is compiled into the driver below from this source.
#define RG_RNG_TRACE_BODY                                                                   \
  std::string out;                                                                          \
  char line[256];                                                                           \
  for (uint64_t seed : {0ULL, 1ULL, 42ULL, 0x9e3779b97f4a7c15ULL, ~0ULL}) {                 \
    Rng r(seed);                                                                            \
    for (int i = 0; i < 40; ++i) {                                                          \
      unsigned long long next = r.Next(), below7 = r.Below(7), below0 = r.Below(0),         \
                         below_big = r.Below(1ULL << 40);                                   \
      double u = r.Uniform(), z = r.Normal();                                               \
      std::snprintf(line, sizeof line, "%llu %llu %llu %llu %a %a\n", next, below7, below0, \
                    below_big, u, z);                                                       \
      out += line;                                                                          \
    }                                                                                       \
    uint64_t s = seed;                                                                      \
    unsigned long long mixed = SplitMix64(s);                                               \
    std::snprintf(line, sizeof line, "splitmix %llu\n", mixed);                             \
    out += line;                                                                            \
  }                                                                                         \
  return out;

std::string RngTrace() { RG_RNG_TRACE_BODY }

#define RG_STR2(...) #__VA_ARGS__
#define RG_STR(...) RG_STR2(__VA_ARGS__)

// One generator: the library's regrapht::Rng and the rg::Rng of a driver
// compiled (C++17, g++, only the embedded rg_driver.h beside it, as in the
// sandbox) draw the same sequence from a seed, Below(0) included (two copies
// once disagreed on it).
TEST(DriverGenTest, DriverRngEqualsLibraryRng) {
  auto dir = TempDir::Create("rgrng");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  std::string prog = "#include \"rg_driver.h\"\nusing rg::Rng;\nusing rg::SplitMix64;\n"
                     "std::string RngTrace() { " RG_STR(RG_RNG_TRACE_BODY) " }\n"
                     "int main() { std::fputs(RngTrace().c_str(), stdout); }\n";
  ASSERT_TRUE(WriteFile(dir->path() / "rng.cc", prog).ok());
  auto runner = NewSubprocessRunner();
  CommandSpec cs;
  cs.cwd = dir->path();
  cs.argv = {"g++", "-std=c++17", "-ffp-contract=off", "-Wall", "-Werror", "rng.cc", "-o", "rng"};
  auto built = runner->Run(cs);
  ASSERT_TRUE(built.ok() && built->ok())
      << (built.ok() ? built->stderr_text : built.status().ToString());
  cs.argv = {(dir->path() / "rng").string()};
  auto ran = runner->Run(cs);
  ASSERT_TRUE(ran.ok() && ran->ok());
  EXPECT_EQ(ran->stdout_text, RngTrace());
  EXPECT_EQ(std::string(DriverRuntimeHeader()).find("core/rng_standalone.h\"  // embed"),
            std::string::npos)
      << "the embedded driver header still includes the file instead of inlining it";
}

// The drop-in form's kernel clock (CUPTI): the plan line reaches the driver,
// the figure is the union of the kernels' intervals (overlap counts once),
// and a driver built without CUPTI has no figure (< 0: no "k1" record),
// never a zero.
TEST(DriverGenTest, KernelClockPlanUnionAndAbsence) {
  Problem p = testing_util::LoadBundled("saxpy");
  PlanOptions o;
  o.kernel_clock = true;
  std::string plan = MakePlan(p.spec, o);
  EXPECT_NE(plan.find("\nkernel_clock 1\nend\n"), std::string::npos) << plan;
  o.kernel_clock = false;
  EXPECT_EQ(MakePlan(p.spec, o).find("kernel_clock"), std::string::npos);
  auto dir = TempDir::Create("rgkclock");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  ASSERT_TRUE(WriteFile(dir->path() / "plan.txt", plan.substr(0, plan.find("end\n")) + "kernel_clock 1\nend\n").ok());
  ASSERT_TRUE(WriteFile(dir->path() / "k.cc", R"(
#define RG_DRIVER_IMPLEMENTATION
#include "rg_driver.h"
int main(int, char** argv) {
  rg::Plan plan;
  bool ok = rg::ReadPlan(argv[1], &plan);
  std::vector<std::pair<uint64_t, uint64_t>> spans = {{30, 40}, {0, 10}, {5, 20}, {20, 25}};
  std::printf("%d %d %.0f %d %.0f\n", ok ? 1 : 0, plan.kernel_clock ? 1 : 0, rg::SpanUnionNs(&spans),
              rg::KernelClockStart() ? 1 : 0, rg::KernelClockMs());
}
)").ok());
  auto runner = NewSubprocessRunner();
  CommandSpec cs;
  cs.argv = {"g++", "-std=c++17", "-w", "-I" + dir->path().string(), (dir->path() / "k.cc").string(), "-o",
             (dir->path() / "k").string()};
  auto built = runner->Run(cs);
  ASSERT_TRUE(built.ok() && built->ok()) << (built.ok() ? built->stderr_text : built.status().ToString());
  cs.argv = {(dir->path() / "k").string(), (dir->path() / "plan.txt").string()};
  auto ran = runner->Run(cs);
  ASSERT_TRUE(ran.ok() && ran->ok());
  EXPECT_EQ(ran->stdout_text, "1 1 35 0 -1\n");
}

// Every bundled problem's driver compiles with the host compiler, with and
// without the CUDA hooks, and links against its reference.
TEST(DriverGenTest, GeneratedDriversCompile) {
  auto dir = TempDir::Create("rgdrv");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  const fs::path rt = dir->path() / "rg_driver_rt.cc";
  ASSERT_TRUE(WriteFile(rt, std::string(DriverRuntimeSource())).ok());
  auto runner = NewSubprocessRunner();
  // The runtime, with and without the CUDA hooks (and CUPTI where present).
  std::vector<std::vector<std::string>> variants = {{}, {"-DRG_DRIVER_CUDA", "-I/usr/local/cuda/include"}};
  if (fs::exists("/usr/local/cuda/include/cupti.h")) {
    variants.push_back({"-DRG_DRIVER_CUDA", "-DRG_DRIVER_CUPTI", "-I/usr/local/cuda/include"});
  }
  // The first variant's object (no CUDA) is what the CPU drivers below link:
  // the runtime is compiled once per variant, not once per driver.
  const fs::path rt_cpu = dir->path() / "rt0.o";
  for (size_t i = 0; i < variants.size(); ++i) {
    const auto& v = variants[i];
    CommandSpec cs;
    cs.argv = {"g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-c", rt.string(),
               "-o", (dir->path() / ("rt" + std::to_string(i) + ".o")).string()};
    cs.argv.insert(cs.argv.begin() + 2, v.begin(), v.end());
    auto res = runner->Run(cs);
    ASSERT_TRUE(res.ok());
    EXPECT_TRUE(res->ok()) << "runtime " << Join(v, " ") << ":\n" << res->stderr_text;
  }
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = testing_util::LoadBundled(name);
    auto src = GenerateDriver(p.spec);
    ASSERT_TRUE(src.ok()) << src.status().ToString();
    fs::path d = dir->path() / (std::string(name) + ".cc");
    fs::path r = dir->path() / (std::string(name) + "_ref.cpp");
    ASSERT_TRUE(WriteFile(d, *src).ok());
    ASSERT_TRUE(WriteFile(r, p.reference_source).ok());
    CommandSpec cs;
    cs.argv = {"g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
               d.string(), r.string(), rt_cpu.string(), "-o", (dir->path() / name).string()};
    auto res = runner->Run(cs);
    ASSERT_TRUE(res.ok());
    EXPECT_TRUE(res->ok()) << name << ":\n" << res->stderr_text << "\n" << *src;
    cs.argv = {"g++", "-std=c++17", "-DRG_DRIVER_CUDA", "-I/usr/local/cuda/include", "-c", d.string(),
               "-o", (dir->path() / (std::string(name) + ".o")).string()};
    res = runner->Run(cs);
    ASSERT_TRUE(res.ok());
    EXPECT_TRUE(res->ok()) << name << " (cuda):\n" << res->stderr_text;
    // With the drop-in form's kernel clock, where the toolkit has CUPTI.
    if (fs::exists("/usr/local/cuda/include/cupti.h")) {
      cs.argv = {"g++", "-std=c++17", "-DRG_DRIVER_CUDA", "-DRG_DRIVER_CUPTI", "-I/usr/local/cuda/include", "-c",
                 d.string(), "-o", (dir->path() / (std::string(name) + "_cupti.o")).string()};
      res = runner->Run(cs);
      ASSERT_TRUE(res.ok());
      EXPECT_TRUE(res->ok()) << name << " (cuda, cupti):\n" << res->stderr_text;
    }
  }
}

}  // namespace
}  // namespace regrapht::verify
