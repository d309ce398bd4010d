#include "verify/judge/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace regrapht::verify {
namespace {

template <class T>
ArrayRecord Rec(const std::vector<T>& v, const std::string& name = "y") {
  ArrayRecord r;
  r.name = name;
  r.elem_size = sizeof(T);
  r.count = v.size();
  r.bytes.assign(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  return r;
}

ElementType T(ScalarType s) {
  ElementType t;
  t.scalar = s;
  return t;
}

ProblemSpec Spec() { return ProblemSpec(); }

TEST(CompareTest, FloatTolerance) {
  auto s = Spec();
  Tolerance tol{1e-6, 1e-3};
  auto e = Rec<float>({1.0f, 100.0f, 0.0f});
  EXPECT_FALSE(CompareOutput(s, T(ScalarType::kFloat), tol, true, e, Rec<float>({1.0005f, 100.09f, 5e-7f})));
  auto m = CompareOutput(s, T(ScalarType::kFloat), tol, true, e, Rec<float>({1.0f, 100.2f, 0.0f}));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 1);
  EXPECT_EQ(m->ToString(), "output 'y'[1]: expected 100, got 100.199997");
}

TEST(CompareTest, NanPoisonNeverMatches) {
  auto s = Spec();
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tolerance loose{1e9, 1e9};
  auto m = CompareOutput(s, T(ScalarType::kFloat), loose, true, Rec<float>({1, 2}), Rec<float>({1, nan}));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->got, "nan");
  // A NaN the reference produced must be reproduced.
  EXPECT_FALSE(CompareOutput(s, T(ScalarType::kFloat), loose, true, Rec<float>({nan}), Rec<float>({nan})));
  EXPECT_TRUE(CompareOutput(s, T(ScalarType::kFloat), loose, true, Rec<float>({nan}), Rec<float>({0})));
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(CompareOutput(s, T(ScalarType::kFloat), loose, true, Rec<float>({inf}), Rec<float>({-inf})));
}

TEST(CompareTest, IntegersExact) {
  auto s = Spec();
  EXPECT_FALSE(CompareOutput(s, T(ScalarType::kInt32), {}, true, Rec<int>({1, -2}), Rec<int>({1, -2})));
  auto m = CompareOutput(s, T(ScalarType::kInt32), {}, true, Rec<int>({1, -2}), Rec<int>({1, -3}));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ToString(), "output 'y'[1]: expected -2, got -3");
  auto big = CompareOutput(s, T(ScalarType::kSizeT), {}, true, Rec<size_t>({~size_t{0}}), Rec<size_t>({0}));
  ASSERT_TRUE(big);
  EXPECT_EQ(big->expected, "18446744073709551615");
}

TEST(CompareTest, LengthMismatch) {
  auto m = CompareOutput(Spec(), T(ScalarType::kDouble), {}, true, Rec<double>({1, 2}), Rec<double>({1}));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ToString(), "output 'y': expected 2 elements, got 1");
}

TEST(CompareTest, UnorderedOutputs) {
  auto s = Spec();
  EXPECT_FALSE(CompareOutput(s, T(ScalarType::kInt32), {}, false, Rec<int>({3, 1, 2}), Rec<int>({1, 2, 3})));
  EXPECT_TRUE(CompareOutput(s, T(ScalarType::kInt32), {}, true, Rec<int>({3, 1, 2}), Rec<int>({1, 2, 3})));
  EXPECT_TRUE(CompareOutput(s, T(ScalarType::kInt32), {}, false, Rec<int>({3, 1, 2}), Rec<int>({1, 2, 2})));
}

TEST(CompareTest, StructsFieldByField) {
  ProblemSpec s;
  s.structs.push_back({"P", {{"id", ScalarType::kInt32}, {"v", ScalarType::kDouble}}});
  ElementType t;
  t.struct_index = 0;
  struct P {
    int id;
    double v;
  };
  std::vector<P> e = {{1, 0.5}, {2, 1.5}}, g = {{1, 0.5}, {2, 1.6}};
  auto m = CompareOutput(s, t, {1e-9, 1e-9}, true, Rec(e), Rec(g));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ToString(), "output 'y'[1]: expected (id=2, v=1.5), got (id=2, v=1.6000000000000001)");
  EXPECT_EQ(s.ElementSize(t), sizeof(P));
}

TEST(CompareTest, ConstantAndPoisonDetection) {
  EXPECT_TRUE(IsConstant(Rec<float>({0, 0, 0})));
  EXPECT_FALSE(IsConstant(Rec<float>({0, 1, 0})));
  EXPECT_FALSE(IsConstant(Rec<float>({0})));
  auto sp = Spec();
  // -m0*(m1/r) and -m1*(m0/r): equal up to rounding, not a varying output.
  EXPECT_FALSE(VariesBeyondRounding(sp, T(ScalarType::kFloat), Rec<float>({-0.295973778f, -0.29597381f})));
  EXPECT_TRUE(VariesBeyondRounding(sp, T(ScalarType::kFloat), Rec<float>({-0.2959f, -0.2960f})));
  // Tiny values under a loose absolute tolerance still vary.
  EXPECT_TRUE(VariesBeyondRounding(sp, T(ScalarType::kFloat), Rec<float>({1e-7f, 3e-7f, 0.0f})));
  EXPECT_TRUE(VariesBeyondRounding(sp, T(ScalarType::kInt32), Rec<int>({5, 5, 6})));
  EXPECT_FALSE(VariesBeyondRounding(sp, T(ScalarType::kInt32), Rec<int>({5, 5, 5})));
  EXPECT_TRUE(VariesBeyondRounding(sp, T(ScalarType::kDouble), Rec<double>({1.0, std::nan("")})));
  EXPECT_FALSE(VariesBeyondRounding(sp, T(ScalarType::kDouble), Rec<double>({2.0})));
  auto s = Spec();
  std::vector<int> v = {1, 2, 3};
  std::memset(&v[2], 0xA5, sizeof(int));
  EXPECT_EQ(FindPoison(s, T(ScalarType::kInt32), Rec(v)), 2);
  EXPECT_EQ(FindPoison(s, T(ScalarType::kInt32), Rec<int>({1, 2})), -1);
  EXPECT_EQ(FindPoison(s, T(ScalarType::kDouble), Rec<double>({1, std::nan("")})), 1);
}

TEST(CompareTest, ComplexComponents) {
  auto s = Spec();
  std::vector<float> e = {1, 2, 3, 4}, g = {1, 2, 3, 4.5f};  // two complex<float>
  ArrayRecord re = Rec(e), rg = Rec(g);
  re.elem_size = rg.elem_size = 8;
  re.count = rg.count = 2;
  auto m = CompareOutput(s, T(ScalarType::kComplexFloat), {1e-6, 1e-6}, true, re, rg);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->ToString(), "output 'y'[1]: expected (3, 4), got (3, 4.5)");
}

}  // namespace
}  // namespace regrapht::verify
