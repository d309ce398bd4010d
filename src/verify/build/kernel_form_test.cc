// The kernel form: spec parsing, the generated signature and adapter, and
// emulated verification of a right kernel and of planted wrong ones.
#include "verify/build/kernel_form.h"

#include <gtest/gtest.h>

#include "core/json_util.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/test_util.h"

namespace regrapht::verify {
namespace {

Json KernelSpecJson() {
  return Json::parse(R"({
    "format": "regrapht-problem", "version": 1, "name": "t", "function": "f", "category": "search",
    "structs": [{"name": "Book", "fields": [{"name": "title", "type": "string"}, {"name": "pages", "type": "int32"}]},
                {"name": "Point", "fields": [{"name": "x", "type": "double"}, {"name": "y", "type": "double"}]}],
    "returns": "size_t", "sizes": ["n"],
    "args": [
      {"name": "books", "role": "input", "type": "Book", "pass": "vector", "length": "n",
       "values": {"dist": "struct", "fields": {"title": {"dist": "string", "min_len": 1, "max_len": 9},
                                               "pages": {"dist": "uniform", "min": 1, "max": 300}}}},
      {"name": "z", "role": "inout", "type": "complex_double", "pass": "vector", "length": "n"},
      {"name": "bins", "role": "output", "type": "size_t", "pass": "array", "length": "4"},
      {"name": "hull", "role": "output", "type": "Point", "pass": "vector", "resizable": true, "order_matters": false}
    ],
    "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 300}, "seed": 2}, {"sizes": {"n": 1000}, "seed": 3}],
    "timing": {"sizes": {"n": 100000}, "seed": 4},
    "kernel": {
      "function": "k",
      "params": [
        {"name": "books", "bind": "books"}, {"name": "N", "size": "n"}, {"name": "z", "bind": "z"},
        {"name": "bins", "bind": "bins"},
        {"name": "hull", "bind": "hull", "compact": true, "capacity": "n", "init": {"x": -1, "y": -1}},
        {"name": "index", "bind": "return", "init": 18446744073709551615}
      ],
      "launch": {"grid": ["n", "n"]}
    }
  })");
}

std::string KernelSpecError(const Json& j) {
  auto r = ParseProblemSpec(j.dump(), "p/problem.json");
  return r.ok() ? "OK" : r.status().message();
}

TEST(KernelFormTest, SignaturesOfBothForms) {
  auto spec = ParseProblemSpec(KernelSpecJson().dump(), "p/problem.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->category, "search");
  EXPECT_EQ(spec->Signature(),
            "size_t f(const std::vector<Book>& books, std::vector<std::complex<double>>& z, "
            "std::array<size_t, 4>& bins, std::vector<Point>& hull)");
  EXPECT_EQ(KernelSignature(*spec),
            "__global__ void k(const Book* books, size_t N, cuDoubleComplex* z, size_t* bins, Point* hull, "
            "size_t* index)");
  auto adapter = GenerateKernelAdapter(*spec);
  ASSERT_TRUE(adapter.ok());
  // The kernel's Book holds a device string; the driver's, a std::string.
  EXPECT_NE(adapter->find("struct Book {\n  const char* title;"), std::string::npos);
  EXPECT_NE(adapter->find("namespace rgs {\nstruct Book {\n  std::string title;"), std::string::npos);
  EXPECT_NE(adapter->find("std::numeric_limits<size_t>::max()"), std::string::npos);
  EXPECT_NE(adapter->find("dim3 block(32, 32);"), std::string::npos);
}

TEST(KernelFormTest, SpecErrorsNameTheField) {
  struct Case {
    const char* what;
    std::function<void(Json&)> mutate;
    std::string error;
  };
  std::vector<Case> cases = {
      {"unknown bind", [](Json& j) { j["kernel"]["params"][0]["bind"] = "book"; },
       "p/problem.json: kernel.params[0].bind: no argument named 'book'"},
      {"return without init", [](Json& j) { j["kernel"]["params"][5].erase("init"); },
       "p/problem.json: kernel.params[5].init: a return value's buffer needs an initial value"},
      {"resizable without compact", [](Json& j) { j["kernel"]["params"][4].erase("compact"); },
       "p/problem.json: kernel.params[4].capacity: only with \"compact\": true"},
      {"output not bound", [](Json& j) { j["kernel"]["params"].erase(3); },
       "p/problem.json: kernel.params: the output 'bins' is not bound to a kernel parameter"},
      {"bad size expression", [](Json& j) { j["kernel"]["params"][1]["size"] = "m"; },
       "p/problem.json: kernel.params[1].size: unknown variable 'm' (size arguments: n)"},
      {"two launches", [](Json& j) { j["kernel"]["launch"]["threads"] = "n"; },
       "p/problem.json: kernel.launch: a launch needs exactly one of \"threads\" or \"grid\""},
      {"struct init field", [](Json& j) { j["kernel"]["params"][4]["init"] = Json::parse(R"({"x": 1})"); },
       "p/problem.json: kernel.params[4].init.y: missing (every field needs a value)"},
      {"string output", [](Json& j) { j["args"][0]["role"] = "inout"; },
       "p/problem.json: args[0].type: strings (and structs holding them) are only supported in vector inputs"},
      {"array length", [](Json& j) { j["args"][2]["length"] = "n"; },
       "p/problem.json: args[2].length: a std::array needs a constant length between 1 and 2^20"},
      {"string dist", [](Json& j) { j["args"][0]["values"]["fields"]["title"] = Json::parse(R"({"dist": "uniform"})"); },
       "p/problem.json: args[0].values.fields.title.dist: string elements need \"dist\": \"string\""},
  };
  for (const auto& c : cases) {
    Json j = KernelSpecJson();
    c.mutate(j);
    EXPECT_EQ(KernelSpecError(j), c.error) << c.what;
  }
}

// Emulated verification in the kernel form of the test-data problem
// count_positive: the right kernel passes; kernels that are off by one,
// read past N, or let threads beyond N through fail with the verdict named.
class KernelFormRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    runner_ = NewSubprocessRunner().release();
  }
  static void TearDownTestSuite() { delete runner_; }
  VerifyResult Run(const std::string& source) {
    auto p = LoadProblem(testing_util::SourceDir() / "src" / "verify" / "testdata" / "count_positive");
    EXPECT_TRUE(p.ok()) << p.status().message();
    VerifyOptions o;
    o.run_mode = VerifyOptions::RunMode::kEmulate;
    o.emulate_timing_size = false;
    o.kernel_form = true;
    Verifier v(o, runner_);
    auto r = v.Verify(*p, source);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : VerifyResult{};
  }
  static CommandRunner* runner_;
};
CommandRunner* KernelFormRunTest::runner_ = nullptr;

TEST_F(KernelFormRunTest, RightAndPlantedWrongKernels) {
  auto p = LoadProblem(testing_util::SourceDir() / "src" / "verify" / "testdata" / "count_positive");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_TRUE(p->kernel_solution_source.has_value());
  VerifyResult ok = Run(*p->kernel_solution_source);
  EXPECT_EQ(ok.verdict, Verdict::kCorrect) << ok.detail << ok.log;
  EXPECT_EQ(ok.form, "kernel");
  EXPECT_EQ(EvidenceLevel(ok), "emulated");

  const std::string guarded = R"(
__global__ void countPositive(const double* x, size_t N, int* count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (COND && x[i] > 0.0) atomicAdd(count, 1);
})";
  auto with = [&](const std::string& cond) {
    std::string s = guarded;
    s.replace(s.find("COND"), 4, cond);
    return s;
  };
  VerifyResult off_by_one = Run(with("i + 1 < N"));
  EXPECT_EQ(off_by_one.verdict, Verdict::kWrongAnswer) << off_by_one.detail;
  VerifyResult past_n = Run(with("i <= N"));
  EXPECT_EQ(past_n.verdict, Verdict::kRuntimeError) << past_n.detail;
  VerifyResult unguarded = Run(with("true"));
  EXPECT_EQ(unguarded.verdict, Verdict::kRuntimeError) << unguarded.detail;
  // A host function instead of the kernel is not the kernel form's task.
  VerifyResult host = Run("int countPositive(const double* x, size_t N) { return 0; }");
  EXPECT_EQ(host.verdict, Verdict::kStaticReject) << host.detail;
}

}  // namespace
}  // namespace regrapht::verify
