#include "verify/spec/expr.h"

#include <gtest/gtest.h>

namespace regrapht::verify {
namespace {

TEST(ExprTest, Evaluates) {
  std::map<std::string, int64_t> v = {{"n", 10}, {"m", 3}};
  EXPECT_EQ(*Expr::Parse("n")->Eval(v), 10);
  EXPECT_EQ(*Expr::Parse("n*m + 1")->Eval(v), 31);
  EXPECT_EQ(*Expr::Parse("(n+1)*(m-1)")->Eval(v), 22);
  EXPECT_EQ(*Expr::Parse("1<<m")->Eval(v), 8);
  EXPECT_EQ(*Expr::Parse("n/3 + n%3")->Eval(v), 4);
  EXPECT_EQ(*Expr::Parse("max(n, 100) - min(m, 1)")->Eval(v), 99);
  EXPECT_EQ(*Expr::Parse("-m + n")->Eval(v), 7);
}

TEST(ExprTest, Errors) {
  EXPECT_EQ(Expr::Parse("n*").status().message(), "expression \"n*\": unexpected end at character 3");
  EXPECT_EQ(Expr::Parse("n + $").status().message(), "expression \"n + $\": unexpected '$' at character 5");
  EXPECT_FALSE(Expr::Parse("").ok());
  EXPECT_EQ(Expr::Parse("k*2")->Eval({}).status().message(),
            "expression \"k*2\": unknown variable 'k' at character 2");
  EXPECT_FALSE(Expr::Parse("n/0")->Eval({{"n", 1}}).ok());
  EXPECT_FALSE(Expr::Parse("n*n*n")->Eval({{"n", int64_t{1} << 40}}).ok());
}

TEST(ExprTest, VariablesAndCpp) {
  auto e = Expr::Parse("rows * (cols + 1)");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->variables(), (std::set<std::string>{"cols", "rows"}));
  EXPECT_EQ(e->ToCpp("d->v_"), "(d->v_rows*(d->v_cols+int64_t(1)))");
  EXPECT_EQ(Expr::Parse("max(n,2)")->ToCpp("v_"), "(std::max<int64_t>(v_n, int64_t(2)))");
}

}  // namespace
}  // namespace regrapht::verify
