#include "regrapht/problem.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/fs.h"
#include "core/json_util.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;

TEST(ProblemTest, BundledProblemsLoad) {
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = LoadBundled(name);
    EXPECT_EQ(p.spec.name, name);
    EXPECT_TRUE(p.solution_source.has_value()) << name;
  }
}

TEST(ProblemTest, Signatures) {
  EXPECT_EQ(LoadBundled("saxpy").spec.Signature(), "void saxpy(int n, float a, const float* x, float* y)");
  EXPECT_EQ(LoadBundled("jacobi2d").spec.Signature(),
            "void jacobi2d(const std::vector<double>& input, std::vector<double>& output, size_t N)");
  EXPECT_EQ(LoadBundled("sum_of_squares").spec.Signature(),
            "double sumOfSquares(const std::vector<double>& x)");
  EXPECT_EQ(LoadBundled("spmv_csr").spec.Signature(),
            "void spmv_csr(int n, const int* row_ptr, const int* col_idx, const double* values, "
            "const double* x, double* y)");
}

TEST(ProblemTest, LengthsAndDefaults) {
  Problem p = LoadBundled("jacobi2d");
  auto lens = ArrayLengths(p.spec, p.spec.tests[3]);
  ASSERT_TRUE(lens.ok());
  EXPECT_EQ(*(*lens)["input"], 90000);
  Tolerance t = p.spec.ToleranceFor(p.spec.args[1].type, p.spec.args[1].tolerance);
  EXPECT_EQ(t.abs, 1e-12);
  ElementType f;
  f.scalar = ScalarType::kFloat;
  EXPECT_EQ(p.spec.ToleranceFor(f, std::nullopt).rel, 1e-4);
}

// A valid spec to mutate in the error cases below.
Json Base() {
  return Json::parse(R"({
    "format": "regrapht-problem", "version": 1, "name": "t", "function": "f",
    "args": [
      {"name": "n", "role": "size", "type": "int32"},
      {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n"},
      {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "n"}
    ],
    "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 300}, "seed": 2}, {"sizes": {"n": 1000}, "seed": 3}],
    "timing": {"sizes": {"n": 100000}, "seed": 4}
  })");
}

std::string ErrorOf(const Json& j) {
  auto r = ParseProblemSpec(j.dump(), "p/problem.json");
  return r.ok() ? "OK" : r.status().message();
}

TEST(ProblemTest, BaseIsValid) { EXPECT_EQ(ErrorOf(Base()), "OK"); }

// A mutation of Base() and the error it must give.
struct SpecErrorCase {
  const char* what;
  std::function<void(Json&)> mutate;
  const char* error;
};

void ExpectSpecErrors(const std::vector<SpecErrorCase>& cases) {
  for (const auto& c : cases) {
    Json j = Base();
    c.mutate(j);
    EXPECT_EQ(ErrorOf(j), c.error) << c.what;
  }
}

TEST(ProblemTest, SpecErrorsNameTheField) {
  ExpectSpecErrors({
      {"bad format", [](Json& j) { j["format"] = "x"; },
       "p/problem.json: format: expected \"regrapht-problem\", got \"x\""},
      {"version", [](Json& j) { j["version"] = 2; },
       "p/problem.json: version: unsupported version 2 (this regrapht reads 1)"},
      {"unknown top field", [](Json& j) { j["tset"] = 1; },
       "p/problem.json: tset: unknown field (allowed: format, version, name, function, returns, structs, "
       "sparse, sizes, args, tests, timing, allow_constant_output, libraries, time_limit_s, notes, category, kernel)"},
      {"bad role", [](Json& j) { j["args"][1]["role"] = "in"; },
       "p/problem.json: args[1].role: unknown role \"in\" (input, output, inout, scalar, size)"},
      {"bad type", [](Json& j) { j["args"][1]["type"] = "float32"; },
       "p/problem.json: args[1].type: unknown type \"float32\" (float, double, int8, int16, int32, int64, "
       "uint8, uint32, uint64, size_t, bool, char, complex_float, complex_double, string, or a struct declared in "
       "\"structs\")"},
      {"unknown length var", [](Json& j) { j["args"][1]["length"] = "m"; },
       "p/problem.json: args[1].length: unknown variable 'm' (size arguments: n)"},
      {"bad expr", [](Json& j) { j["args"][1]["length"] = "n*"; },
       "p/problem.json: args[1].length: expression \"n*\": unexpected end at character 3"},
      {"missing pass", [](Json& j) { j["args"][1].erase("pass"); },
       "p/problem.json: args[1].pass: required for arrays (pointer, vector or array)"},
      {"const output", [](Json& j) { j["args"][2]["const"] = true; },
       "p/problem.json: args[2].const: an output cannot be const"},
      {"int tolerance", [](Json& j) { j["args"][2]["type"] = "int32"; j["args"][2]["tolerance"] = {{"abs", 1}}; },
       "p/problem.json: args[2].tolerance: integer and bool outputs are compared exactly"},
      {"negative tol", [](Json& j) { j["args"][2]["tolerance"] = {{"rel", -1}}; },
       "p/problem.json: args[2].tolerance.rel: must be >= 0"},
      {"tolerance on input", [](Json& j) { j["args"][1]["tolerance"] = {{"rel", 1}}; },
       "p/problem.json: args[1].tolerance: only outputs and in-outs are compared"},
      {"no tiny", [](Json& j) { j["tests"][0]["sizes"]["n"] = 64; },
       "p/problem.json: tests: need a tiny test case (every size <= 16)"},
      {"no ragged", [](Json& j) { j["tests"][1]["sizes"]["n"] = 256; j["tests"][2]["sizes"]["n"] = 1024; },
       "p/problem.json: tests: need a test case with a size > 256 that is not a multiple of 32"},
      {"too few tests", [](Json& j) { j["tests"].erase(2); },
       "p/problem.json: tests: need at least 3 test cases (a tiny one, one not a multiple of 32, one larger)"},
      {"missing size", [](Json& j) { j["tests"][1]["sizes"].erase("n"); },
       "p/problem.json: tests[1].sizes: missing a value for size argument 'n'"},
      {"unknown size", [](Json& j) { j["tests"][1]["sizes"]["k"] = 3; },
       "p/problem.json: tests[1].sizes.k: not a size argument of the function nor declared in \"sizes\""},
      {"no timing", [](Json& j) { j.erase("timing"); }, "p/problem.json: timing: required field is missing"},
      {"bad dist", [](Json& j) { j["args"][1]["values"] = {{"dist", "gauss"}}; },
       "p/problem.json: args[1].values.dist: unknown distribution \"gauss\" (uniform, normal, constant, "
       "bernoulli, permutation, sorted, adjacency, struct, string)"},
      {"bad library", [](Json& j) { j["libraries"] = {"magma"}; },
       "p/problem.json: libraries[0]: unknown library \"magma\" (cublas, cusparse, cufft, curand, thrust, cub)"},
      {"no output", [](Json& j) { j["args"].erase(2); },
       "p/problem.json: args: the function has no output, in-out or return value to check"},
      {"duplicate", [](Json& j) { j["args"][2]["name"] = "x"; },
       "p/problem.json: args[2].name: duplicate argument name 'x'"},
      {"sparse part", [](Json& j) { j["args"][1].erase("length"); j["args"][1]["from"] = "B.values"; },
       "p/problem.json: args[1].from: no sparse generator named in \"B.values\""},
      {"length and resizable", [](Json& j) { j["args"][2]["pass"] = "vector"; j["args"][2]["resizable"] = true; },
       "p/problem.json: args[2]: array 'y' needs exactly one of \"length\", \"from\" or \"resizable\""},
      {"negative length", [](Json& j) { j["args"][1]["length"] = "n-5"; },
       "p/problem.json: tests[0]: length of 'x' is negative (-4)"},
  });
}

// Numbers against their declared type, ranges, names (issue 14).
TEST(ProblemTest, NumbersAreCheckedAgainstTheirTypes) {
  ExpectSpecErrors({
      {"int32 size overflow", [](Json& j) { j["tests"][2]["sizes"]["n"] = 3000000299LL; },
       "p/problem.json: tests[2].sizes.n: 3000000299 does not fit the size argument's type int32 "
       "(-2147483648 to 2147483647)"},
      {"timing size overflow", [](Json& j) { j["args"][0]["type"] = "uint8"; j["tests"][2]["sizes"]["n"] = 255;
                                             j["tests"][1]["sizes"]["n"] = 255; },
       "p/problem.json: timing.sizes.n: 100000 does not fit the size argument's type uint8 (0 to 255)"},
      {"min > max", [](Json& j) { j["args"][1]["values"] = {{"dist", "uniform"}, {"min", 5}, {"max", 1}}; },
       "p/problem.json: args[1].values.min: 5 is greater than max 1 (need min <= max)"},
      {"min > max by expression", [](Json& j) { j["args"][1]["values"] = {{"dist", "uniform"}, {"min", "n"}, {"max", 10}}; },
       "p/problem.json: args[1].values.min: n (300) is greater than max 10 (10) in tests[1]"},
      {"element range", [](Json& j) { j["args"][1]["type"] = "uint8";
                                      j["args"][1]["values"] = {{"dist", "uniform"}, {"min", -1}, {"max", 10}}; },
       "p/problem.json: args[1].values.min: -1 does not fit the element's type uint8 (0 to 255)"},
      {"constant range", [](Json& j) { j["args"][1]["type"] = "int8";
                                       j["args"][1]["values"] = {{"dist", "constant"}, {"value", 200}}; },
       "p/problem.json: args[1].values.value: 200 does not fit the element's type int8 (-128 to 127)"},
      {"fractional int scalar", [](Json& j) {
         j["args"].push_back({{"name", "k"}, {"role", "scalar"}, {"type", "int32"}});
         j["tests"][0]["scalars"] = {{"k", 1.5}}; },
       "p/problem.json: tests[0].scalars.k: 1.5 is not an integer, but the argument is int32"},
      {"float scalar overflow", [](Json& j) {
         j["args"].push_back({{"name", "a"}, {"role", "scalar"}, {"type", "float"}});
         j["tests"][0]["scalars"] = {{"a", 1e39}}; },
       "p/problem.json: tests[0].scalars.a: 1e+39 does not fit the argument's type float"},
      {"seed past int64", [](Json& j) { j["tests"][0]["seed"] = 18446744073709551615ULL; },
       "p/problem.json: tests[0].seed: 18446744073709551615 is out of range (at most 9223372036854775807)"},
      {"NUL in name", [](Json& j) { j["name"] = std::string("a\0b", 3); },
       "p/problem.json: name: control character U+0000 at byte 1 (names are printable text)"},
      {"notes not text", [](Json& j) { j["notes"] = Json::array({1, 2}); },
       "p/problem.json: notes: free text is a string, got array"},
  });
}

// Values `regrapht optimize` left for the user in a template (verify/infer.h)
// are named by their path before anything else is checked; notes may say
// "FILL IN: " freely.
TEST(ProblemTest, TemplateValuesLeftUnwrittenAreNamed) {
  Json j = Base();
  j["notes"] = "replace every value that starts with \"FILL IN: \"";
  EXPECT_EQ(ErrorOf(j), "OK");
  j["args"][1]["length"] = "FILL IN: length of x";
  EXPECT_EQ(
      ErrorOf(j),
      "p/problem.json: args[1].length: still a template value, to be written (docs/inference.md): "
      "\"FILL IN: length of x\"");
}

TEST(ProblemTest, JsonSyntaxErrorNamesLine) {
  auto r = ParseProblemSpec("{\n \"format\": \"regrapht-problem\",\n \"version\": 1,,\n}", "q.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("q.json:3:", 0), 0u) << r.status().message();
}

TEST(ProblemTest, StructsAndExtraSizes) {
  Json j = Json::parse(R"({
    "format": "regrapht-problem", "version": 1, "name": "closest", "function": "closestPair",
    "structs": [{"name": "Point", "fields": [{"name": "x", "type": "double"}, {"name": "y", "type": "double"}]}],
    "returns": "double", "sizes": ["n"],
    "args": [{"name": "points", "role": "input", "type": "Point", "pass": "vector", "length": "n",
              "values": {"dist": "struct", "fields": {"x": {"dist": "uniform", "min": -5, "max": 5},
                                                      "y": {"dist": "normal", "mean": 0, "std": 1}}}}],
    "tests": [{"sizes": {"n": 2}, "seed": 1}, {"sizes": {"n": 301}, "seed": 2}, {"sizes": {"n": 50}, "seed": 3}],
    "timing": {"sizes": {"n": 10000}, "seed": 4}
  })");
  auto spec = ParseProblemSpec(j.dump(), "s.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->Signature(), "double closestPair(const std::vector<Point>& points)");
  EXPECT_EQ(spec->ElementSize(spec->args[0].type), 16u);
  j["args"][0]["values"]["fields"].erase("y");
  EXPECT_EQ(ErrorOf(j), "p/problem.json: args[0].values.fields.y: missing distribution for struct field");
}

TEST(ProblemTest, DiagonalOverrides) {
  Json j = Base();
  j["args"][1]["length"] = "n*n";
  j["args"][1]["diagonal"] = Json::parse(R"({"n": "n", "values": {"dist": "uniform", "min": "n", "max": "2*n"}})");
  j["args"][2]["length"] = "n";
  j["timing"]["sizes"]["n"] = 2000;
  auto spec = ParseProblemSpec(j.dump(), "p/problem.json");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->args[1].diagonal_n, "n");
  EXPECT_EQ(spec->args[1].diagonal_values.max, "2*n");
  j["args"][1]["diagonal"]["values"]["max"] = "2*m";
  EXPECT_EQ(ErrorOf(j), "p/problem.json: args[1].diagonal.values.max: unknown variable 'm' (size arguments: n)");
  j["args"][1]["diagonal"]["values"] = Json::parse(R"({"dist": "bernoulli", "p": 0.5})");
  EXPECT_EQ(ErrorOf(j), "p/problem.json: args[1].diagonal.values.dist: a diagonal takes uniform, normal or constant");
  j["args"][1]["type"] = "int32";
  j["args"][1]["diagonal"]["values"] = Json::parse(R"({"dist": "constant", "value": 9})");
  EXPECT_EQ(ErrorOf(j), "p/problem.json: args[1].diagonal: only generated floating-point n x n arrays take a diagonal");
}

TEST(ProblemTest, MissingFilesAreNamed) {
  auto r = LoadProblem(testing_util::SourceDir() / "problems" / "does-not-exist");
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// Files of a problem folder are regular files inside it: a link out of the
// folder and a FIFO are refused by name, never read.
TEST(ProblemTest, FilesLeadingOutOfTheFolderOrNotRegularAreRefused) {
  auto dir = TempDir::Create("rgproblem");
  ASSERT_TRUE(dir.ok());
  fs::path p = dir->path() / "saxpy";
  fs::copy(testing_util::SourceDir() / "problems" / "saxpy", p);
  ASSERT_TRUE(LoadProblem(p).ok());
  fs::remove(p / "reference.cpp");
  fs::create_symlink("/etc/passwd", p / "reference.cpp");
  auto out = LoadProblem(p);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find((p / "reference.cpp").string() +
                                        ": leads outside the problem folder (to /etc/passwd)"),
            std::string::npos)
      << out.status().message();
  fs::remove(p / "problem.json");
  ASSERT_EQ(mkfifo((p / "problem.json").c_str(), 0600), 0);
  auto fifo = LoadProblem(p);
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.status().message(), (p / "problem.json").string() + ": a FIFO, not a regular file");
}

}  // namespace
}  // namespace regrapht
