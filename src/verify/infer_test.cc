#include "verify/infer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace regrapht::verify {
namespace {

// name:role per argument, then "returns" if the spec has one.
std::string Roles(const InferredSpec& spec) {
  nlohmann::json j = nlohmann::json::parse(spec.spec_json);
  std::string out;
  for (const auto& a : j["args"])
    out += a["name"].get<std::string>() + ":" + a["role"].get<std::string>() + " ";
  if (j.contains("returns")) out += "returns " + j["returns"].get<std::string>();
  return out;
}

TEST(InferSpecTest, PointersSizesAndScalars) {
  auto s = InferSpec(
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n}\n",
      "saxpy");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(Roles(*s), "n:size a:scalar x:input y:inout ");
}

TEST(InferSpecTest, VectorsGetAHiddenSize) {
  auto s = InferSpec(
      "#include <vector>\ndouble sumSquares(std::vector<double> const& x) { return 0; }\n",
      "sumSquares");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(Roles(*s), "x:input returns double");
}

// The definition is found as core/scanner.h finds it: not the mention in a
// comment, not the prototype, not the call; noexcept and specifiers are
// accepted (before the scanner, noexcept made this "no definition").
TEST(InferSpecTest, FindsTheDefinitionNotPrototypesOrCalls) {
  auto s = InferSpec(
      "// saxpy(int n) { is only mentioned here\n"
      "void saxpy(int n, float a, const float* x, float* y);\n"
      "void caller(float* y) { saxpy(3, 1.0f, y, y); }\n"
      "static inline void saxpy(int n, float a, const float* x, float* y) noexcept {\n"
      "  for (int i = 0; i < n; ++i) y[i] += a * x[i];\n}\n",
      "saxpy");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Roles(*s), "n:size a:scalar x:input y:inout ");
}

TEST(InferSpecTest, ReturnTypeOnItsOwnLine) {
  auto s = InferSpec(
      "__host__ float\ndot(int n, const float* x, const float* y) {\n  return 0;\n}\n", "dot");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Roles(*s), "n:size x:input y:input returns float");
}

TEST(InferSpecTest, NoDefinitionIsAnError) {
  auto s = InferSpec("void g(float* y) { f(y, 3); }\nvoid f(float* y, int n);\n", "f");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "no definition of the function 'f' in the source");
}

}  // namespace
}  // namespace regrapht::verify
