#include "regrapht/status.h"

#include <gtest/gtest.h>

namespace regrapht {
namespace {

Result<int> Half(int x) {
  if (x % 2) return Status::InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  RG_ASSIGN_OR_RETURN(int h, Half(x));
  RG_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(StatusTest, OkAndErrors) {
  EXPECT_TRUE(Status::Ok().ok());
  Status s = Status::NotFound("x.json");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.ToString(), "not found: x.json");
  EXPECT_EQ(s.WithContext("loading").message(), "loading: x.json");
}

TEST(StatusTest, ResultPropagates) {
  EXPECT_EQ(*Quarter(8), 2);
  auto r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "odd: 3");
  EXPECT_EQ(Quarter(5).value_or(-1), -1);
}

}  // namespace
}  // namespace regrapht
